/**
 * The GitHub issue bot that a GitHub Actions runner runs (docs/triage.md, _GitHub Actions_): the
 * thin CLI over {@link triageIssue} (src/jobs/triage_issue.ts) — flags and environment in,
 * navscope triage run in a subprocess without network or token, the comment posted.
 * @module
 */
import { NavscopeError } from "../../src/errors.ts";
import { parseByteSize } from "../../src/codec/gzip.ts";
import { COMMENT_MARKER, isSafeBranch } from "../../src/analyze/issue_triage.ts";
import {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_TOTAL_BYTES,
  triageIssue,
} from "../../src/jobs/triage_issue.ts";

/**
 * The default runner: `navscope` of this checkout in a subprocess, with read/write/env
 * permissions only and without the GitHub token in its environment — it parses zips from
 * strangers, so it gets neither the network nor the token.
 */
export async function runTriageSubprocess(argv: string[]): Promise<number> {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const env = Deno.env.toObject();
  for (const k of Object.keys(env)) {
    if (/TOKEN|^ACTIONS_/.test(k)) delete env[k];
  }
  const p = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", main, ...argv],
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  });
  return (await p.output()).code;
}

/** Usage text of the runner. */
export const help = `deno task triage-issue [ISSUE] [options]

Triages a GitHub issue: downloads the MaaEnd-logs-*.zip volumes linked from its body and
comments, runs navscope triage on them and posts triage.md as one comment (a re-run edits the
comment marked ${COMMENT_MARKER}). No bundle linked: posts nothing, exits 0.

  ISSUE                 issue number (default: the event payload at GITHUB_EVENT_PATH)
  --repo OWNER/NAME     repository (default GITHUB_REPOSITORY)
  --pack PACK           pack to replay on (repeatable; default NAVSCOPE_TRIAGE_PACKS, ':'-separated)
  --work DIR            work folder for bundles/ and out/ (default a new temp folder)
  --max-file SIZE       cap per volume (default 50M)
  --max-total SIZE      cap on all volumes (default 200M)
  --bot-login LOGIN     the account whose marked comment is edited (default any bot account)
  --assets-branch BRANCH  commit the pictures to BRANCH under triage/ISSUE/RUN_ID/ and embed
                        them in the comment (default NAVSCOPE_ASSETS_BRANCH; none: the comment
                        says they are in the run's artifact; needs contents: write)
  --dry-run             print the comment, post nothing

env: GITHUB_TOKEN (required), GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL,
GITHUB_SERVER_URL + GITHUB_RUN_ID (the run link in the footer, the pictures' folder),
NAVSCOPE_TRIAGE_PACKS, NAVSCOPE_ASSETS_BRANCH.
exit: 0 done (or nothing to do), 1 bad input / API or download failure, 2 usage.`;

function usage(what: string): NavscopeError {
  return new NavscopeError("usage", what);
}

/** The issue number of an Actions event payload: `issue.number` or `inputs.issue_number`. */
export function issueOfEvent(payload: unknown): number | null {
  const p = payload as { issue?: { number?: unknown }; inputs?: { issue_number?: unknown } };
  const v = p?.issue?.number ?? p?.inputs?.issue_number;
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : null;
}

/** The CLI: parses flags and env, runs {@link triageIssue}; resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  try {
    if (args.includes("--help") || args.includes("-h")) {
      console.log(help);
      return 0;
    }
    let issue: number | null = null;
    let repo = Deno.env.get("GITHUB_REPOSITORY") ?? "";
    const packs: string[] = [];
    let work: string | undefined;
    let maxFile = DEFAULT_MAX_FILE_BYTES, maxTotal = DEFAULT_MAX_TOTAL_BYTES;
    let botLogin: string | undefined;
    let dryRun = false;
    let assetsBranch = Deno.env.get("NAVSCOPE_ASSETS_BRANCH") ?? "";
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      const value = () => {
        const v = args[++i];
        if (v === undefined || v.startsWith("--")) throw usage(`${a} needs a value`);
        return v;
      };
      const size = () => {
        const v = value(), n = parseByteSize(v);
        if (n === null || n <= 0) throw usage(`${a} ${JSON.stringify(v)} is not a size`);
        return n;
      };
      if (a === "--repo") repo = value();
      else if (a === "--pack") packs.push(value());
      else if (a === "--work") work = value();
      else if (a === "--max-file") maxFile = size();
      else if (a === "--max-total") maxTotal = size();
      else if (a === "--bot-login") botLogin = value();
      else if (a === "--dry-run") dryRun = true;
      else if (a === "--assets-branch") assetsBranch = value();
      else if (/^\d+$/.test(a) && issue === null) issue = Number(a);
      else throw usage(`unknown argument ${JSON.stringify(a)}`);
    }
    if (packs.length === 0) {
      packs.push(...(Deno.env.get("NAVSCOPE_TRIAGE_PACKS") ?? "").split(":").filter((p) => p));
    }
    if (issue === null) {
      const ev = Deno.env.get("GITHUB_EVENT_PATH");
      if (ev) {
        let payload: unknown;
        try {
          payload = JSON.parse(await Deno.readTextFile(ev));
        } catch (e) {
          throw new NavscopeError("io", `cannot read the event payload: ${(e as Error).message}`, {
            file: ev,
          });
        }
        issue = issueOfEvent(payload);
      }
    }
    if (issue === null || issue <= 0) {
      throw usage("no issue number (give ISSUE, or run from an issue event)");
    }
    if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) {
      throw usage(
        `repository ${JSON.stringify(repo)} is not OWNER/NAME (--repo or GITHUB_REPOSITORY)`,
      );
    }
    if (assetsBranch && !isSafeBranch(assetsBranch)) {
      throw usage(
        `assets branch ${
          JSON.stringify(assetsBranch)
        } is not a branch name (--assets-branch or NAVSCOPE_ASSETS_BRANCH)`,
      );
    }
    const token = Deno.env.get("GITHUB_TOKEN");
    if (!token) throw usage("GITHUB_TOKEN is not set");
    const server = Deno.env.get("GITHUB_SERVER_URL"), run = Deno.env.get("GITHUB_RUN_ID");
    const workDir = work ?? await Deno.makeTempDir({ prefix: "navscope-triage-" });
    await Deno.mkdir(workDir, { recursive: true });
    const r = await triageIssue({
      runTriage: runTriageSubprocess,
      log: (l) => console.error(l),
      repo,
      issue,
      token,
      workDir,
      packs,
      maxFileBytes: maxFile,
      maxTotalBytes: maxTotal,
      dryRun,
      ...(botLogin ? { botLogin } : {}),
      ...(assetsBranch ? { assetsBranch } : {}),
      ...(run ? { runId: run } : {}),
      ...(server ? { serverUrl: server } : {}),
      ...(Deno.env.get("GITHUB_API_URL") ? { apiUrl: Deno.env.get("GITHUB_API_URL") } : {}),
      ...(server && run ? { runUrl: `${server}/${repo}/actions/runs/${run}` } : {}),
    });
    if (r.action === "dry-run") console.log(r.body);
    return 0;
  } catch (e) {
    if (e instanceof NavscopeError) {
      console.error(`triage-issue: error: ${e.message}`);
      return e.code === "usage" ? 2 : 1;
    }
    if (e instanceof Error && Object.values(Deno.errors).some((k) => e instanceof k)) {
      console.error(`triage-issue: error: ${e.message.replace(/,? run again with .*$/, "")}`);
      return 1;
    }
    throw e;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
