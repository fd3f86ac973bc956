/**
 * `report --baseline BASE --across-profiles` (issue 29): runs of two planner profiles are compared
 * as `diff --across-profiles` compares them, and the page names both profiles and lists the legs
 * whose outcome changed; without the flag the report refuses, as diff does.
 */
import { assert, assertEquals, assertRejects } from "./assert.ts";
import type { NavscopeError } from "../src/errors.ts";
import { run } from "../commands/report.ts";
import { captureOutput } from "../commands/support/terminal.ts";

const FIXTURE = new URL("./fixtures/analyze/plans.log", import.meta.url);

/** The first three plan lines of the fixture as legs a, b, c; `profile` added when given. */
async function runLog(path: string, profile: string | null, longerB: boolean): Promise<void> {
  const lines = (await Deno.readTextFile(FIXTURE)).split("\n")
    .filter((l) => l.includes("NAVSCOPE plan.") && l.includes("[ok=true]")).slice(0, 3);
  assertEquals(lines.length, 3);
  const out = lines.map((l, i) => {
    let s = l.trimEnd() + ` [leg=${"abc"[i]}]`;
    if (profile) s += ` [profile=${profile}]`;
    if (longerB && i === 1) s = s.replace(/\[length=[^\]]*\]/, "[length=95.5]");
    return s;
  });
  await Deno.writeTextFile(path, out.join("\n") + "\n");
}

Deno.test("report: --across-profiles compares a reference run with a spec run and lists the changed legs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await runLog(`${dir}/ref.log`, "reference", false);
    await runLog(`${dir}/spec.log`, null, true);
    // Without the flag: refused, as by navscope diff (a usage error: exit 2).
    const e = await assertRejects(
      run([`${dir}/spec.log`, "--baseline", `${dir}/ref.log`, "--out", `${dir}/r0.html`]),
    ) as NavscopeError;
    assertEquals(e.code, "usage");
    assert(e.message.includes("--across-profiles"), e.message);
    const ok = await captureOutput(() =>
      run([
        `${dir}/spec.log`,
        "--baseline",
        `${dir}/ref.log`,
        "--across-profiles",
        "--out",
        `${dir}/r.html`,
        "--json",
        `${dir}/r.json`,
      ])
    );
    assertEquals(ok.value, 0, ok.err);
    const data = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assertEquals(data.baseline.profiles, { base: ["reference"], current: ["spec"] });
    assertEquals(data.baseline.changed_legs.length, 1);
    assert(
      String(data.baseline.changed_legs[0].leg).includes("b"),
      data.baseline.changed_legs[0].leg,
    );
    assertEquals(data.overview.profiles, [{ profile: "spec", plans: 3 }]);
    const html = await Deno.readTextFile(`${dir}/r.html`);
    assert(html.includes("Legs changed across profiles"), "the page lists the changed legs");
    // --across-profiles alone is a usage error.
    const alone = await assertRejects(
      run([`${dir}/spec.log`, "--across-profiles", "--out", `${dir}/r2.html`]),
    ) as NavscopeError;
    assertEquals(alone.code, "usage");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
