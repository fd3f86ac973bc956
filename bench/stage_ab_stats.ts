/**
 * Compares the stage times `bench/stage_times.ts` wrote for two checkouts (DIR/A*.json, the base;
 * DIR/B*.json, the change) with each other and with the C++ build's own timings
 * (`oracle-v2/<world>/[random/]timing_cpp.jsonl`): per battery and stage, the p50 of A and B over
 * the legs both planners solve (each leg's median over the rounds), the median per-leg ratio B/A,
 * and the p50 and p90 of the per-leg ratios A/C++ and B/C++.
 *
 * usage: deno run -A bench/stage_ab_stats.ts DIR   (env NAVSCOPE_SHARED as stage_times.ts)
 * @module
 */
const dir = Deno.args[0];
const shared = Deno.env.get("NAVSCOPE_SHARED") ??
  new URL("../../shared/", import.meta.url).pathname;
type Run = Record<string, Record<string, Record<string, number>>>;
const load = async (prefix: string): Promise<Run[]> => {
  const out: Run[] = [];
  for (const e of [...Deno.readDirSync(dir)].map((x) => x.name).sort()) {
    if (e.startsWith(prefix) && e.endsWith(".json")) {
      out.push(JSON.parse(await Deno.readTextFile(`${dir}/${e}`)));
    }
  }
  return out;
};
const A = await load("A"), B = await load("B");
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p / 100 * s.length) - 1))] : NaN;
};
const median = (xs: number[]) => q(xs, 50);
console.log("battery\tstage\tA p50\tB p50\tB/A\t| C++ p50\tA/C++ p50,p90\tB/C++ p50,p90\tlegs");
for (const spec of Object.keys(A[0])) {
  const [w, set] = spec.split(":");
  const p = `${shared}/oracle-v2/${w}/${set === "rnd" ? "random/" : ""}timing_cpp.jsonl`;
  const C = new Map<string, { ok: boolean; stages_ms: Record<string, number> }>(
    (await Deno.readTextFile(p)).trim().split("\n").map((l) => JSON.parse(l)).map((r) => [r.id, r]),
  );
  const ids = Object.keys(A[0][spec]).filter((i) => A[0][spec][i].ok && C.get(i)?.ok);
  for (const stg of ["topology", "geometry", "total"]) {
    const a = ids.map((i) => median(A.map((x) => x[spec][i][stg])));
    const b = ids.map((i) => median(B.map((x) => x[spec][i][stg])));
    const c = ids.map((i) => C.get(i)!.stages_ms[stg]);
    const ba = ids.map((_, k) => b[k] / a[k]).filter(Number.isFinite);
    const ac = ids.map((_, k) => a[k] / c[k]).filter(Number.isFinite);
    const bc = ids.map((_, k) => b[k] / c[k]).filter(Number.isFinite);
    const f = (x: number) => x.toFixed(2);
    console.log(
      `${spec}\t${stg}\t${f(q(a, 50))}\t${f(q(b, 50))}\t${q(ba, 50).toFixed(3)}\t| ${
        f(q(c, 50))
      }\t` +
        `${f(q(ac, 50))},${f(q(ac, 90))}\t${f(q(bc, 50))},${f(q(bc, 90))}\t${ids.length}`,
    );
  }
}
