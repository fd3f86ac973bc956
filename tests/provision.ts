/**
 * Provisioning of `deno task test` (run before the suite): the browser tests
 * (tests/report_browser_test.ts) need Debian's Chromium at /usr/bin/chromium and a CJK font
 * (fonts-noto-cjk: the planner's Chinese messages must render as glyphs). When either is
 * missing and this process may install packages (root, apt-get present), it installs them with
 * apt-get; otherwise, or when the install fails, it prints ONE line naming what to install and
 * exits 1 — so a fresh machine with only Node.js passes the README's test command as root, and
 * anywhere else the reason is the first line, not two failed tests deep in the output.
 * @module
 */

/** Where the browser tests and reports/screenshot.ts look for Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

/** The Debian packages the browser tests need. */
export const PACKAGES = ["chromium", "fonts-noto-cjk"];

async function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  try {
    const out = await new Deno.Command(cmd, {
      args,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { ok: out.success, text };
  } catch (e) {
    // Not installed at all (NotFound): as good as a failure, with the reason.
    return { ok: false, text: (e as Error).message };
  }
}

/** What is missing: a subset of {@link PACKAGES} (empty when the browser tests can run). */
export async function missingPackages(): Promise<string[]> {
  const missing: string[] = [];
  try {
    const st = await Deno.stat(CHROMIUM);
    if (!st.isFile) missing.push("chromium");
  } catch {
    missing.push("chromium");
  }
  const fonts = await run("fc-list", []);
  if (!fonts.ok || !/Noto Sans CJK/i.test(fonts.text)) missing.push("fonts-noto-cjk");
  return missing;
}

async function main(): Promise<number> {
  let missing = await missingPackages();
  if (missing.length === 0) return 0;
  const manual = `the browser tests need Debian's ${missing.join(" and ")}: install them ` +
    `(apt-get install -y ${PACKAGES.join(" ")}, as root) and re-run deno task test`;
  const uid = (await run("id", ["-u"])).text.trim();
  const apt = await run("apt-get", ["--version"]);
  if (uid !== "0" || !apt.ok) {
    console.error(`provision: ${manual} (${uid !== "0" ? "not root" : "no apt-get"} here)`);
    return 1;
  }
  console.error(`provision: installing ${PACKAGES.join(" ")} with apt-get (missing: ${missing})`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const update = await run("apt-get", ["update", "-qq"], env);
  const install = update.ok
    ? await run("apt-get", ["install", "-y", "-qq", ...PACKAGES], env)
    : update;
  missing = await missingPackages();
  if (!install.ok || missing.length) {
    const log = await Deno.makeTempFile({ prefix: "navscope_apt_", suffix: ".log" });
    await Deno.writeTextFile(log, update.text + install.text);
    console.error(`provision: apt-get failed (log ${log}); ${manual}`);
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
