/**
 * The GitHub issue bot, offline: a fake `fetch` serves an issue, its comments and zip volumes
 * (made here with fflate) from local files; a fake runner stands in for `navscope triage`. Checks
 * which links are taken, the downloads and their caps, and that one comment is posted and a
 * re-run edits it.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { zipSync } from "fflate";
import {
  assembleComment,
  COMMENT_LIMIT,
  COMMENT_MARKER,
  findBundleLinks,
  groupBundles,
  isAllowedUrl,
} from "../src/analyze/issue_triage.ts";
import { issueOfEvent } from "../commands/support/issue_triage_runner.ts";
import { triageIssue } from "../src/jobs/triage_issue.ts";
import { NavscopeError } from "../src/errors.ts";

const API = "https://api.github.com/repos/o/r";
const UA = "https://github.com/user-attachments/files";
const P1 = "MaaEnd-logs-v2.23.0-rc.2-20260808-075256-part01.zip";
const P2 = "MaaEnd-logs-v2.23.0-rc.2-20260808-075256-part02.zip";
const OLD = "MaaEnd-logs-v1.2.0-20250101-120000.zip";

function zipOf(files: Record<string, string>): Uint8Array {
  const enc = new TextEncoder();
  return zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, enc.encode(v)])));
}

interface Posted {
  method: string;
  url: string;
  body?: string;
}

/**
 * A fake GitHub: `routes` maps a URL to a local file (served as is) or to a redirect; every
 * non-GET request is recorded, POST answers with comment id 900. Unknown URLs are 404.
 */
function fakeGitHub(routes: Record<string, string | { redirect: string }>) {
  const posted: Posted[] = [];
  const fetched: string[] = [];
  const auth: Record<string, string | null> = {};
  const f: typeof fetch = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    auth[url] = new Headers(init?.headers).get("authorization");
    if (method !== "GET") {
      posted.push({ method, url, body: JSON.parse(String(init?.body)).body });
      return new Response(JSON.stringify({ id: 900 }), { status: method === "POST" ? 201 : 200 });
    }
    fetched.push(url);
    const r = routes[url];
    if (r === undefined) return new Response("Not Found", { status: 404 });
    if (typeof r !== "string") {
      return new Response(null, { status: 302, headers: { location: r.redirect } });
    }
    const bytes = await Deno.readFile(r);
    return new Response(bytes, { headers: { "content-length": String(bytes.length) } });
  };
  return { fetch: f, posted, fetched, auth };
}

/** A fake `navscope triage`: records argv and writes `--out DIR/triage.md`. */
function fakeTriage(md = "**1 planner failure in 1 run** / 1 次规划失败\n") {
  const calls: string[][] = [];
  const run = async (argv: string[]) => {
    calls.push(argv);
    const out = argv[argv.indexOf("--out") + 1];
    await Deno.mkdir(out, { recursive: true });
    await Deno.writeTextFile(`${out}/triage.md`, md);
    return 0;
  };
  return { run, calls };
}

/** A temp folder with the issue JSON, comments JSON and volumes written as files. */
async function fixtures(
  body: string,
  comments: { id: number; body: string; user?: { login: string; type: string } }[],
  volumes: Record<string, Uint8Array>,
) {
  const dir = await Deno.makeTempDir({ prefix: "issue-triage-test-" });
  await Deno.writeTextFile(`${dir}/issue.json`, JSON.stringify({ number: 7, body }));
  await Deno.writeTextFile(`${dir}/comments.json`, JSON.stringify(comments));
  const routes: Record<string, string | { redirect: string }> = {
    [`${API}/issues/7`]: `${dir}/issue.json`,
    [`${API}/issues/7/comments?per_page=100`]: `${dir}/comments.json`,
  };
  for (const [name, bytes] of Object.entries(volumes)) {
    await Deno.writeFile(`${dir}/${name}`, bytes);
    routes[`https://objects.githubusercontent.com/x/${name}`] = `${dir}/${name}`;
  }
  const work = `${dir}/work`;
  await Deno.mkdir(work);
  return { dir, work, routes };
}

const user = { login: "alice", type: "User" };
const bot = { login: "github-actions[bot]", type: "Bot" };
const vol1 = zipOf({ "debug/maafw.log": "x\n" });
const vol2 = zipOf({ "debug/cpp-algo/debug/maafw.log": "y\n" });

Deno.test("issue triage: bundle links in the body and comments; foreign hosts, other zips and duplicates ignored", () => {
  const { links, ignored } = findBundleLinks([
    {
      source: "body",
      text: `Logs: [${P1}](${UA}/111/${P1}).\nAlso <${UA}/112/${P2}> and ` +
        `https://evil.example.com/${OLD} and http://github.com/${OLD} ` +
        `https://github.com/o/r/files/9/screenshot.zip https://github.com/a/b.png`,
    },
    {
      source: "comment 5",
      text: `again ${UA}/113/${P1}, and the old one: <a href="${UA}/114/${OLD}">old</a>` +
        ` and ${UA}/115/..%2F..%2Fetc-logs-20250101-120000.zip`,
    },
    { source: "comment 6", text: null },
  ]);
  assertEquals(links.map((l) => [l.fileName, l.source, l.part ?? null]), [
    [P1, "body", 1],
    [P2, "body", 2],
    [OLD, "comment 5", null],
  ]);
  assertEquals(links[0].ver, "v2.23.0-rc.2");
  assertEquals([links[0].name, links[0].date, links[0].time], ["MaaEnd", "20260808", "075256"]);
  assertEquals(links[0].url, `${UA}/111/${P1}`, "the sentence's full stop is not in the URL");
  assertEquals(ignored.map((i) => i.why.split(" ").slice(0, 2).join(" ")), [
    "host evil.example.com",
    "host github.com",
    "not a",
    `${P1} is`,
    "unsafe file",
  ]);
  assert(isAllowedUrl("https://user-images.githubusercontent.com/a.zip"));
  assert(isAllowedUrl("https://github-production-user-asset-6210df.s3.amazonaws.com/a.zip"));
  assert(!isAllowedUrl("https://githubusercontent.com.evil.io/a.zip"));
  assert(!isAllowedUrl("https://other-bucket.s3.amazonaws.com/a.zip"));
  assert(!isAllowedUrl("https://github.com:8443/a.zip"));
});

Deno.test("issue triage: volumes group by prefix, in part order, gaps named", () => {
  const p3 = P1.replace("part01", "part03");
  const { links } = findBundleLinks([{
    source: "body",
    text: [p3, OLD, P1].map((n) => `${UA}/1/${n}`).join(" "),
  }]);
  const g = groupBundles(links);
  assertEquals(g.map((x) => [x.prefix, x.links.map((l) => l.fileName), x.missing]), [
    ["MaaEnd-logs-v2.23.0-rc.2-20260808-075256", [P1, p3], [2]],
    ["MaaEnd-logs-v1.2.0-20250101-120000", [OLD], []],
  ]);
});

Deno.test("issue triage: every part downloaded, triage run once on all, one comment posted", async () => {
  const fx = await fixtures(
    `crash, logs: [part 1](https://objects.githubusercontent.com/x/${P1})`,
    [{ id: 1, body: `forgot https://objects.githubusercontent.com/x/${P2}`, user }],
    { [P1]: vol1, [P2]: vol2 },
  );
  const gh = fakeGitHub(fx.routes);
  const tri = fakeTriage();
  const r = await triageIssue({
    repo: "o/r",
    issue: 7,
    token: "T0K",
    workDir: fx.work,
    packs: ["a.nav.gz", "b.nav.gz"],
    fetch: gh.fetch,
    runTriage: tri.run,
    runUrl: "https://github.com/o/r/actions/runs/42",
    log: () => {},
  });
  assertEquals(r.action, "created");
  assertEquals(r.commentId, 900);
  assertEquals(tri.calls, [[
    "triage",
    `${fx.work}/bundles/${P1}`,
    `${fx.work}/bundles/${P2}`,
    "--pack",
    "a.nav.gz",
    "--pack",
    "b.nav.gz",
    "--out",
    `${fx.work}/out`,
  ]]);
  assertEquals(await Deno.readFile(`${fx.work}/bundles/${P1}`), vol1);
  assertEquals(await Deno.readFile(`${fx.work}/bundles/${P2}`), vol2);
  assertEquals(gh.posted.length, 1);
  assertEquals([gh.posted[0].method, gh.posted[0].url], ["POST", `${API}/issues/7/comments`]);
  const body = gh.posted[0].body!;
  assert(body.startsWith(COMMENT_MARKER + "\n**1 planner failure"), body);
  assert(body.includes(`\`${P2}\``) && body.includes("actions/runs/42"), body);
  // The token goes to the API only, never to an attachment host.
  assertEquals(gh.auth[`${API}/issues/7`], "Bearer T0K");
  assertEquals(gh.auth[`https://objects.githubusercontent.com/x/${P1}`], null);
  await Deno.remove(fx.dir, { recursive: true });
});

Deno.test("issue triage: a re-run edits the bot's marked comment, not a user's quote of it", async () => {
  const fx = await fixtures(`https://objects.githubusercontent.com/x/${OLD}`, [
    { id: 3, body: `quoting ${COMMENT_MARKER}`, user },
    // The bot's own comment names a volume; it must not be read as a new attachment.
    {
      id: 4,
      body: `${COMMENT_MARKER}\nold https://objects.githubusercontent.com/x/${P1}`,
      user: bot,
    },
  ], { [OLD]: vol1 });
  const gh = fakeGitHub(fx.routes);
  const r = await triageIssue({
    repo: "o/r",
    issue: 7,
    token: "t",
    workDir: fx.work,
    fetch: gh.fetch,
    runTriage: fakeTriage().run,
    log: () => {},
  });
  assertEquals(r.action, "updated");
  assertEquals(r.links.map((l) => l.fileName), [OLD]);
  assertEquals(gh.posted.map((p) => [p.method, p.url]), [["PATCH", `${API}/issues/comments/4`]]);
  await Deno.remove(fx.dir, { recursive: true });
});

Deno.test("issue triage: no bundle linked: nothing downloaded, run or posted", async () => {
  const fx = await fixtures("the planner is slow, see https://github.com/o/r/files/1/a.zip", [
    { id: 1, body: "me too", user },
  ], {});
  const gh = fakeGitHub(fx.routes);
  const tri = fakeTriage();
  const r = await triageIssue({
    repo: "o/r",
    issue: 7,
    token: "t",
    workDir: fx.work,
    fetch: gh.fetch,
    runTriage: tri.run,
    log: () => {},
  });
  assertEquals([r.action, r.body, tri.calls.length, gh.posted.length], ["none", "", 0, 0]);
  assertEquals(r.ignored.length, 1);
  await Deno.remove(fx.dir, { recursive: true });
});

Deno.test("issue triage: an oversize volume is refused by name; the folder keeps complete files only", async () => {
  const big = new Uint8Array(4096);
  big.set([0x50, 0x4b, 3, 4]);
  const fx = await fixtures(
    `https://objects.githubusercontent.com/x/${P1} https://objects.githubusercontent.com/x/${P2}`,
    [],
    { [P1]: vol1, [P2]: big },
  );
  const gh = fakeGitHub(fx.routes);
  const tri = fakeTriage();
  const e = await assertRejects(triageIssue({
    repo: "o/r",
    issue: 7,
    token: "t",
    workDir: fx.work,
    maxFileBytes: 1000,
    fetch: gh.fetch,
    runTriage: tri.run,
    log: () => {},
  }));
  assert(e instanceof NavscopeError && e.code === "bad_value", String(e));
  assert(e.message.includes(P2) && /over the download cap of 1000 bytes per file/.test(e.message));
  assertEquals([tri.calls.length, gh.posted.length], [0, 0]);
  const left = [...Deno.readDirSync(`${fx.work}/bundles`)].map((d) => d.name);
  assertEquals(left, [P1], "no .part file stays behind");

  // The total cap counts what was already downloaded; a body without Content-Length is cut
  // while it streams.
  const noLength: typeof fetch = async (input, init) => {
    const r = await gh.fetch(input, init);
    return String(input).endsWith(".zip") ? new Response(r.body, { status: r.status }) : r;
  };
  await Deno.remove(`${fx.work}/bundles`, { recursive: true });
  const e2 = await assertRejects(triageIssue({
    repo: "o/r",
    issue: 7,
    token: "t",
    workDir: fx.work,
    maxTotalBytes: vol1.length + 100,
    fetch: noLength,
    runTriage: tri.run,
    log: () => {},
  }));
  assert(/P2|part02/.test(e2.message) && /cap on all downloads/.test(e2.message), e2.message);
  assertEquals([...Deno.readDirSync(`${fx.work}/bundles`)].map((d) => d.name), [P1]);
  await Deno.remove(fx.dir, { recursive: true });
});

Deno.test("issue triage: redirects to GitHub's asset host are followed, elsewhere refused; non-zips refused", async () => {
  const s3 = "https://github-production-user-asset-6210df.s3.amazonaws.com/signed";
  const fx = await fixtures(`${UA}/1/${P1} ${UA}/2/${P2}`, [], { [P1]: vol1 });
  fx.routes[`${UA}/1/${P1}`] = { redirect: `${s3}/${P1}?X-Amz=1` };
  fx.routes[`${s3}/${P1}?X-Amz=1`] = `${fx.dir}/${P1}`;
  fx.routes[`${UA}/2/${P2}`] = { redirect: `https://evil.example.com/${P2}` };
  const opts = {
    repo: "o/r",
    issue: 7,
    token: "t",
    workDir: fx.work,
    runTriage: fakeTriage().run,
    log: () => {},
  };
  const e = await assertRejects(triageIssue({ ...opts, fetch: fakeGitHub(fx.routes).fetch }));
  assert(/part02\.zip: redirected to evil\.example\.com/.test(e.message), e.message);
  assertEquals([...Deno.readDirSync(`${fx.work}/bundles`)].map((d) => d.name), [P1]);

  await Deno.writeTextFile(`${fx.dir}/page.html`, "<html>sign in</html>");
  fx.routes[`${UA}/2/${P2}`] = `${fx.dir}/page.html`;
  const e2 = await assertRejects(triageIssue({ ...opts, fetch: fakeGitHub(fx.routes).fetch }));
  assert(/part02\.zip: the download is not a zip archive/.test(e2.message), e2.message);
  assertEquals([...Deno.readDirSync(`${fx.work}/bundles`)].map((d) => d.name), [P1]);
  await Deno.remove(fx.dir, { recursive: true });
});

Deno.test("issue triage: a failing triage posts nothing; the comment stays under GitHub's limit", async () => {
  const fx = await fixtures(`https://objects.githubusercontent.com/x/${OLD}`, [], { [OLD]: vol1 });
  const gh = fakeGitHub(fx.routes);
  const e = await assertRejects(triageIssue({
    repo: "o/r",
    issue: 7,
    token: "t",
    workDir: fx.work,
    fetch: gh.fetch,
    runTriage: () => Promise.resolve(1),
    log: () => {},
  }));
  assert(/navscope triage exited 1; nothing posted/.test(e.message), e.message);
  assertEquals(gh.posted.length, 0);
  await Deno.remove(fx.dir, { recursive: true });

  const row = "| leg | zone | class |\n";
  const long = "verdict\n\n" + row.repeat(2000) + "\n" + row.repeat(2000);
  const body = assembleComment(long, { files: [OLD] });
  assert(body.length <= COMMENT_LIMIT, `${body.length}`);
  assert(body.includes("cut here") && body.includes(`\`${OLD}\``));
  // Cut at the paragraph break after the first table: all of its rows, none of the second's.
  assertEquals(body.split(row).length - 1, 2000, "cut at a paragraph break");
  assertEquals(issueOfEvent({ issue: { number: 35 } }), 35);
  assertEquals(issueOfEvent({ inputs: { issue_number: "12" } }), 12);
  assertEquals(issueOfEvent({}), null);
});
