/**
 * World bake benchmark (a script, not `deno bench`: each bake runs in a child process so its
 * peak RSS — VmHWM, all worker threads included — is its own).
 *
 *   deno run -A bench/bake_world_bench.ts [--workers 1,2] [--synthetic-px 800] [--skip-real]
 *
 * Worlds: the Recast demo meshes vendored in the repository (examples/dungeon/dungeon.obj,
 * examples/nav_test/nav_test.obj, bench/meshes/undulating.obj) and a synthetic rolling terrain with two decks, written to /tmp, sized so it has
 * ≥ 10 M span records at the default 800 px (3200 × 3200 cells). Prints one row per (world,
 * workers): wall time, records, records/s, records/s per core, peak RSS, RSS bytes per record,
 * output bytes per record, and the three slowest stages.
 * @module
 */
import { parseArgs } from "node:util";
import { bakeToDirectory } from "../src/world/bake_world.ts";
import { readObj } from "../src/world/obj.ts";

const MESHES: Record<string, string> = {
  dungeon: new URL("../examples/dungeon/dungeon.obj", import.meta.url).pathname,
  nav_test: new URL("../examples/nav_test/nav_test.obj", import.meta.url).pathname,
  undulating: new URL("./meshes/undulating.obj", import.meta.url).pathname,
};

/** Writes the synthetic terrain OBJ + manifest; returns the manifest path. */
function syntheticWorld(px: number): string {
  const dir = `/tmp/navscope-bake-bench-${px}`;
  Deno.mkdirSync(dir, { recursive: true });
  const manifest = `${dir}/world.json`;
  try {
    Deno.statSync(manifest);
    return manifest;
  } catch { /* write it */ }
  const step = 2, n = px / step;
  const lines: string[] = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const x = i * step, y = j * step;
      const h = 2 * Math.sin(x / 40) * Math.cos(y / 55) + 0.5 * Math.sin((x + y) / 13);
      lines.push(`v ${x} ${h.toFixed(4)} ${y}`);
    }
  }
  lines.push("g terrain");
  const id = (i: number, j: number) => j * (n + 1) + i + 1;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      lines.push(`f ${id(i, j)} ${id(i, j + 1)} ${id(i + 1, j + 1)}`);
      lines.push(`f ${id(i, j)} ${id(i + 1, j + 1)} ${id(i + 1, j)}`);
    }
  }
  // Two flat decks 8 m up (second layer: multi-layer cells).
  const base = (n + 1) * (n + 1);
  let v = base;
  lines.push("g decks");
  for (
    const [x0, y0, w, h] of [[px * 0.2, px * 0.2, px * 0.3, px * 0.1], [
      px * 0.5,
      px * 0.6,
      px * 0.1,
      px * 0.3,
    ]]
  ) {
    lines.push(
      `v ${x0} 8 ${y0}`,
      `v ${x0 + w} 8 ${y0}`,
      `v ${x0 + w} 8 ${y0 + h}`,
      `v ${x0} 8 ${y0 + h}`,
    );
    lines.push(`f ${v + 1} ${v + 4} ${v + 3}`, `f ${v + 1} ${v + 3} ${v + 2}`);
    v += 4;
  }
  Deno.writeTextFileSync(`${dir}/terrain.obj`, lines.join("\n") + "\n");
  Deno.writeTextFileSync(
    manifest,
    JSON.stringify({
      format: "navscope-world",
      version: 1,
      name: `synthetic${px}`,
      zones: [{ name: "terrain", size_px: [px, px], meshes: [{ file: "terrain.obj" }] }],
    }),
  );
  return manifest;
}

function vmHwmBytes(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Child mode: bake one manifest and print one JSON line. */
async function child(manifest: string, workers: number, lenient: boolean): Promise<void> {
  const out = await Deno.makeTempDir({ prefix: "navscope-bake-bench-out-" });
  const t0 = performance.now();
  const a = await bakeToDirectory(manifest, out, { workers, strictManifold: !lenient });
  const ms = performance.now() - t0;
  const r = a.report;
  const spans = r.zones.reduce((s, z) => s + (z.grid?.records ?? 0), 0);
  const bytes = r.files.reduce((s, f) => s + f.bytes, 0);
  const stages = Object.entries(r.times).filter(([k]) =>
    k.startsWith("grid.") && !k.endsWith("Wall")
  )
    .sort((x, y) => y[1] - x[1]).slice(0, 3).map(([k, v]) => `${k.slice(5)} ${Math.round(v)}`);
  console.log(
    JSON.stringify({
      ms,
      spans,
      records: r.records,
      bytes,
      rss: vmHwmBytes(),
      stages,
      times: r.times,
    }),
  );
  await Deno.remove(out, { recursive: true });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      child: { type: "string" },
      workers: { type: "string", default: "1,2" },
      "synthetic-px": { type: "string", default: "800" },
      "skip-real": { type: "boolean" },
      lenient: { type: "boolean" },
    },
  });
  if (values.child) return child(values.child, Number(values.workers), !!values.lenient);
  const worlds: { name: string; manifest: string }[] = [];
  if (!values["skip-real"]) {
    for (const f of ["dungeon", "nav_test", "undulating"]) {
      const obj = MESHES[f];
      try {
        Deno.statSync(obj);
      } catch {
        continue;
      }
      // Zone rectangle = the mesh's bounding box at 3 px/m, plus 4 px.
      const o = await readObj(obj);
      let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
      for (let i = 0; i < o.positions.length; i += 3) {
        x0 = Math.min(x0, o.positions[i]), x1 = Math.max(x1, o.positions[i]);
        z0 = Math.min(z0, o.positions[i + 2]), z1 = Math.max(z1, o.positions[i + 2]);
      }
      const origin = [Math.floor(3 * x0) - 4, Math.floor(3 * z0) - 4];
      const size = [Math.ceil(3 * (x1 - x0)) + 8, Math.ceil(3 * (z1 - z0)) + 8];
      const m = `/tmp/navscope-bake-bench-${f}.json`;
      Deno.writeTextFileSync(
        m,
        JSON.stringify({
          format: "navscope-world",
          version: 1,
          name: f,
          zones: [{
            name: f,
            size_px: size,
            origin_px: origin,
            meshes: [{ file: obj, px_per_m: 3, max_slope_deg: 60 }],
          }],
        }),
      );
      worlds.push({ name: `${f}.obj (3 px/m)`, manifest: m });
    }
  }
  const px = Number(values["synthetic-px"]);
  if (px > 0) worlds.push({ name: `synthetic ${px} px terrain`, manifest: syntheticWorld(px) });
  const rows: string[] = [
    "| world | workers | wall s | span records | BGRD records | records/s | records/s/core | peak RSS MB | RSS B/record | out B/record | slowest stages (ms, summed over tiles) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const w of worlds) {
    for (const n of values.workers!.split(",").map(Number)) {
      const cmd = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          import.meta.filename!,
          "--child",
          w.manifest,
          "--workers",
          String(n),
          "--lenient",
        ],
        stdout: "piped",
        stderr: "inherit",
      });
      const res = await cmd.output();
      const text = new TextDecoder().decode(res.stdout).trim().split("\n").pop()!;
      const j = JSON.parse(text);
      const rps = j.spans / (j.ms / 1000);
      rows.push(
        `| ${w.name} | ${n} | ${(j.ms / 1000).toFixed(2)} | ${j.spans} | ${j.records} | ${
          Math.round(rps)
        } | ${Math.round(rps / n)} | ${(j.rss / 2 ** 20).toFixed(0)} | ${
          (j.rss / j.spans).toFixed(0)
        } | ${(j.bytes / j.spans).toFixed(3)} | ${j.stages.join(", ")} |`,
      );
      console.error(rows[rows.length - 1]);
    }
  }
  console.log(rows.join("\n"));
}

await main();
