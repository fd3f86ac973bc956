/**
 * The pure half of the GitHub issue bot (docs/triage.md, _GitHub Actions_): which attachment
 * URLs of an issue are MaaEnd log bundles, how their volumes group, which earlier comment is the
 * bot's own, and the comment text. No I/O here, so every rule is tested on strings; the runner
 * (`src/jobs/triage_issue.ts`, its CLI `commands/support/issue_triage_runner.ts`) does the downloads
 * and the API calls.
 * @module
 */
import { NavscopeError } from "../errors.ts";

/**
 * A MaaEnd bundle volume's file name. The name is parsed from the right because versions
 * contain `-` (`v2.23.0-rc.2`); the older exporter writes no `-partNN`.
 */
export const BUNDLE_NAME_RE =
  /^(?<name>.+)-logs-(?:(?<ver>.+)-)?(?<date>\d{8})-(?<time>\d{6})(?:-part(?<part>\d{2,3}))?\.zip$/;

/** The hidden marker that makes the bot's comment findable again, so a re-run edits it. */
export const COMMENT_MARKER = "<!-- navscope-triage -->";

/** GitHub's limit on an issue comment's body, in characters. */
export const COMMENT_LIMIT = 65_536;

/**
 * The S3 host GitHub's `user-attachments` / `files` URLs redirect to. Named exactly, not as
 * `*.amazonaws.com`, so an attachment link cannot point the bot at any bucket.
 */
export const USER_ASSET_HOST = "github-production-user-asset-6210df.s3.amazonaws.com";

/** Whether the bot may download from `url`: https on github.com, *.githubusercontent.com or the user-asset host. */
export function isAllowedUrl(url: string | URL): boolean {
  let u: URL;
  try {
    u = typeof url === "string" ? new URL(url) : url;
  } catch {
    return false;
  }
  if (u.protocol !== "https:" || u.username || u.password || (u.port && u.port !== "443")) {
    return false;
  }
  const h = u.hostname.toLowerCase();
  return h === "github.com" || h.endsWith(".githubusercontent.com") || h === USER_ASSET_HOST;
}

/** One bundle volume named by an issue: where it is and what its name says. */
export interface BundleLink {
  /** The URL as written (trailing punctuation of prose removed). */
  url: string;
  /** The file name: the URL path's last segment, percent-decoded. */
  fileName: string;
  /** Product (`MaaEnd`). */
  name: string;
  /** Version (`v2.23.0-rc.2`), when the name carries one. */
  ver?: string;
  /** `YYYYMMDD` as written (local time of the exporting machine). */
  date: string;
  /** `HHMMSS` as written. */
  time: string;
  /** Volume number, when the name has `-partNN`. */
  part?: number;
  /** Where the link was found: `body` or `comment <id>`. */
  source: string;
}

/** A URL that looked like a bundle (`.zip`) but was not taken, and why. */
export interface IgnoredLink {
  /** The URL as written. */
  url: string;
  /** Why it was not taken. */
  why: string;
}

/** The text of an issue or comment to search, labelled for the report. */
export interface IssueText {
  /** `body` or `comment <id>`. */
  source: string;
  /** Markdown as GitHub stores it (may be null for an empty body). */
  text: string | null | undefined;
}

// Markdown links `[t](url)`, autolinks `<url>`, HTML `href="url"` and bare URLs all reduce to
// "https:// up to a space, quote, bracket or angle": the delimiters of each form end the match.
const URL_RE = /https?:\/\/[^\s<>()[\]"'`]+/gi;

/** The file name of a URL's path, percent-decoded; null when it cannot be a plain file name. */
export function fileNameOf(url: URL): string | null {
  const seg = url.pathname.slice(url.pathname.lastIndexOf("/") + 1);
  let name: string;
  try {
    name = decodeURIComponent(seg);
  } catch {
    return null;
  }
  // Decoding can smuggle a separator or `..` into the name; such a name would write outside
  // the download folder, so it is refused, not sanitised.
  if (
    name === "" || name.startsWith(".") || /[/\\\0:]/.test(name) || name.includes("..") ||
    // deno-lint-ignore no-control-regex
    /[\x00-\x1f]/.test(name)
  ) return null;
  return name;
}

/**
 * Every MaaEnd bundle volume linked from the texts (issue body first, then comments in
 * order), de-duplicated by URL and by file name (the first link wins: a re-upload of the same
 * volume is the same volume). `.zip` links that are not taken come back in `ignored`.
 */
export function findBundleLinks(
  texts: IssueText[],
): { links: BundleLink[]; ignored: IgnoredLink[] } {
  const links: BundleLink[] = [];
  const ignored: IgnoredLink[] = [];
  const seenUrl = new Set<string>();
  const seenName = new Set<string>();
  for (const { source, text } of texts) {
    for (const m of (text ?? "").matchAll(URL_RE)) {
      const raw = m[0].replace(/[.,;:!?*_~]+$/, "");
      if (seenUrl.has(raw)) continue;
      seenUrl.add(raw);
      let u: URL;
      try {
        u = new URL(raw);
      } catch {
        continue;
      }
      const looksZip = /\.zip$/i.test(u.pathname);
      const name = fileNameOf(u);
      const parsed = name === null ? null : BUNDLE_NAME_RE.exec(name);
      if (!parsed || !name) {
        if (looksZip) {
          ignored.push({
            url: raw,
            why: name === null
              ? "unsafe file name (separator, `..` or control character)"
              : "not a MaaEnd log bundle name",
          });
        }
        continue;
      }
      if (!isAllowedUrl(u)) {
        ignored.push({ url: raw, why: `host ${u.host} is not GitHub's (or not https)` });
        continue;
      }
      if (seenName.has(name)) {
        ignored.push({ url: raw, why: `${name} is already linked` });
        continue;
      }
      seenName.add(name);
      const g = parsed.groups!;
      links.push({
        url: raw,
        fileName: name,
        name: g.name,
        ...(g.ver !== undefined ? { ver: g.ver } : {}),
        date: g.date,
        time: g.time,
        ...(g.part !== undefined ? { part: Number(g.part) } : {}),
        source,
      });
    }
  }
  return { links, ignored };
}

/** The volumes of one bundle: the links that share name, version and stamp. */
export interface BundleGroup {
  /** The file name up to `-partNN` (or without `.zip` for a single-volume bundle). */
  prefix: string;
  /** Its volumes, by part number. */
  links: BundleLink[];
  /** Part numbers absent between 1 and the highest one linked (empty for a single volume). */
  missing: number[];
}

/** Groups links into bundles by prefix, volumes in part order, groups in first-seen order. */
export function groupBundles(links: BundleLink[]): BundleGroup[] {
  const groups = new Map<string, BundleLink[]>();
  for (const l of links) {
    const prefix = l.fileName.replace(/(?:-part\d{2,3})?\.zip$/, "");
    const g = groups.get(prefix);
    if (g) g.push(l);
    else groups.set(prefix, [l]);
  }
  return [...groups].map(([prefix, ls]) => {
    ls.sort((a, b) => (a.part ?? 0) - (b.part ?? 0));
    const have = new Set(ls.map((l) => l.part).filter((p) => p !== undefined));
    const top = Math.max(0, ...have);
    const missing: number[] = [];
    for (let p = 1; p <= top; p++) if (!have.has(p)) missing.push(p);
    return { prefix, links: ls, missing };
  });
}

/** The fields of a GitHub issue comment the bot reads. */
export interface GitHubComment {
  /** Comment id (for PATCH /repos/{o}/{r}/issues/comments/{id}). */
  id: number;
  /** Markdown body. */
  body?: string | null;
  /** Author. */
  user?: { login?: string; type?: string } | null;
}

/**
 * The bot's earlier triage comment: the first one that carries the marker and is written by
 * `botLogin` (when given) or by a bot account, so a user quoting the marker is never edited.
 */
export function findMarkedComment(
  comments: GitHubComment[],
  botLogin?: string,
): GitHubComment | undefined {
  return comments.find((c) =>
    (c.body ?? "").includes(COMMENT_MARKER) &&
    (botLogin ? c.user?.login === botLogin : c.user?.type === "Bot")
  );
}

/** Where the comment's pictures are. */
export type PictureHome =
  /** Committed to the assets branch and embedded in the comment by URL. */
  | { where: "branch"; branch: string; dir: string }
  /** In the workflow run's artifact; `why` says why not on a branch (a failed commit). */
  | { where: "artifact"; why?: string };

/** What goes under the triage text of the comment. */
export interface CommentFooter {
  /** The volumes that were downloaded (file names). */
  files: string[];
  /** The Actions run that made the comment (its artifacts hold report.html and the pictures). */
  runUrl?: string;
  /** Where the pictures are (default: the run's artifact). */
  pictures?: PictureHome;
}

/** The folder of a run's pictures on the assets branch: `triage/<issue>/<run id>`. */
export function assetsDir(issue: number, runId: string): string {
  return `triage/${issue}/${runId}`;
}

/**
 * Whether `name` may be the assets branch: the part of git's ref-name rules a typo breaks
 * (letters, digits, `._/-`; no `..`, `//`, leading `-` or `/`, trailing `/`, `.` or `.lock`).
 */
export function isSafeBranch(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(name) && !/\.\.|\/\/|\/\.|[/.]$|\.lock$/.test(name);
}

/** The URL of `path` in `repo` at `commit`, as an issue comment shows an image. */
export function rawUrl(server: string, repo: string, commit: string, path: string): string {
  return `${server.replace(/\/+$/, "")}/${repo}/raw/${commit}/${
    path.split("/").map(encodeURIComponent).join("/")
  }`;
}

/**
 * Embeds the pictures in the triage text: each `` `NAME.png` `` whose NAME has a URL becomes
 * the image itself (`![NAME](URL)`); other text is left as it is.
 */
export function embedPictures(md: string, urls: ReadonlyMap<string, string>): string {
  return md.replace(/`([\w.-]+\.png)`/g, (all, name: string) => {
    const u = urls.get(name);
    return u ? `![${name}](${u})` : all;
  });
}

function picturesWords(f: CommentFooter): string {
  const p = f.pictures ?? { where: "artifact" };
  if (p.where === "branch") {
    return ` · pictures committed to branch \`${p.branch}\` under \`${p.dir}/\`` +
      (f.runUrl ? ` · [workflow run](${f.runUrl}) (report.html in its artifact)` : "");
  }
  const why = p.why ? ` (${p.why})` : "";
  return f.runUrl
    ? ` · [workflow run](${f.runUrl}): the pictures (\`*.png\`) and report.html are in the run's artifact${why}`
    : ` · the pictures (\`*.png\`) and report.html are in the run's artifact${why}`;
}

/**
 * The comment body: the marker, `triage.md` and a footer naming the volumes and the run. When
 * it would exceed GitHub's limit, the triage text is cut at its last paragraph break that fits
 * (so no table is cut mid-row) and a note says so.
 */
export function assembleComment(triageMd: string, footer: CommentFooter): string {
  const tail = [
    "",
    "---",
    `<sub>navscope triage of ${footer.files.map((f) => `\`${f}\``).join(", ")}` +
    picturesWords(footer) + "</sub>",
    "",
  ].join("\n");
  const head = COMMENT_MARKER + "\n";
  let body = triageMd.replace(/\s+$/, "") + "\n";
  const budget = COMMENT_LIMIT - head.length - tail.length;
  if (budget < 200) {
    throw new NavscopeError("bad_value", "the comment footer leaves no room for the triage");
  }
  if (body.length > budget) {
    const note = "\n_… cut here: the comment would exceed GitHub's 65 536 characters; " +
      "the full triage is in the run's artifacts._\n";
    const room = budget - note.length;
    let cut = body.lastIndexOf("\n\n", room);
    if (cut <= 0) cut = body.lastIndexOf("\n", room);
    if (cut <= 0) cut = room;
    body = body.slice(0, cut) + "\n" + note;
  }
  return head + body + tail;
}
