/**
 * `deno task fuzz [--budget S] [--seed N] [--targets a,b] [--per-input S] [--json]
 * [--repro target:index]`: runs the fuzz engine (testing/fuzz/engine.ts) and prints one
 * row per target. Exit 0 when nothing was found, 3 on a crash, hang or invalid acceptance,
 * 2 on a usage error.
 * @module
 */
import { NavscopeError } from "../../src/errors.ts";
import { fuzzClean, runFuzz } from "./engine.ts";
import { FUZZ_TARGETS, loadTargets } from "./targets.ts";
import { mutationOf, runOne } from "./run_one.ts";

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) {
    throw new NavscopeError("usage", `--${name} needs a value`);
  }
  return v;
}

function num(args: string[], name: string, def: number): number {
  const v = flag(args, name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) {
    throw new NavscopeError("usage", `--${name} ${v}: not a number ≥ 0`);
  }
  return n;
}

/** CLI entry; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const known = new Set(["--budget", "--seed", "--targets", "--per-input", "--json", "--repro"]);
  for (const a of args) {
    if (a.startsWith("--") && !known.has(a)) throw new NavscopeError("usage", `unknown flag ${a}`);
  }
  const seed = Math.floor(num(args, "seed", 1));
  const targets = (flag(args, "targets") ?? FUZZ_TARGETS.join(",")).split(",").filter(Boolean);
  for (const t of targets) {
    if (!(FUZZ_TARGETS as readonly string[]).includes(t)) {
      throw new NavscopeError("usage", `unknown target ${t}`, {}, FUZZ_TARGETS.join(", "));
    }
  }
  const repro = flag(args, "repro");
  if (repro) return await reproduce(repro, seed);
  const json = args.includes("--json");
  const report = await runFuzz({
    seed,
    budgetMs: num(args, "budget", 60) * 1000,
    perInputMs: num(args, "per-input", 10) * 1000,
    targets,
  });
  if (json) console.log(JSON.stringify(report, null, 1));
  else {
    console.log(
      `fuzz: seed ${seed}, ${(report.elapsedMs / 1000).toFixed(1)} s\n` +
        "target       runs  refused accepted invalid crash hang unlocated",
    );
    for (const [t, c] of Object.entries(report.counts)) {
      console.log(
        `${t.padEnd(11)}${String(c.runs).padStart(6)}${String(c.refused).padStart(9)}` +
          `${String(c.accepted).padStart(9)}${String(c.invalid).padStart(8)}` +
          `${String(c.crash).padStart(6)}${String(c.hang).padStart(5)}${
            String(c.unlocated).padStart(10)
          }`,
      );
    }
    for (const f of report.findings) {
      console.log(
        `FOUND ${f.outcome} ${f.target}:${f.index} (${f.seed} ${f.op} ${f.note}): ${f.detail}` +
          `\n  reproduce: deno task fuzz --seed ${seed} --repro ${f.target}:${f.index}`,
      );
    }
    for (const f of report.unlocated) {
      console.log(`unlocated ${f.target}:${f.index}: ${f.detail}`);
    }
  }
  return fuzzClean(report) ? 0 : 3;
}

async function reproduce(spec: string, seed: number): Promise<number> {
  const m = /^(\w+):(\d+)$/.exec(spec);
  if (!m) throw new NavscopeError("usage", `--repro ${spec}: expected target:index`);
  const scratch = await Deno.makeTempDir({ prefix: "navscope_fuzz_" });
  try {
    const [t] = await loadTargets([m[1]], scratch);
    const { seed: s, m: mut } = mutationOf(t, seed, Number(m[2]));
    const out = await Deno.makeTempFile({
      prefix: `navscope_fuzz_${m[1]}_${m[2]}_`,
      suffix: ".bin",
    });
    await Deno.writeFile(out, mut.bytes);
    const r = await runOne(t, seed, Number(m[2]));
    console.log(JSON.stringify({ ...r, seedFile: s.name, input: out }, null, 1));
    return r.outcome === "crash" || r.outcome === "invalid" ? 3 : 0;
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (e) {
    if (e instanceof NavscopeError) {
      console.error(`fuzz: ${e.message}`);
      Deno.exit(e.code === "usage" ? 2 : 1);
    }
    throw e;
  }
}
