/**
 * The run-history store (src/analyze/history.ts), its change points (history_changes.ts) and
 * `navscope history`: the thirty-night acceptance history (a counter step at night 18, a leg
 * flipping at night 22: exactly those two change points), schema versions, a killed write, two
 * concurrent writers, and the command's add/list/show/export with its exit codes.
 */
import { assert, assertEquals } from "./assert.ts";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { HISTORY_SCHEMA_VERSION, HistoryStore, type NewRun } from "../src/analyze/history.ts";
import { failingSince, historyChanges } from "../src/analyze/history_changes.ts";
import { thirtyNights } from "../testing/history_gen.ts";
import { NavscopeError } from "../src/errors.ts";
import { emptyPlanRecord, formatPlanLine } from "../src/logs/plan_line.ts";
import { makeFingerprint, writeMachineFile } from "../src/analyze/machine.ts";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";

function storeWith(runs: NewRun[]): { h: HistoryStore; dir: string } {
  const dir = Deno.makeTempDirSync({ prefix: "navscope_history_" });
  const h = HistoryStore.open(join(dir, "h.sqlite"));
  for (const r of runs) h.addRun(r);
  return { h, dir };
}

Deno.test("history: thirty nights give exactly the counter step at 18 and the flip at 22", () => {
  const { h, dir } = storeWith(thirtyNights());
  try {
    const runs = h.runs();
    assertEquals(runs.length, 30);
    const changes = historyChanges(runs, h.legs());
    assertEquals(
      changes.map((c) => [c.leg, c.metric, c.run.id, c.commits]),
      [
        ["synthetic/leg0002", "counter:c1", 18, "c17..c18"],
        ["synthetic/leg0004", "outcome", 22, "c21..c22"],
      ],
    );
    assert(Math.abs(changes[0].relative - 0.3) < 0.01, String(changes[0].relative));
    assertEquals([changes[1].before, changes[1].after], [1, 0]);
    const since = failingSince(runs, h.legs("synthetic/leg0004"));
    assertEquals([since?.id, since?.commit], [22, "c22"]);
    assertEquals(failingSince(runs, h.legs("synthetic/leg0002")), null);
  } finally {
    h.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("history: runs and legs read back as written; schema version recorded", () => {
  const { h, dir } = storeWith(thirtyNights().slice(0, 2));
  try {
    const [r] = h.runs();
    assertEquals([r.commit, r.branch, r.legs, r.profile, r.packHashes], [
      "c01",
      "main",
      6,
      "spec",
      ["0000000000000000"],
    ]);
    assertEquals(r.machine?.cpu, "Synthetic CPU");
    const legs = h.legs("leg0001");
    assertEquals(legs.length, 2);
    assertEquals(legs[0].counters, thirtyNights()[0].legs[1].counters);
    const v = h.db.prepare("PRAGMA user_version").get() as { user_version: number };
    assertEquals(v.user_version, HISTORY_SCHEMA_VERSION);
  } finally {
    h.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("history: a store of a newer schema and a foreign SQLite file are refused", () => {
  const dir = Deno.makeTempDirSync({ prefix: "navscope_history_" });
  try {
    const newer = join(dir, "newer.sqlite");
    HistoryStore.open(newer).close();
    const db = new DatabaseSync(newer);
    db.exec(`PRAGMA user_version = ${HISTORY_SCHEMA_VERSION + 1}`);
    db.close();
    let err: unknown;
    try {
      HistoryStore.open(newer);
    } catch (e) {
      err = e;
    }
    assert(err instanceof NavscopeError && err.code === "bad_version", String(err));
    assert(/newer than this navscope/.test((err as Error).message));
    const foreign = join(dir, "foreign.sqlite");
    const f = new DatabaseSync(foreign);
    f.exec("CREATE TABLE x (a)");
    f.close();
    err = undefined;
    try {
      HistoryStore.open(foreign);
    } catch (e) {
      err = e;
    }
    assert(err instanceof NavscopeError && err.code === "bad_value", String(err));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("history: a write that dies half-way leaves the store as it was", async () => {
  const { h, dir } = storeWith(thirtyNights().slice(0, 1));
  const path = join(dir, "h.sqlite");
  try {
    const next = thirtyNights()[1];
    try {
      h.addRun(next, {
        afterLeg: (i) => {
          if (i === 3) throw new Error("killed");
        },
      });
    } catch { /* the simulated crash */ }
    assertEquals(h.runs().length, 1);
    assertEquals(h.legs().length, 6);
    h.close();
    // A process killed inside the transaction (exit without COMMIT): nothing of it stays.
    const code = `
      import { HistoryStore } from ${
      JSON.stringify(new URL("../src/analyze/history.ts", import.meta.url).href)
    };
      import { syntheticHistory } from ${
      JSON.stringify(new URL("../testing/history_gen.ts", import.meta.url).href)
    };
      const h = HistoryStore.open(${JSON.stringify(path)});
      h.addRun(syntheticHistory({ nights: 1, legs: 6, counters: 4 })[0], { afterLeg: (i) => { if (i === 3) Deno.exit(9); } });`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 9, new TextDecoder().decode(out.stderr));
    const again = HistoryStore.open(path);
    assertEquals([again.runs().length, again.legs().length], [1, 6]);
    again.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("history: two concurrent writers both land (WAL + busy timeout)", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "navscope_history_" });
  const path = join(dir, "h.sqlite");
  try {
    const code = (seed: number) => `
      import { HistoryStore } from ${
      JSON.stringify(new URL("../src/analyze/history.ts", import.meta.url).href)
    };
      import { syntheticHistory } from ${
      JSON.stringify(new URL("../testing/history_gen.ts", import.meta.url).href)
    };
      const h = HistoryStore.open(${JSON.stringify(path)});
      for (const r of syntheticHistory({ nights: 8, legs: 200, counters: 6, seed: ${seed} })) h.addRun(r);
      h.close();`;
    const outs = await Promise.all(
      [1, 2].map((s) =>
        new Deno.Command(Deno.execPath(), { args: ["eval", code(s)], stderr: "piped" }).output()
      ),
    );
    for (const o of outs) assert(o.success, new TextDecoder().decode(o.stderr));
    const h = HistoryStore.open(path);
    assertEquals([h.runs().length, h.legs().length], [16, 3200]);
    h.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("navscope history: add a nightly folder, list, show, export; exit codes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope_history_cli_" });
  try {
    const run = join(dir, "night");
    await Deno.mkdir(run);
    const ok = { ...emptyPlanRecord("z", [1, 2], [3, 4]), version: "navscope/0.1.0", leg: "a" };
    ok.ok = true;
    ok.points = 3;
    ok.length = 12.5;
    const bad = { ...emptyPlanRecord("z", [5, 6], [7, 8]), version: "navscope/0.1.0", leg: "b" };
    bad.code = "disconnected";
    await Deno.writeTextFile(
      join(run, "plans.log"),
      [ok, bad].map((r) => formatPlanLine(r, { srcFile: "bat", func: "nightly" }) + "\n").join(""),
    );
    await writeMachineFile(
      join(run, "machine.json"),
      makeFingerprint({ cpu: "X", cores: 2, os: "linux", arch: "x86_64", deno: "2", v8: "1" }),
    );
    const store = join(dir, "h.sqlite");
    const cli = (args: string[]) => captureOutput(() => main(["history", ...args]));
    for (const c of ["c1", "c2"]) {
      const r = await cli(["add", run, "--history", store, "--commit", c, "--branch", "main"]);
      assertEquals(r.value, 0, r.err);
    }
    const list = await cli(["list", "--history", store]);
    assertEquals(list.value, 0);
    assert(/^2 .* c2 /m.test(list.out), list.out);
    const show = await cli(["show", "bat/b", "--history", store]);
    assertEquals(show.value, 0, show.err);
    assert(show.out.includes("bat/b: failing since run 1 (commit c1)"), show.out);
    const csv = join(dir, "h.csv");
    assertEquals((await cli(["export", "--csv", "--out", csv, "--history", store])).value, 0);
    const rows = (await Deno.readTextFile(csv)).trim().split("\n");
    assertEquals(rows.length, 5);
    assert(rows[0].startsWith("run,time,commit,branch,machine,battery,leg,ok,code"), rows[0]);
    const json = await cli(["export", "--json", "--history", store]);
    assertEquals(JSON.parse(json.out).legs.length, 4);
    const changes = await cli(["changes", "--history", store]);
    assertEquals([changes.value, changes.out.trim()], [0, "no change points"]);
    assertEquals((await cli([])).value, 2);
    assertEquals((await cli(["export", "--history", store])).value, 2);
    assertEquals((await cli(["add", join(dir, "missing"), "--history", store])).value, 1);
    assertEquals((await cli(["show", "bat/zz", "--history", store])).value, 1);
    assertEquals((await cli(["list", "--history", join(dir, "none.sqlite")])).value, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nightly --history FILE adds its run (commit, branch, machine, every leg)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope_history_nightly_" });
  try {
    const root = new URL("../", import.meta.url).pathname;
    const store = join(dir, "h.sqlite");
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${root}commands/main.ts`,
        "nightly",
        "--battery",
        `${root}examples/nav_test/legs.json`,
        "--baseline",
        join(dir, "base"),
        "--update-baseline",
        "--out",
        join(dir, "out"),
        "--jobs",
        "1",
        "--history",
        store,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    const h = HistoryStore.open(store);
    const [run] = h.runs();
    assertEquals(h.runs().length, 1);
    assert(/^[0-9a-f]{40}$/.test(run.commit), run.commit);
    assert(run.machineId.length === 16 && run.batteries.includes("nav_test"), JSON.stringify(run));
    assertEquals(h.legs().length, run.legs);
    h.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
