/**
 * `navscope gen --seed N --scale S --out DIR [--bake]`: writes a procedural world (manifest,
 * meshes, landmarks, leg battery) and, with `--bake`, its packs (src/world/generator.ts,
 * src/world/bake_world.ts).
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import { readTextStrict } from "../src/codec/json_strict.ts";
import { generateWorld, WORLD_FILES, writeGeneratedWorld } from "../src/world/generator.ts";
import { bakeToDirectory } from "../src/world/bake_world.ts";
import { writeFileAtomic } from "../src/codec/mod.ts";
import {
  REAL_MESHES,
  realMesh,
  realMeshSourceDir,
  realMeshWorldFiles,
} from "../src/world/real_meshes.ts";
import { examplesReadme } from "../src/world/gen_readme.ts";
import { parseLegs } from "../src/legs/format.ts";
import { parseFlags, Progress } from "./support/terminal.ts";
import { bakeProgress } from "./support/flags.ts";

/** One line for the command list. */
export const summary =
  "Generate a procedural test world (manifest + meshes + legs, --bake for packs)";

/** Usage text. */
export const help = `navscope gen --seed N --scale S --out DIR [--bake] [--workers N] [--zone NAME]
navscope gen --real NAME --out DIR [--meshes DIR] [--bake]
navscope gen --readme DIR

Writes a deterministic city world into DIR: world.json (world manifest), NAME.obj (walkable
mesh: px horizontally, metres up; the manifest's "landmarks" list records every feature at known
coordinates), NAME.occluders.obj and legs.json (the leg battery with expected outcomes). Same seed and scale give
byte-identical files.

  --seed N      u32 seed (default 1)
  --scale S     1 = small test world (486 px, ~1.1 M spans, ~1.7 M records, packs ~0.2 MB);
                S = (2S)² blocks of 240 px; S = 6 gives > 20 M records (default 1)
  --out DIR     output directory (created if missing)                        (required)
  --zone NAME   base zone name (default map01base; the tier zone is NAMElv001 without "base")
  --bake        also bake base.nav.gz, base.fields.nav.gz, base.occluder.gz, base.nogo.json
                (a progress bar on stderr when it is a terminal)
  --workers N   bake workers (default: all cores)
  --real NAME   instead (not with --seed, --scale, --zone): a world for a real mesh vendored in examples/NAME/ (${
  REAL_MESHES.map((m) => m.name).join(", ")
}):
                world.json referencing the mesh (by a path relative to --out) and legs.json
                (Recast test queries plus geometry-derived legs)
  --meshes DIR  the folder holding the mesh (default: this repository's examples/NAME/)
  --readme DIR  instead: rewrite DIR/README.md (the examples' README) from DIR/*/legs.json;
                run deno fmt on it afterwards`;

/** Runs gen; resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const parsed = parseFlags("gen", args, {
    seed: { type: "string" },
    scale: { type: "string" },
    out: { type: "string" },
    zone: { type: "string" },
    bake: { type: "boolean" },
    workers: { type: "string" },
    real: { type: "string" },
    meshes: { type: "string" },
    readme: { type: "string" },
  });
  if (parsed.positionals.length > 0) {
    throw new NavscopeError(
      "usage",
      `gen: unexpected argument ${JSON.stringify(parsed.positionals[0])} (see navscope gen --help)`,
    );
  }
  const v = parsed.values;
  if (v.readme !== undefined) return await writeReadme(v.readme);
  const seed = intFlag("seed", v.seed ?? "1", 0, 0xffffffff);
  const scale = intFlag("scale", v.scale ?? "1", 1, 64);
  const workers = v.workers === undefined ? undefined : intFlag("workers", v.workers, 1, 256);
  if (!v.out) throw new NavscopeError("usage", "gen: --out DIR is required", {}, "--out DIR");
  if (v.zone !== undefined && !/^[A-Za-z][A-Za-z0-9_]*$/.test(v.zone)) {
    throw new NavscopeError(
      "usage",
      `gen: bad --zone ${JSON.stringify(v.zone)}`,
      {},
      "a plain zone name",
    );
  }
  if (v.real !== undefined) {
    const ignored = (["seed", "scale", "zone"] as const).filter((k) => v[k] !== undefined);
    if (ignored.length > 0) {
      throw new NavscopeError(
        "usage",
        `gen: --real cannot be combined with --${ignored.join(", --")} ` +
          "(a real mesh has no seed, scale or zone name; see navscope gen --help)",
      );
    }
    return await genReal(v.real, v.out, v.meshes, v.bake, workers);
  }
  const t0 = performance.now();
  const world = generateWorld({ seed, scale, zone: v.zone });
  const paths = await writeGeneratedWorld(world, v.out);
  const s = world.stats;
  console.log(
    `generated ${s.sizePx}×${s.sizePx} px, ${s.blocks}² blocks, ${s.triangles} triangles, ` +
      `${world.landmarks.length} landmarks, ${world.legs.length} legs, ≈${s.estimatedRecords} records ` +
      `in ${(performance.now() - t0).toFixed(0)} ms`,
  );
  for (const p of paths) console.log(`  ${p}`);
  if (v.bake) {
    const t1 = performance.now();
    const dir = v.out.replace(/\/+$/, "");
    const a = await bakeWithProgress(`${dir}/${WORLD_FILES.manifest}`, dir, { workers });
    console.log(`baked ${a.report.records} records in ${(performance.now() - t1).toFixed(0)} ms`);
    for (const f of a.report.files) console.log(`  ${f.path} (${f.bytes} bytes)`);
  }
  return 0;
}

/** bakeToDirectory with the bake command's progress bar (stderr, TTY only). */
async function bakeWithProgress(
  manifest: string,
  dir: string,
  opts: { workers?: number; strictManifold?: boolean },
) {
  const progress = new Progress();
  try {
    return await bakeToDirectory(manifest, dir, {
      ...opts,
      onProgress: (p) => progress.update(...bakeProgress(p)),
    });
  } finally {
    progress.done();
  }
}

async function writeReadme(dir: string): Promise<number> {
  const root = dir.replace(/\/+$/, "");
  const text = await examplesReadme(async (w) => {
    const p = `${root}/${w}/legs.json`;
    try {
      return parseLegs(await readTextStrict(p), p);
    } catch (e) {
      if (e instanceof NavscopeError && e.code === "io" && /no such file/.test(e.what)) return null;
      throw e;
    }
  });
  await writeFileAtomic(`${root}/README.md`, text);
  console.log(`  ${root}/README.md`);
  return 0;
}

async function genReal(
  name: string,
  out: string,
  meshes: string | undefined,
  bake: boolean | undefined,
  workers: number | undefined,
): Promise<number> {
  const spec = realMesh(name);
  const dir = out.replace(/\/+$/, "");
  const src = meshes ?? realMeshSourceDir(spec);
  const rel = relativePath(absolute(dir), absolute(src));
  const files = await realMeshWorldFiles(spec, rel, src);
  await Deno.mkdir(dir, { recursive: true });
  for (const [f, text] of files) {
    await writeFileAtomic(`${dir}/${f}`, text);
    console.log(`  ${dir}/${f}`);
  }
  if (bake) {
    // Real meshes have edges shared by more than two triangles: bake leniently (cut + count).
    const a = await bakeWithProgress(`${dir}/world.json`, dir, { workers, strictManifold: false });
    console.log(`baked ${a.report.records} records`);
    for (const z of a.report.zones) for (const w of z.warnings) console.log(`  warning: ${w}`);
    for (const f of a.report.files) console.log(`  ${f.path} (${f.bytes} bytes)`);
  }
  return 0;
}

function absolute(p: string): string {
  const parts = (p.startsWith("/") ? p : `${Deno.cwd()}/${p}`).split("/");
  const out: string[] = [];
  for (const s of parts) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop();
    else out.push(s);
  }
  return "/" + out.join("/");
}

/** Path of `to` relative to directory `from` (both absolute, normalised). */
function relativePath(from: string, to: string): string {
  const a = from.split("/").filter(Boolean), b = to.split("/").filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/") || ".";
}

function intFlag(name: string, s: string, lo: number, hi: number): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < lo || n > hi) {
    throw new NavscopeError(
      "usage",
      `gen: --${name} ${JSON.stringify(s)}`,
      {},
      `an integer ${lo}..${hi}`,
    );
  }
  return n;
}
