/**
 * Fuzz targets: every format navscope reads, with its seeds (the example worlds and test
 * fixtures of this checkout), its mutations, and a `check` that decodes a mutated input the
 * way navscope does and returns, for an ACCEPTED input, the reasons its decoded content is
 * invalid (independent checks, testing/fuzz/invariants.ts). A refusal is a thrown
 * NavscopeError; anything else thrown is a crash.
 * @module
 */
import { fileURLToPath } from "node:url";
import { NavscopeError } from "../../src/errors.ts";
import { gunzip, gzip } from "../../src/codec/gzip.ts";
import { decodeUtf8Strict } from "../../src/codec/json_strict.ts";
import { decodeMainPack, encodeMainPack } from "../../src/pack/bnav/mod.ts";
import { checkTileIds, decodeBgrdTile, parseBgrd } from "../../src/pack/bgrd/mod.ts";
import { decodeSidecar, encodeSidecar } from "../../src/pack/bnvf/mod.ts";
import { decodeOccluderPackAll, encodeOccluderPack } from "../../src/pack/ocls/mod.ts";
import { noGoZoneSpecs, parseNoGoTable } from "../../src/pack/nogo/table.ts";
import { sidecarExpectations } from "../../src/pack/set/pack_set.ts";
import { checkNoGoAgainstPack } from "../../src/pack/set/binding.ts";
import { assertOccluderPackMatches } from "../../src/pack/set/occluder_binding.ts";
import { parseManifest } from "../../src/world/manifest.ts";
import { parseThresholds } from "../../src/analyze/diff.ts";
import { importObj, parseObj } from "../../src/world/obj.ts";
import { LEG_OUTCOMES, LEGS_FORMAT, parseLegs } from "../../src/legs/format.ts";
import { parseLogText } from "../../src/logs/parser.ts";
import { collectLogs } from "../../src/logs/reader.ts";
import type { ParseReport } from "../../src/logs/types.ts";
import { type FuzzRng, mutateBytes, mutateJson, mutateLines, type Mutation } from "./mutate.ts";
import { badName, implausible, isUtf8, jsonProblems, nonFinite } from "./invariants.ts";

/** One seed input of a target. */
export interface FuzzSeed {
  /** Label (also the file name given to the decoder). */
  name: string;
  /** The unmutated bytes. */
  bytes: Uint8Array;
  /** Whatever the target's check needs about the original. */
  // deno-lint-ignore no-explicit-any
  ctx: any;
}

/** A format under test. */
export interface FuzzTarget {
  /** Target name (`bnav`, `legs`, …). */
  name: string;
  /** Seeds. */
  seeds: FuzzSeed[];
  /** One mutation of a seed. */
  mutate(rng: FuzzRng, seed: FuzzSeed): Mutation;
  /** Decodes `bytes`; throws NavscopeError to refuse; returns invalid-content reasons. */
  check(seed: FuzzSeed, bytes: Uint8Array): string[] | Promise<string[]>;
}

/** Every target name, in run order. */
export const FUZZ_TARGETS = [
  "bnav",
  "bnvf",
  "ocls",
  "gzip",
  "nogo",
  "legs",
  "manifest",
  "thresholds",
  "obj",
  "log",
  "gzlog",
] as const;

/** The checkout root (testing/fuzz/ → ../../). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

const te = new TextEncoder();
const lossy = new TextDecoder();
const read = (rel: string) => Deno.readFile(`${REPO_ROOT}/${rel}`);
const readText = (rel: string) => Deno.readTextFile(`${REPO_ROOT}/${rel}`);

/** Worlds whose packs seed the binary targets (small; city_small has BOML, FLNK, occluders). */
const PACK_WORLDS = ["nav_test", "city_small"];

// ── BNAV main pack (+ BGRD grid, every tile) ───────────────────────────────────────────────

/** Decodes a main pack as the engine does: whole pack, its grid and every tile. */
function decodeMainFully(bytes: Uint8Array, file: string) {
  const load = decodeMainPack(bytes, { file });
  const p = load.pack;
  const tiles: string[] = [];
  const grid = p.grid ? parseBgrd(p.grid, { file }) : null;
  grid?.zones.forEach((z, zi) =>
    z.tiles.forEach((_t, ti) => {
      const cols = decodeBgrdTile(grid, zi, ti);
      checkTileIds(cols, { file, zone: z.name, tile: ti, globalRegions: z.globalRegions });
      tiles.push(...nonFinite(cols.h.subarray(0, cols.n), `tile ${z.name}/${ti}.h`));
      tiles.push(...implausible([`tile ${z.name}/${ti}.h`, cols.h.subarray(0, cols.n)]));
    })
  );
  return { load, grid, tiles };
}

function mainInvalid(seed: FuzzSeed, bytes: Uint8Array): string[] {
  const { load, grid, tiles } = decodeMainFully(bytes, seed.name);
  const p = load.pack;
  const out = [...tiles];
  out.push(...nonFinite(p.zones, "zones"), ...nonFinite(p.vertices, "vertices"));
  out.push(...nonFinite(p.offMeshLinks ?? [], "BOML"));
  out.push(...implausible(["vertices", p.vertices]));
  for (const z of p.zones) {
    const a = z.affine;
    out.push(...implausible([["width", z.width], ["height", z.height]], true));
    out.push(...implausible([["|sx|", Math.abs(a.sx)], ["|sy|", Math.abs(a.sy)]], true));
    out.push(...implausible([["tx", a.tx], ["ty", a.ty], ["floor_y", z.floorY]]));
  }
  for (const l of p.offMeshLinks ?? []) {
    out.push(...implausible([["radius", l.radius], ["cost", l.costModifier]]));
    out.push(...implausible(["BOML points", l.points]));
  }
  const names = new Set<string>(), ids = new Set<number>();
  for (const z of p.zones) {
    if (names.has(z.name)) out.push(`duplicate zone name ${JSON.stringify(z.name)}`);
    if (ids.has(z.id)) out.push(`duplicate zone id ${z.id}`);
    names.add(z.name);
    ids.add(z.id);
    if (!(z.width > 0) || !(z.height > 0)) out.push(`zone ${z.name} size ${z.width}×${z.height}`);
  }
  for (const z of p.zones) {
    if ((z.flags & 1) && !ids.has(z.componentCount)) {
      out.push(`tier zone ${z.name}: parent ${z.componentCount} not in the pack`);
    }
  }
  (p.offMeshLinks ?? []).forEach((l, i) => {
    if (!ids.has(l.zone)) out.push(`BOML[${i}].zone ${l.zone} is not a zone id`);
  });
  const o = seed.ctx;
  if (o.surfaces && !p.surfaces) out.push("BSRF section dropped");
  if (o.boml && !p.offMeshLinks) out.push("BOML section dropped");
  if (o.grid && !grid) out.push("BGRD section dropped");
  if (grid) {
    const seen = new Set<string>();
    for (const z of grid.zones) {
      if (!names.has(z.name)) out.push(`BGRD zone ${JSON.stringify(z.name)} not in the zone table`);
      if (seen.has(z.name)) out.push(`BGRD zone ${JSON.stringify(z.name)} twice`);
      seen.add(z.name);
      if (!Number.isFinite(z.x0) || !Number.isFinite(z.y0)) out.push(`BGRD zone ${z.name} origin`);
    }
    for (const n of o.gridZones as string[]) if (!seen.has(n)) out.push(`BGRD zone ${n} dropped`);
  }
  return out;
}

/** decode → change one value → re-encode with navscope's own encoder (reaches hashed data). */
function mainModelMutation(rng: FuzzRng, seed: FuzzSeed): Mutation {
  const load = decodeMainPack(seed.bytes, { file: seed.name });
  const p = load.pack;
  // Non-finite, non-positive, and (issue 55) a denormal or a magnitude no map has.
  const bad = rng.pick([NaN, Infinity, -Infinity, 0, -5, 1e-40, -3.4e38]);
  const z = rng.pick(p.zones);
  let note: string;
  switch (rng.int(5)) {
    case 0:
      p.vertices[rng.int(p.vertices.length)] = bad;
      note = `vertex := ${bad}`;
      break;
    case 1: {
      const k = rng.pick(["width", "height", "floorY"] as const);
      z[k] = bad;
      note = `zone ${k} := ${bad}`;
      break;
    }
    case 2:
      if (p.zones.length > 1) {
        p.zones[1].name = p.zones[0].name;
        note = "duplicate zone name";
      } else {
        z.name = rng.pick(["", "a\u0000b", " " + z.name]);
        note = "zone name";
      }
      break;
    case 3:
      if (p.offMeshLinks?.length) {
        const l = rng.pick(p.offMeshLinks) as unknown as Record<string, unknown>;
        const k = rng.pick(Object.keys(l).filter((x) => typeof l[x] === "number"));
        l[k] = rng.pick([NaN, Infinity, 1e9]);
        note = `BOML ${k} := ${l[k]}`;
      } else note = "no BOML";
      break;
    default:
      z.flags |= 1;
      z.componentCount = 9999;
      note = "tier parent 9999";
  }
  try {
    return { bytes: encodeMainPack(p, { file: seed.name }), op: "model", note };
  } catch (e) {
    if (!(e instanceof NavscopeError)) throw e;
    return { bytes: seed.bytes, op: "model-refused-by-encoder", note };
  }
}

async function mainTarget(): Promise<FuzzTarget> {
  const seeds: FuzzSeed[] = [];
  for (const w of PACK_WORLDS) {
    const bytes = await gunzip(await read(`examples/${w}/base.nav.gz`));
    const { load, grid } = decodeMainFully(bytes, `${w}/base.nav`);
    seeds.push({
      name: `${w}/base.nav`,
      bytes,
      ctx: {
        surfaces: !!load.pack.surfaces,
        boml: !!load.pack.offMeshLinks,
        grid: !!grid,
        gridZones: grid?.zones.map((z) => z.name) ?? [],
      },
    });
  }
  return {
    name: "bnav",
    seeds,
    mutate: (rng, s) => rng.chance(0.15) ? mainModelMutation(rng, s) : mutateBytes(rng, s.bytes),
    check: mainInvalid,
  };
}

// ── BNVF sidecar ────────────────────────────────────────────────────────────────────────────

async function sidecarTarget(): Promise<FuzzTarget> {
  const seeds: FuzzSeed[] = [];
  for (const w of PACK_WORLDS) {
    const main = await gunzip(await read(`examples/${w}/base.nav.gz`));
    const load = decodeMainPack(main, { file: "main" });
    const grid = parseBgrd(load.pack.grid!, { file: "main" });
    const expect = sidecarExpectations(load.header.buildHash, main, grid);
    const bytes = await gunzip(await read(`examples/${w}/base.fields.nav.gz`));
    const { model } = decodeSidecar(bytes, expect, { file: w });
    seeds.push({
      name: `${w}/base.fields.nav`,
      bytes,
      ctx: {
        expect,
        links: !!model.links,
        opens: !!model.opens,
        boml: load.pack.offMeshLinks?.length ?? 0,
        zoneIds: new Set(load.pack.zones.map((z) => z.id)),
        maxRegion: Math.max(0, ...grid.zones.map((z) => z.globalRegions)),
      },
    });
  }
  const check = (seed: FuzzSeed, bytes: Uint8Array): string[] => {
    const c = seed.ctx;
    const { model } = decodeSidecar(bytes, c.expect, { file: seed.name });
    const out = [...nonFinite(model.links, "FLNK"), ...nonFinite(model.opens, "FOPN")];
    if (model.links) {
      out.push(...implausible(["FLNK.h", model.links.h]));
      out.push(...implausible(["FLNK.decl_h", model.links.declH]));
      out.push(...implausible(["FLNK.radius", model.links.radius]));
    }
    if (model.opens) out.push(...implausible(["FOPN.h", model.opens.h]));
    if (c.links && !model.links) out.push("FLNK section dropped");
    if (c.opens && !model.opens) out.push("FOPN section dropped");
    for (const u of model.unknown ?? []) out.push(`unknown section ${JSON.stringify(u.tag)} kept`);
    const L = model.links;
    for (let i = 0; L && i < L.count && out.length < 4; i++) {
      if (L.bomlIndex[i] >= c.boml) out.push(`FLNK[${i}].boml_index ${L.bomlIndex[i]} ≥ ${c.boml}`);
      if (!c.zoneIds.has(L.zone[i])) out.push(`FLNK[${i}].zone ${L.zone[i]} is not a zone id`);
      for (const s of [2 * i, 2 * i + 1]) {
        if (L.rid[s] > c.maxRegion) out.push(`FLNK[${i}] region ${L.rid[s]} > ${c.maxRegion}`);
      }
    }
    if ((model.flags & ~1) !== 0) out.push(`header flags 0x${model.flags.toString(16)}`);
    return out;
  };
  const model = (rng: FuzzRng, seed: FuzzSeed): Mutation => {
    const { model: m } = decodeSidecar(seed.bytes, seed.ctx.expect, { file: seed.name });
    let note = "no FLNK";
    if (m.links && m.links.count) {
      const i = rng.int(m.links.count);
      if (rng.chance(0.5)) {
        const k = rng.pick(["radius", "costModifier", "h", "declH"] as const);
        m.links[k][k === "h" || k === "declH" ? 2 * i : i] = rng.pick([
          NaN,
          Infinity,
          -Infinity,
          3.4e38,
        ]);
        note = `FLNK ${k}`;
      } else {
        m.links.bomlIndex[i] = 9999;
        note = "FLNK boml_index 9999";
      }
    }
    try {
      return { bytes: encodeSidecar(m), op: "model", note };
    } catch (e) {
      if (!(e instanceof NavscopeError)) throw e;
      return { bytes: seed.bytes, op: "model-refused-by-encoder", note };
    }
  };
  return {
    name: "bnvf",
    seeds,
    mutate: (rng, s) => rng.chance(0.15) ? model(rng, s) : mutateBytes(rng, s.bytes),
    check,
  };
}

// ── OCLS occluder pack ──────────────────────────────────────────────────────────────────────

async function occluderTarget(): Promise<FuzzTarget> {
  const bytes = await gunzip(await read("examples/city_small/base.occluder.gz"));
  const main = decodeMainPack(await gunzip(await read("examples/city_small/base.nav.gz")));
  const zones = new Set(main.pack.zones.map((z) => z.name));
  const seed: FuzzSeed = { name: "city_small/base.occluder", bytes, ctx: { zones, main } };
  return {
    name: "ocls",
    seeds: [seed],
    mutate(rng, s) {
      if (!rng.chance(0.15)) return mutateBytes(rng, s.bytes);
      const scenes = decodeOccluderPackAll(s.bytes, s.name);
      const sc = rng.pick(scenes);
      if (sc.instanceCount > 0 && rng.chance(0.5)) {
        sc.instRotCode[0] = 4;
        sc.instMatrix.set([1, 0, 0, 0, 1, 0, 0, 0, 1], 0);
        sc.instMatrix[rng.int(9)] = rng.pick([NaN, Infinity]);
      } else if (rng.chance(0.5)) {
        // Issue 55: a zero or denormal scale, a height offset no map has.
        const k = rng.pick(["heightScale", "cellWidth", "posStep", "heightOffset"] as const);
        sc.header[k] = k === "heightOffset" ? -3.4e38 : rng.pick([0, 1e-40]);
      } else sc.zone = sc.zone + "_other";
      try {
        return { bytes: encodeOccluderPack(scenes), op: "model", note: "" };
      } catch (e) {
        if (!(e instanceof NavscopeError)) throw e;
        return { bytes: s.bytes, op: "model-refused-by-encoder", note: "" };
      }
    },
    check(s, b) {
      const out: string[] = [];
      const scenes = decodeOccluderPackAll(b, s.name);
      // The engine's load check: a pack that is not this pack's makes the set unusable.
      assertOccluderPackMatches(b, s.name, s.ctx.main.pack);
      for (const sc of scenes) {
        out.push(...nonFinite(sc.instMatrix, `${sc.zone}.instMatrix`));
        out.push(...nonFinite(sc.header, `${sc.zone}.header`));
        const h = sc.header;
        out.push(...implausible([["pos_step", h.posStep], ["cell_width", h.cellWidth]], true));
        out.push(...implausible([["height_scale", h.heightScale]], true));
        out.push(...implausible([["height_offset", h.heightOffset]]));
        if (!s.ctx.zones.has(sc.zone)) {
          out.push(`scene for zone ${JSON.stringify(sc.zone)} not in the pack`);
        }
      }
      return out;
    },
  };
}

// ── gzip wrapper ────────────────────────────────────────────────────────────────────────────

async function gzipTarget(): Promise<FuzzTarget> {
  const seeds: FuzzSeed[] = [];
  for (
    const rel of ["examples/nav_test/base.nogo.json", "tests/fixtures/logs/navigator_short.log"]
  ) {
    const plain = await read(rel);
    seeds.push({ name: `${rel}.gz`, bytes: gzip(plain), ctx: { plain } });
  }
  return {
    name: "gzip",
    seeds,
    mutate: (rng, s) => mutateBytes(rng, s.bytes),
    async check(s, b) {
      const out = await gunzip(b, s.name);
      const p: Uint8Array = s.ctx.plain;
      const same = out.length === p.length && out.every((x, i) => x === p[i]);
      return same ? [] : [`accepted gzip inflates to other content (${out.length} bytes)`];
    },
  };
}

// ── JSON inputs ─────────────────────────────────────────────────────────────────────────────

async function nogoTarget(): Promise<FuzzTarget> {
  const rich = {
    format: "navscope-nogo",
    version: 1,
    zones: {
      map01base: [
        {
          name: "a",
          rings: [[[10, 10], [20, 10], [20, 20], [10, 20]], [[12, 12], [14, 12], [14, 14]]],
        },
        { name: "b", floor: 3.5, rings: [[[100, 100], [120, 100], [110, 130]]] },
      ],
      map01lv001: [{ rings: [[[1, 1], [5, 1], [5, 5]]] }],
    },
  };
  const main = decodeMainPack(await gunzip(await read("examples/city_small/base.nav.gz")));
  const zones = main.pack.zones.map((z) => ({ name: z.name, width: z.width, height: z.height }));
  const seeds: FuzzSeed[] = [
    {
      name: "city_small/base.nogo.json",
      bytes: await read("examples/city_small/base.nogo.json"),
      ctx: { zones },
    },
    { name: "rich.nogo.json", bytes: te.encode(JSON.stringify(rich, null, 1)), ctx: { zones } },
  ];
  return {
    name: "nogo",
    seeds,
    mutate: (rng, s) => mutateJson(rng, lossy.decode(s.bytes)),
    check(s, b) {
      const text = decodeUtf8Strict(b, { file: s.name });
      const table = parseNoGoTable(text, s.name);
      const spec: Record<string, unknown> = {};
      for (const [z, zz] of table.zones) spec[z] = noGoZoneSpecs(zz);
      const out = jsonProblems(b, text, spec);
      for (const z of table.zones.keys()) {
        if (badName(z)) out.push(`zone name ${JSON.stringify(z)}`);
      }
      // The engine's load check against the main pack: unusable → the set is refused.
      const bind = checkNoGoAgainstPack(table, s.ctx.zones);
      if (bind.status !== "ok") out.push(`accepted with a warning only: ${bind.message}`);
      return out;
    },
  };
}

async function legsTarget(): Promise<FuzzTarget> {
  const seeds: FuzzSeed[] = [];
  for (const w of ["nav_test", "dungeon", "city_small"]) {
    let text = await readText(`examples/${w}/legs.json`);
    if (w === "city_small") {
      const j = JSON.parse(text);
      j.legs = j.legs.slice(0, 8);
      text = JSON.stringify(j, null, 1);
    }
    seeds.push({ name: `${w}/legs.json`, bytes: te.encode(text), ctx: {} });
  }
  return {
    name: "legs",
    seeds,
    mutate: (rng, s) => mutateJson(rng, lossy.decode(s.bytes)),
    check(s, b) {
      const text = decodeUtf8Strict(b, { file: s.name });
      const legs = parseLegs(text, s.name);
      const out = jsonProblems(b, text, legs);
      const doc = JSON.parse(text.replace(/^\ufeff/, ""));
      if (doc.format !== LEGS_FORMAT || doc.version !== 1) out.push("format/version not checked");
      const extra = Object.keys(doc).filter((k) => !["format", "version", "legs"].includes(k));
      if (extra.length) out.push(`unknown top-level key(s) ${extra.join(", ")}`);
      for (const l of legs) {
        if (badName(l.zone)) out.push(`leg ${l.id}: zone ${JSON.stringify(l.zone)}`);
        if (!LEG_OUTCOMES.includes(l.expected)) out.push(`leg ${l.id}: expected ${l.expected}`);
        if (l.checks !== undefined) {
          for (const [k, v] of Object.entries(l.checks ?? { bad: l.checks })) {
            if (!["max_length_px", "min_length_px"].includes(k) || typeof v !== "number") {
              out.push(`leg ${l.id}: checks.${k} = ${JSON.stringify(v)}`);
            }
          }
        }
      }
      return out;
    },
  };
}

async function manifestTarget(): Promise<FuzzTarget> {
  const seeds: FuzzSeed[] = [];
  for (const rel of ["tests/fixtures/worlds/small/manifest.json", "examples/nav_test/world.json"]) {
    seeds.push({ name: `${REPO_ROOT}/${rel}`, bytes: await read(rel), ctx: {} });
  }
  return {
    name: "manifest",
    seeds,
    mutate: (rng, s) => mutateJson(rng, lossy.decode(s.bytes)),
    check(s, b) {
      const text = decodeUtf8Strict(b, { file: s.name });
      const m = parseManifest(text, s.name);
      const out = jsonProblems(b, text, m);
      const names = new Set<string>();
      for (const z of m.zones) {
        if (names.has(z.name)) out.push(`duplicate zone name ${z.name}`);
        names.add(z.name);
      }
      return out;
    },
  };
}

async function thresholdsTarget(): Promise<FuzzTarget> {
  const rel = "examples/baseline/thresholds.json";
  return {
    name: "thresholds",
    seeds: [{ name: rel, bytes: await read(rel), ctx: {} }],
    mutate: (rng, s) => mutateJson(rng, lossy.decode(s.bytes)),
    check(s, b) {
      const text = decodeUtf8Strict(b, { file: s.name });
      return jsonProblems(b, text, parseThresholds(text, s.name));
    },
  };
}

// ── OBJ ─────────────────────────────────────────────────────────────────────────────────────

/** Strict reference reading of an OBJ: decimal v coordinates, face indices that exist. */
function objReference(text: string): string[] {
  const out: string[] = [];
  const num = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  const lines = text.split(/\r\n|\n|\r/);
  let total = 0;
  for (const l of lines) if (/^\s*v\s/.test(l)) total++;
  lines.forEach((line, i) => {
    const tok = line.replace(/#.*/, "").trim().split(/\s+/);
    if (tok[0] === "v") {
      for (let k = 1; k <= 3 && k < tok.length; k++) {
        if (!num.test(tok[k])) out.push(`line ${i + 1}: coordinate ${JSON.stringify(tok[k])}`);
      }
    } else if (tok[0] === "f") {
      for (const t of tok.slice(1)) {
        const h = t.split("/")[0];
        if (/^\+?\d+$/.test(h) && BigInt(h) > BigInt(total)) {
          out.push(`line ${i + 1}: face index ${h} > ${total} vertices`);
        }
      }
    }
  });
  return out.slice(0, 3);
}

async function objTarget(): Promise<FuzzTarget> {
  const seeds: FuzzSeed[] = [];
  for (const rel of ["tests/fixtures/bake/world.obj", "tests/fixtures/worlds/small/ground.obj"]) {
    seeds.push({ name: rel, bytes: await read(rel), ctx: {} });
  }
  const opts = {
    pxPerM: 4,
    up: "y" as const,
    offsetPx: [8, 8] as [number, number],
    offsetH: 0,
    surfaceOf: () => 1,
    maxSlopeDeg: 45,
    weld: true,
  };
  return {
    name: "obj",
    seeds,
    mutate(rng, s) {
      const text = lossy.decode(s.bytes);
      const nv = text.split("\n").filter((l) => l.startsWith("v ")).length;
      return mutateLines(rng, text, [
        "v nan 0 0",
        "v inf 0 0",
        "v 1e39 0 0",
        "v 0x10 0 0",
        "v 0b101 1 1",
        "v 0o7 1 1",
        "v 1_0 0 0",
        "v 1 2",
        "f 0 1 2",
        `f 1 2 ${nv + 1}`,
        `f ${4294967296 + 2} 2 3`,
        "f -1 -2 -99999",
        "f 1.5 2 3",
        "g \u0000",
        "v " + "9".repeat(400) + " 0 0",
      ]);
    },
    check(s, b) {
      const text = lossy.decode(b); // readObj decodes the same way; parseObj refuses U+FFFD
      const obj = parseObj(text, s.name);
      const imp = importObj(obj, opts);
      const out = objReference(text);
      if (!isUtf8(b)) out.push("invalid UTF-8 accepted");
      out.push(...nonFinite(imp.vertices, "vertices"), ...nonFinite(obj.positions, "positions"));
      const nv = obj.positions.length / 3;
      for (const t of obj.triangles) {
        if (t >= nv) {
          out.push(`triangle index ${t} ≥ ${nv} vertices`);
          break;
        }
      }
      return out;
    },
  };
}

// ── Run logs ────────────────────────────────────────────────────────────────────────────────

const LOG_FIXTURES = [
  "tests/fixtures/logs/navigator_full.log",
  "tests/fixtures/analyze/failures.log",
];

function problems(r: ParseReport): number {
  let n = 0;
  for (const v of Object.values(r.problems)) n += v;
  for (const f of r.files) if (f.error) n++;
  return n;
}

async function logTarget(): Promise<FuzzTarget> {
  const seeds: FuzzSeed[] = [];
  for (const rel of LOG_FIXTURES) seeds.push({ name: rel, bytes: await read(rel), ctx: {} });
  return {
    name: "log",
    seeds,
    mutate(rng, s) {
      const text = lossy.decode(s.bytes);
      if (rng.chance(0.5)) return mutateBytes(rng, s.bytes);
      // A line re-encoded as GBK-like bytes (a logger writing a legacy code page).
      const lines = text.split("\n");
      const i = rng.int(lines.length);
      const pre = te.encode(lines.slice(0, i).join("\n") + "\n");
      const mid = te.encode(lines[i]).map((x) => (x >= 0x80 ? (x ^ 0x40) | 0x80 : x));
      const post = te.encode("\n" + lines.slice(i + 1).join("\n"));
      const o = new Uint8Array(pre.length + mid.length + post.length);
      o.set(pre), o.set(mid, pre.length), o.set(post, pre.length + mid.length);
      return { bytes: o, op: "log-mixed-encoding", note: `line ${i + 1}` };
    },
    check(s, b) {
      const { report } = parseLogText(lossy.decode(b), s.name);
      if (!isUtf8(b) && report.problems.non_utf8 + report.problems.binary === 0) {
        return ["invalid UTF-8 read with no problem counted"];
      }
      return [];
    },
  };
}

async function gzLogTarget(scratch: string): Promise<FuzzTarget> {
  const path = `${scratch}/run.log.gz`;
  const seeds: FuzzSeed[] = [];
  for (const rel of LOG_FIXTURES) {
    const bytes = gzip(await read(rel));
    await Deno.writeFile(path, bytes);
    const { events } = await collectLogs([path]);
    seeds.push({ name: `${rel}.gz`, bytes, ctx: { events: JSON.stringify(events) } });
  }
  return {
    name: "gzlog",
    seeds,
    mutate: (rng, s) => mutateBytes(rng, s.bytes),
    async check(s, b) {
      await Deno.writeFile(path, b);
      const { events, report } = await collectLogs([path]);
      // gzip has a CRC: other events without any reported problem means damage went unseen.
      if (problems(report) === 0 && JSON.stringify(events) !== s.ctx.events) {
        return ["gzip log read to other events with no problem reported"];
      }
      return [];
    },
  };
}

/** Loads the named targets (default: all); `scratch` is a folder for the file-based ones. */
export async function loadTargets(
  names: readonly string[],
  scratch: string,
): Promise<FuzzTarget[]> {
  const make: Record<string, () => Promise<FuzzTarget>> = {
    bnav: mainTarget,
    bnvf: sidecarTarget,
    ocls: occluderTarget,
    gzip: gzipTarget,
    nogo: nogoTarget,
    legs: legsTarget,
    manifest: manifestTarget,
    thresholds: thresholdsTarget,
    obj: objTarget,
    log: logTarget,
    gzlog: () => gzLogTarget(scratch),
  };
  const out: FuzzTarget[] = [];
  for (const n of names) {
    const f = make[n];
    if (!f) {
      throw new NavscopeError("usage", `unknown fuzz target ${n}`, {}, FUZZ_TARGETS.join(", "));
    }
    out.push(await f());
  }
  return out;
}
