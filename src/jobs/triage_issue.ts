/**
 * The GitHub issue bot's workflow (docs/triage.md, _GitHub Actions_): read an issue and its
 * comments, download the MaaEnd log bundles they link, run `navscope triage` on them and post
 * its `triage.md` as one comment — editing the bot's earlier comment on a re-run.
 * {@link triageIssue} takes its `fetch`, its triage runner and its work folder as arguments, so
 * the tests run it offline; the bot's CLI is commands/support/issue_triage_runner.ts.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import {
  assembleComment,
  assetsDir,
  type BundleLink,
  COMMENT_MARKER,
  embedPictures,
  findBundleLinks,
  findMarkedComment,
  type GitHubComment,
  type IgnoredLink,
  isAllowedUrl,
  type PictureHome,
  rawUrl,
} from "../analyze/issue_triage.ts";
import { base64 } from "../../reports/svg_png.ts";

/** Runs `navscope` with the given arguments (`["triage", …]`); resolves to its exit code. */
export type TriageRunner = (argv: string[]) => Promise<number>;

/** What {@link triageIssue} needs. */
export interface TriageIssueOptions {
  /** `owner/name`. */
  repo: string;
  /** Issue number. */
  issue: number;
  /** API token (GITHUB_TOKEN); sent to the API host only, never to attachment hosts. */
  token: string;
  /** Folder for `bundles/` (downloads) and `out/` (triage output); must exist. */
  workDir: string;
  /** Packs for `--pack` (may be empty: triage then skips the replay). */
  packs?: string[];
  /** REST API root (GITHUB_API_URL); default `https://api.github.com`. */
  apiUrl?: string;
  /** Per-volume download cap in bytes; default 50 MB. */
  maxFileBytes?: number;
  /** Cap on all volumes together; default 200 MB. */
  maxTotalBytes?: number;
  /** Login of the bot account whose marked comment is edited; default any `Bot` account. */
  botLogin?: string;
  /** Link to the Actions run, put in the comment's footer. */
  runUrl?: string;
  /**
   * Branch to commit the pictures to (under `triage/<issue>/<run id>/`, created as an orphan
   * branch when absent) so the comment embeds them; none: the comment says they are in the
   * run's artifact.
   */
  assetsBranch?: string;
  /** The run's id (GITHUB_RUN_ID), naming the pictures' folder; default a time stamp. */
  runId?: string;
  /** Web root for the pictures' URLs (GITHUB_SERVER_URL); default `https://github.com`. */
  serverUrl?: string;
  /** Compute the comment but post nothing. */
  dryRun?: boolean;
  /** The network (tests pass a fake). */
  fetch?: typeof fetch;
  /**
   * Runs navscope triage (tests pass a fake; the bot passes a `deno run commands/main.ts`
   * subprocess without network or token: commands/support/issue_triage_runner.ts).
   */
  runTriage?: TriageRunner;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

/** What {@link triageIssue} did. */
export interface TriageIssueResult {
  /** `created` / `updated` a comment, `none` (no bundle linked), or `dry-run`. */
  action: "created" | "updated" | "none" | "dry-run";
  /** The volumes taken, in download order. */
  links: BundleLink[];
  /** `.zip` links not taken, and why. */
  ignored: IgnoredLink[];
  /** Downloaded files (absolute paths under `workDir/bundles/`). */
  files: string[];
  /** The comment's body (empty when `action` is `none`). */
  body: string;
  /** The comment's id, when one was posted or edited. */
  commentId?: number;
  /** Where the pictures are; with `branch`, the commit that holds them. */
  pictures?: PictureHome & { commit?: string };
}

/** Default per-volume cap: MaaEnd's exporter writes volumes of at most 24.5 MB. */
export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Default cap on all volumes of an issue together. */
export const DEFAULT_MAX_TOTAL_BYTES = 200 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const MAX_COMMENT_PAGES = 30;

/**
 * Triages one issue end to end. Refuses (one {@link NavscopeError}, nothing posted) on an API
 * error, a download that fails, is over a cap, empty or not a zip, and a triage that exits
 * non-zero. With no bundle linked it posts nothing and returns `none`.
 */
export async function triageIssue(o: TriageIssueOptions): Promise<TriageIssueResult> {
  const fetchFn = o.fetch ?? fetch;
  const log = o.log ?? (() => {});
  const api = (o.apiUrl ?? "https://api.github.com").replace(/\/+$/, "");
  const base = `${api}/repos/${o.repo}`;
  const ghRaw = (method: string, url: string, body?: unknown) =>
    fetchFn(url, {
      method,
      headers: {
        "Accept": "application/vnd.github+json",
        "Authorization": `Bearer ${o.token}`,
        "X-GitHub-Api-Version": "2022-11-28",
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const gh = async (method: string, url: string, body?: unknown) => {
    const r = await ghRaw(method, url, body);
    if (!r.ok) {
      const text = (await r.text().catch(() => "")).slice(0, 300);
      throw new NavscopeError("io", `GitHub API ${method} ${url}: HTTP ${r.status} ${text}`);
    }
    return r;
  };

  const issue = await (await gh("GET", `${base}/issues/${o.issue}`)).json() as { body?: string };
  const comments: GitHubComment[] = [];
  // Comments come 100 a page; the Link header names the next one. A fixed page bound keeps a
  // misbehaving API from looping the bot.
  let next: string | null = `${base}/issues/${o.issue}/comments?per_page=100`;
  for (let page = 0; next && page < MAX_COMMENT_PAGES; page++) {
    const r: Response = await gh("GET", next);
    comments.push(...await r.json() as GitHubComment[]);
    next = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get("link") ?? "")?.[1] ?? null;
  }
  const marked = findMarkedComment(comments, o.botLogin);
  // The bot's own comment is not searched: it names volumes, and a link in it must not feed
  // the next run.
  const texts = [
    { source: "body", text: issue.body },
    ...comments.filter((c) => !(c.body ?? "").includes(COMMENT_MARKER)).map((c) => ({
      source: `comment ${c.id}`,
      text: c.body,
    })),
  ];
  const { links, ignored } = findBundleLinks(texts);
  for (const i of ignored) log(`ignored ${i.url}: ${i.why}`);
  if (links.length === 0) {
    log(`issue #${o.issue}: no MaaEnd-logs-*.zip attachment; nothing posted`);
    return { action: "none", links, ignored, files: [], body: "" };
  }

  const bundles = `${o.workDir}/bundles`;
  const out = `${o.workDir}/out`;
  await Deno.mkdir(bundles, { recursive: true });
  const files: string[] = [];
  const maxFile = o.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxTotal = o.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  let total = 0;
  for (const l of links) {
    const path = `${bundles}/${l.fileName}`;
    const n = await download(fetchFn, l, path, maxFile, maxTotal - total);
    total += n;
    files.push(path);
    log(`downloaded ${l.fileName} (${n} bytes, from ${l.source})`);
  }

  const argv = ["triage", ...files, ...(o.packs ?? []).flatMap((p) => ["--pack", p])];
  argv.push("--out", out);
  const code = await (o.runTriage ?? noRunner)(argv);
  if (code !== 0) {
    throw new NavscopeError("bad_value", `navscope triage exited ${code}; nothing posted`);
  }
  let md: string;
  try {
    md = await Deno.readTextFile(`${out}/triage.md`);
  } catch (e) {
    throw new NavscopeError("io", `navscope triage wrote no triage.md: ${(e as Error).message}`, {
      file: `${out}/triage.md`,
    });
  }
  const { home, urls } = await publishPictures(o, out, { ghRaw, gh, base, log });
  const body = assembleComment(embedPictures(md, urls), {
    files: links.map((l) => l.fileName),
    ...(o.runUrl ? { runUrl: o.runUrl } : {}),
    pictures: home,
  });
  if (o.dryRun) return { action: "dry-run", links, ignored, files, body, pictures: home };
  if (marked) {
    await gh("PATCH", `${base}/issues/comments/${marked.id}`, { body });
    log(`updated comment ${marked.id} on issue #${o.issue}`);
    return {
      action: "updated",
      links,
      ignored,
      files,
      body,
      commentId: marked.id,
      pictures: home,
    };
  }
  const r = await gh("POST", `${base}/issues/${o.issue}/comments`, { body });
  const id = (await r.json() as { id?: number }).id;
  log(`posted comment ${id ?? "?"} on issue #${o.issue}`);
  return {
    action: "created",
    links,
    ignored,
    files,
    body,
    ...(id ? { commentId: id } : {}),
    pictures: home,
  };
}

/** The API calls {@link publishPictures} makes. */
interface GitHubApi {
  /** A request whose answer is returned whatever its status. */
  ghRaw: (method: string, url: string, body?: unknown) => Promise<Response>;
  /** A request that throws on a non-2xx answer. */
  gh: (method: string, url: string, body?: unknown) => Promise<Response>;
  /** `API/repos/OWNER/NAME`. */
  base: string;
  log: (line: string) => void;
}

/**
 * Commits the triage's PNGs to the assets branch (when asked, and not a dry run) and returns
 * their URLs; a failed commit is logged and the pictures are left to the artifact (the comment
 * says why), since the triage itself is still worth posting.
 */
async function publishPictures(
  o: TriageIssueOptions,
  out: string,
  api: GitHubApi,
): Promise<{ home: PictureHome & { commit?: string }; urls: Map<string, string> }> {
  const urls = new Map<string, string>();
  if (!o.assetsBranch) return { home: { where: "artifact" }, urls };
  const names: string[] = [];
  for await (const e of Deno.readDir(out)) {
    if (e.isFile && e.name.endsWith(".png")) names.push(e.name);
  }
  names.sort();
  const dir = assetsDir(o.issue, o.runId ?? `local-${Date.now()}`);
  if (names.length === 0 || o.dryRun) {
    return {
      home: o.dryRun
        ? { where: "artifact", why: "dry run: nothing committed" }
        : { where: "artifact" },
      urls,
    };
  }
  try {
    const files = await Promise.all(
      names.map(async (n) => ({ path: `${dir}/${n}`, bytes: await Deno.readFile(`${out}/${n}`) })),
    );
    const commit = await commitFiles(api, o.assetsBranch, files, `navscope triage #${o.issue}`);
    const server = o.serverUrl ?? "https://github.com";
    for (const n of names) urls.set(n, rawUrl(server, o.repo, commit, `${dir}/${n}`));
    api.log(`committed ${names.length} pictures to ${o.assetsBranch} (${commit}) under ${dir}/`);
    return { home: { where: "branch", branch: o.assetsBranch, dir, commit }, urls };
  } catch (e) {
    const why = `could not commit them to branch ${o.assetsBranch}: ${(e as Error).message}`;
    api.log(`pictures: ${why}`);
    return { home: { where: "artifact", why: why.slice(0, 300) }, urls };
  }
}

/** Tries of the ref update (another run may move the branch between our read and write). */
const REF_TRIES = 3;

/**
 * Commits `files` on top of `branch` through the git data API (blobs, a tree on the head's
 * tree, a commit, the ref), which is all a bot with only the API can do; an absent branch is
 * created as an orphan (a commit without parents). Returns the new commit's sha.
 */
async function commitFiles(
  api: GitHubApi,
  branch: string,
  files: { path: string; bytes: Uint8Array }[],
  message: string,
): Promise<string> {
  const { gh, ghRaw, base } = api;
  const json = async <T>(r: Promise<Response>) => await (await r).json() as T;
  const blobs: { path: string; mode: string; type: string; sha: string }[] = [];
  for (const f of files) {
    const b = await json<{ sha: string }>(
      gh("POST", `${base}/git/blobs`, { content: base64(f.bytes), encoding: "base64" }),
    );
    blobs.push({ path: f.path, mode: "100644", type: "blob", sha: b.sha });
  }
  for (let attempt = 1;; attempt++) {
    const ref = await ghRaw("GET", `${base}/git/ref/heads/${branch}`);
    let head: string | null = null, baseTree: string | null = null;
    if (ref.ok) {
      head = (await ref.json() as { object: { sha: string } }).object.sha;
      baseTree = (await json<{ tree: { sha: string } }>(gh("GET", `${base}/git/commits/${head}`)))
        .tree.sha;
    } else if (ref.status === 404) await ref.body?.cancel();
    else {
      throw new NavscopeError("io", `GitHub API GET ref heads/${branch}: HTTP ${ref.status}`);
    }
    const tree = await json<{ sha: string }>(
      gh("POST", `${base}/git/trees`, {
        ...(baseTree ? { base_tree: baseTree } : {}),
        tree: blobs,
      }),
    );
    const commit = await json<{ sha: string }>(gh("POST", `${base}/git/commits`, {
      message,
      tree: tree.sha,
      parents: head ? [head] : [],
    }));
    const r = head
      ? await ghRaw("PATCH", `${base}/git/refs/heads/${branch}`, { sha: commit.sha, force: false })
      : await ghRaw("POST", `${base}/git/refs`, { ref: `refs/heads/${branch}`, sha: commit.sha });
    if (r.ok) {
      await r.body?.cancel();
      return commit.sha;
    }
    const text = (await r.text().catch(() => "")).slice(0, 200);
    // 422: the branch moved (or appeared) since we read it; build on the new head.
    if (r.status !== 422 || attempt >= REF_TRIES) {
      throw new NavscopeError(
        "io",
        `GitHub API update of heads/${branch}: HTTP ${r.status} ${text}`,
      );
    }
  }
}

/**
 * Downloads one volume to `path` through `path.part`, renamed only once complete, so the
 * folder never holds a partial volume. Redirects are followed by hand so every hop's host is
 * checked (GitHub's attachment links redirect to signed S3 URLs). Returns the size.
 */
async function download(
  fetchFn: typeof fetch,
  link: BundleLink,
  path: string,
  maxFile: number,
  leftTotal: number,
): Promise<number> {
  const cap = Math.min(maxFile, leftTotal);
  const why = (what: string) =>
    new NavscopeError("bad_value", `${link.fileName}: ${what}`, { file: link.url });
  const overCap = (n: number | string) =>
    why(
      maxFile <= leftTotal
        ? `${n} bytes is over the download cap of ${maxFile} bytes per file`
        : `${n} bytes is over what is left (${leftTotal} bytes) of the cap on all downloads`,
    );
  let url = link.url;
  let r: Response;
  for (let hop = 0;; hop++) {
    try {
      r = await fetchFn(url, { redirect: "manual" });
    } catch (e) {
      throw new NavscopeError("io", `${link.fileName}: download failed: ${(e as Error).message}`, {
        file: url,
      });
    }
    if (r.status < 300 || r.status >= 400) break;
    await r.body?.cancel();
    const loc = r.headers.get("location");
    if (!loc || hop >= MAX_REDIRECTS) throw why(`HTTP ${r.status} without a usable redirect`);
    url = new URL(loc, url).href;
    if (!isAllowedUrl(url)) throw why(`redirected to ${new URL(url).host}, not a GitHub host`);
  }
  if (!r.ok) {
    await r.body?.cancel();
    throw new NavscopeError("io", `${link.fileName}: download failed: HTTP ${r.status}`, {
      file: url,
    });
  }
  const declared = Number(r.headers.get("content-length") ?? NaN);
  if (declared > cap) {
    await r.body?.cancel();
    throw overCap(declared);
  }
  const tmp = `${path}.part`;
  const f = await Deno.open(tmp, { write: true, create: true, truncate: true });
  let n = 0;
  let head = new Uint8Array(0);
  try {
    try {
      for await (const chunk of r.body ?? new ReadableStream<Uint8Array>()) {
        n += chunk.length;
        // The cap is checked while streaming too: Content-Length may be absent or lie.
        if (n > cap) throw overCap(`more than ${cap}`);
        if (head.length < 4) head = new Uint8Array([...head, ...chunk.subarray(0, 4)]);
        let off = 0;
        while (off < chunk.length) off += await f.write(chunk.subarray(off));
      }
    } finally {
      f.close();
    }
    if (n === 0) throw why("the download is empty");
    // "PK\3\4" (a local header) or "PK\5\6" (an empty archive): an HTML error page saved as
    // .zip is refused here, not deep inside triage.
    if (!(head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5))) {
      throw why("the download is not a zip archive");
    }
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  return n;
}

/** Without a runner there is no triage to run: the caller names how navscope runs. */
function noRunner(): Promise<number> {
  return Promise.reject(
    new NavscopeError("usage", "triageIssue: no runTriage given (how navscope triage runs)"),
  );
}
