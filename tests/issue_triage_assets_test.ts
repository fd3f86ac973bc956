/**
 * The issue bot's pictures (issue 53), offline: with an assets branch the PNGs that triage wrote
 * are committed through the git data API (blobs, tree, commit, ref) to an orphan branch under
 * `triage/<issue>/<run id>/`, and the comment embeds them by URL; a second run builds on the
 * branch's head; a branch moved between read and write is retried; without the setting, or when
 * the commit is refused, the comment says the pictures are in the run's artifact. The fake
 * GitHub keeps refs, commits, trees and blobs in memory, as the API answers them.
 */
import { assert, assertEquals } from "./assert.ts";
import { zipSync } from "fflate";
import {
  assetsDir,
  COMMENT_MARKER,
  embedPictures,
  isSafeBranch,
  rawUrl,
} from "../src/analyze/issue_triage.ts";
import { triageIssue } from "../src/jobs/triage_issue.ts";

const API = "https://api.github.com/repos/o/r";
const VOL = "MaaEnd-logs-v1.2.0-20250101-120000.zip";
const VOL_URL = `https://objects.githubusercontent.com/x/${VOL}`;
const PNG1 = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const PNG2 = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 4, 5, 6, 7]);

/** An in-memory git of one repository, behind the REST endpoints the bot uses. */
class FakeGit {
  refs = new Map<string, string>();
  commits = new Map<string, { tree: string; parents: string[]; message: string }>();
  trees = new Map<string, Map<string, string>>();
  blobs = new Map<string, Uint8Array>();
  calls: string[] = [];
  /** Called before a ref update is applied (a test moves the branch here). */
  beforeRefUpdate: (() => void) | null = null;
  /** Status answered to every blob upload (e.g. 403 for a read-only token). */
  blobStatus = 201;
  #n = 0;

  sha(kind: string): string {
    return `${kind}${++this.#n}`.padEnd(40, "0");
  }

  /** Files of the branch's head (path → bytes). */
  filesOf(branch: string): Map<string, Uint8Array> {
    const head = this.refs.get(branch)!;
    const tree = this.trees.get(this.commits.get(head)!.tree)!;
    return new Map([...tree].map(([p, b]) => [p, this.blobs.get(b)!]));
  }

  answer(method: string, path: string, body: Record<string, unknown>): Response | null {
    const ok = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status });
    const m = /^\/git\/(ref\/heads\/|refs\/heads\/|refs$|blobs$|trees$|commits\/?)(.*)$/.exec(path);
    if (!m) return null;
    this.calls.push(`${method} ${path}`);
    const [, kind, rest] = m;
    if (method === "GET" && kind === "ref/heads/") {
      const sha = this.refs.get(rest);
      return sha ? ok({ ref: `refs/heads/${rest}`, object: { sha } }) : ok({}, 404);
    }
    if (method === "GET" && kind.startsWith("commits")) {
      const c = this.commits.get(rest);
      return c ? ok({ sha: rest, tree: { sha: c.tree }, parents: c.parents }) : ok({}, 404);
    }
    if (method === "POST" && kind === "blobs") {
      if (this.blobStatus !== 201) return ok({ message: "Resource not accessible" }, 403);
      assertEquals(body.encoding, "base64");
      const sha = this.sha("b");
      const bin = atob(String(body.content));
      this.blobs.set(sha, Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
      return ok({ sha }, 201);
    }
    if (method === "POST" && kind === "trees") {
      const t = new Map(body.base_tree ? this.trees.get(String(body.base_tree))! : []);
      for (const e of body.tree as { path: string; sha: string; mode: string }[]) {
        assertEquals(e.mode, "100644");
        assert(this.blobs.has(e.sha), `blob ${e.sha}`);
        t.set(e.path, e.sha);
      }
      const sha = this.sha("t");
      this.trees.set(sha, t);
      return ok({ sha }, 201);
    }
    if (method === "POST" && kind.startsWith("commits")) {
      const sha = this.sha("c");
      this.commits.set(sha, {
        tree: String(body.tree),
        parents: body.parents as string[],
        message: String(body.message),
      });
      return ok({ sha }, 201);
    }
    if (method === "POST" && kind === "refs") {
      const name = String(body.ref).replace("refs/heads/", "");
      if (this.refs.has(name)) return ok({ message: "Reference already exists" }, 422);
      this.refs.set(name, String(body.sha));
      return ok({ ref: body.ref, object: { sha: body.sha } }, 201);
    }
    if (method === "PATCH" && kind === "refs/heads/") {
      this.beforeRefUpdate?.();
      this.beforeRefUpdate = null;
      const cur = this.refs.get(rest);
      // Not a fast-forward: the new commit must have the current head as its parent.
      if (!cur || !this.commits.get(String(body.sha))!.parents.includes(cur)) {
        return ok({ message: "Update is not a fast forward" }, 422);
      }
      this.refs.set(rest, String(body.sha));
      return ok({ object: { sha: body.sha } });
    }
    return ok({ message: "unexpected" }, 400);
  }
}

/** A fake GitHub: the issue, its volume, the comment endpoints and {@link FakeGit}. */
async function fakeGitHub(git: FakeGit) {
  const dir = await Deno.makeTempDir({ prefix: "issue-assets-test-" });
  const vol = zipSync({ "debug/maafw.log": new TextEncoder().encode("x\n") });
  const comments: { method: string; body: string }[] = [];
  const f: typeof fetch = (input, init) => {
    const url = String(input), method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : {};
    if (url === `${API}/issues/7`) {
      return Promise.resolve(Response.json({ number: 7, body: `logs: ${VOL_URL}` }));
    }
    if (url === `${API}/issues/7/comments?per_page=100`) return Promise.resolve(Response.json([]));
    if (url === VOL_URL) return Promise.resolve(new Response(vol));
    if (url === `${API}/issues/7/comments` && method === "POST") {
      comments.push({ method, body: body.body });
      return Promise.resolve(Response.json({ id: 900 }, { status: 201 }));
    }
    if (url.startsWith(API)) {
      const r = git.answer(method, url.slice(API.length), body);
      if (r) return Promise.resolve(r);
    }
    return Promise.resolve(new Response("Not Found", { status: 404 }));
  };
  return { dir, fetch: f, comments };
}

/** A fake `navscope triage` writing triage.md (naming two pictures) and the two PNGs. */
async function fakeTriage(argv: string[]): Promise<number> {
  const out = argv[argv.indexOf("--out") + 1];
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(
    `${out}/triage.md`,
    "**2 planner failures**\n\n- picture: `leg-01.png`\n- picture: `leg-02.png`\n- not a picture: `leg-03.png`\n",
  );
  await Deno.writeFile(`${out}/leg-01.png`, PNG1);
  await Deno.writeFile(`${out}/leg-02.png`, PNG2);
  return 0;
}

async function run(git: FakeGit, extra: Record<string, string> = {}) {
  const gh = await fakeGitHub(git);
  const work = `${gh.dir}/work`;
  await Deno.mkdir(work);
  const logs: string[] = [];
  const r = await triageIssue({
    repo: "o/r",
    issue: 7,
    token: "t",
    workDir: work,
    fetch: gh.fetch,
    runTriage: fakeTriage,
    runUrl: "https://github.com/o/r/actions/runs/42",
    log: (l) => logs.push(l),
    ...extra,
  });
  await Deno.remove(gh.dir, { recursive: true });
  return { r, comments: gh.comments, logs };
}

Deno.test("issue pictures: the assets branch is created as an orphan, the comment embeds the PNGs by URL", async () => {
  const git = new FakeGit();
  const { r, comments } = await run(git, { assetsBranch: "navscope-assets", runId: "42" });
  assertEquals(comments.length, 1);
  const head = git.refs.get("navscope-assets")!;
  assertEquals(git.commits.get(head)!.parents, [], "an orphan commit");
  const files = git.filesOf("navscope-assets");
  assertEquals([...files.keys()], ["triage/7/42/leg-01.png", "triage/7/42/leg-02.png"]);
  assertEquals(files.get("triage/7/42/leg-01.png"), PNG1);
  assertEquals(files.get("triage/7/42/leg-02.png"), PNG2);
  const url = `https://github.com/o/r/raw/${head}/triage/7/42/leg-01.png`;
  const body = comments[0].body;
  assert(body.startsWith(COMMENT_MARKER), body);
  assert(body.includes(`![leg-01.png](${url})`), body);
  assert(body.includes(`![leg-02.png](https://github.com/o/r/raw/${head}/triage/7/42/leg-02.png)`));
  assert(body.includes("`leg-03.png`"), "a name with no file stays as it is");
  assert(/committed to branch `navscope-assets` under `triage\/7\/42\/`/.test(body), body);
  assertEquals(r.pictures, {
    where: "branch",
    branch: "navscope-assets",
    dir: "triage/7/42",
    commit: head,
  });
});

Deno.test("issue pictures: a second run builds on the branch's head; a branch moved meanwhile is retried", async () => {
  const git = new FakeGit();
  await run(git, { assetsBranch: "assets/triage", runId: "1" });
  const first = git.refs.get("assets/triage")!;
  // Another run commits between our read of the ref and our update.
  let moved = "";
  git.beforeRefUpdate = () => {
    moved = git.sha("c");
    git.commits.set(moved, { tree: git.commits.get(first)!.tree, parents: [first], message: "x" });
    git.refs.set("assets/triage", moved);
  };
  const { comments } = await run(git, { assetsBranch: "assets/triage", runId: "2" });
  const head = git.refs.get("assets/triage")!;
  assertEquals(git.commits.get(head)!.parents, [moved], "rebuilt on the moved head");
  assertEquals([...git.filesOf("assets/triage").keys()].sort(), [
    "triage/7/1/leg-01.png",
    "triage/7/1/leg-02.png",
    "triage/7/2/leg-01.png",
    "triage/7/2/leg-02.png",
  ]);
  assertEquals(git.calls.filter((c) => c.startsWith("PATCH")).length, 2);
  assert(comments[0].body.includes(`/raw/${head}/triage/7/2/leg-01.png`), comments[0].body);
});

Deno.test("issue pictures: without the setting, or when the commit is refused, the comment points to the artifact", async () => {
  const plain = await run(new FakeGit());
  const body = plain.comments[0].body;
  assert(body.includes("`leg-01.png`") && !body.includes("!["), body);
  assert(/pictures \(`\*\.png`\) and report\.html are in the run's artifact/.test(body), body);
  assertEquals(plain.r.pictures, { where: "artifact" });

  const git = new FakeGit();
  git.blobStatus = 403;
  const refused = await run(git, { assetsBranch: "navscope-assets", runId: "42" });
  assertEquals(refused.comments.length, 1, "the triage is posted all the same");
  const b = refused.comments[0].body;
  assert(!b.includes("!["), b);
  assert(
    /in the run's artifact \(could not commit them to branch navscope-assets: .*403/.test(b),
    b,
  );
  assert(refused.logs.some((l) => /pictures: could not commit/.test(l)), refused.logs.join("\n"));
  assertEquals(git.refs.size, 0);
});

Deno.test("issue pictures: branch names, folders, URLs and embedding", () => {
  for (const ok of ["navscope-assets", "assets/triage", "a.b_c"]) assert(isSafeBranch(ok), ok);
  for (const bad of ["", "-x", "/x", "x/", "a..b", "a//b", "x.lock", "a b", "a~1", "x.", "a/.b"]) {
    assert(!isSafeBranch(bad), bad);
  }
  assertEquals(assetsDir(53, "9001"), "triage/53/9001");
  assertEquals(
    rawUrl("https://github.com/", "o/r", "abc", "triage/1/2/leg 1.png"),
    "https://github.com/o/r/raw/abc/triage/1/2/leg%201.png",
  );
  assertEquals(
    embedPictures("a `leg-01.png` b `x.png` `leg-01.png`", new Map([["leg-01.png", "U"]])),
    "a ![leg-01.png](U) b `x.png` ![leg-01.png](U)",
  );
});
