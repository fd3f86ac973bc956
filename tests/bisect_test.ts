/**
 * `navscope bisect` (src/jobs/bisect.ts) on a small repository made here: a local clone of
 * this checkout with three commits on top, the middle one a planted one-line planner change
 * (legRequest moves every goal 30 px, off the mesh: the leg's outcome changes). Bisect must name that commit,
 * and refuse refs where the leg's result is the same.
 */
import { assert, assertEquals } from "./assert.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { emptyPlanRecord, formatPlanLine } from "../src/logs/plan_line.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function git(cwd: string, ...args: string[]): Promise<string> {
  const o = await new Deno.Command("git", { args, cwd, stdin: "null", stderr: "piped" }).output();
  if (!o.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(o.stderr)}`);
  return new TextDecoder().decode(o.stdout).trim();
}

Deno.test("navscope bisect: finds the planted commit; same result at both ends is refused", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "navscope_bisect_test_" });
  const repo = join(tmp, "repo");
  try {
    await git(tmp, "clone", "--quiet", "--local", "--no-checkout", ROOT, repo);
    await git(repo, "checkout", "--quiet", "-B", "t", "HEAD");
    const commit = async (msg: string, edit: () => Promise<void>) => {
      await edit();
      await git(repo, "add", "-A");
      await git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", msg);
      return await git(repo, "rev-parse", "HEAD");
    };
    const good = await git(repo, "rev-parse", "HEAD");
    const notes = join(repo, "NOTES.txt");
    await commit("unrelated 1", () => Deno.writeTextFile(notes, "1\n"));
    const file = join(repo, "src", "plan", "battery.ts");
    const src = await Deno.readTextFile(file);
    const line = "    goal: [leg.goal[0], leg.goal[1]],";
    assert(src.includes(line), "the planted line's target moved");
    const planted = await commit(
      "planted: goals move 30 px",
      () =>
        Deno.writeTextFile(file, src.replace(line, "    goal: [leg.goal[0] - 30, leg.goal[1]],")),
    );
    const bad = await commit("unrelated 2", () => Deno.writeTextFile(notes, "2\n"));
    const battery = join(ROOT, "examples", "nav_test", "legs.json");
    const r = await captureOutput(() =>
      main([
        "bisect",
        "--leg",
        "recast_pf_01",
        "--battery",
        battery,
        "--good",
        good,
        "--bad",
        bad,
        "--repo",
        repo,
      ])
    );
    assertEquals(r.value, 0, r.err);
    assert(r.out.includes(`first commit where recast_pf_01 changes: ${planted} planted`), r.out);
    // The goal moved off the mesh: the outcome (and class) changed.
    assert(
      r.out.includes("  before: ok (route ") && r.out.includes("  after:  snap_far_from_mesh"),
      r.out,
    );
    // The same leg given as a plan line (--line FILE:N; the pack from its source field).
    const leg = JSON.parse(await Deno.readTextFile(battery)).legs.find((l: { id: string }) =>
      l.id === "recast_pf_01"
    );
    const rec = {
      ...emptyPlanRecord(leg.zone, leg.start, leg.goal),
      startFloorY: leg.start_floor_y,
      goalFloorY: leg.goal_floor_y,
      leg: leg.id,
    };
    const log = join(tmp, "plans.log");
    await Deno.writeTextFile(log, "noise\n" + formatPlanLine(rec, { srcFile: "nav_test" }) + "\n");
    const byLine = await captureOutput(() =>
      main(["bisect", "--line", `${log}:2`, "--good", good, "--bad", bad, "--repo", repo])
    );
    assertEquals(byLine.value, 0, byLine.err);
    assert(byLine.out.includes(`changes: ${planted} planted`), byLine.out);
    const same = await captureOutput(() =>
      main([
        "bisect",
        "--leg",
        "recast_pf_01",
        "--battery",
        battery,
        "--good",
        planted,
        "--bad",
        bad,
        "--repo",
        repo,
      ])
    );
    assertEquals(same.value, 1, same.out);
    const usage = await captureOutput(() => main(["bisect", "--good", good, "--bad", bad]));
    assertEquals(usage.value, 2);
    const unknown = await captureOutput(() =>
      main([
        "bisect",
        "--leg",
        "nav_test/recast_pf_01",
        "--good",
        "nope",
        "--bad",
        bad,
        "--repo",
        repo,
      ])
    );
    assertEquals(unknown.value, 1, unknown.err);
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
});
