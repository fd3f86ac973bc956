/**
 * `navscope bake MANIFEST --out DIR`: bakes a world manifest into the main pack, the fields
 * sidecar, the occluder pack and the author no-go table (issue "The baker"), then prints the
 * bake report.
 * @module
 */
import { NavscopeError } from "../src/errors.ts";
import { type BakeReport, bakeToDirectory } from "../src/world/bake_world.ts";
import { bakeProgress } from "./support/flags.ts";
import {
  formatFromFlags,
  io,
  parseFlags,
  printTables,
  Progress,
  type TableModel,
} from "./support/terminal.ts";
import { requireWritable } from "./support/preflight.ts";

/** One line for the command list. */
export const summary =
  "Bake a world manifest into base.nav.gz + fields sidecar + occluders + no-go";

/** Usage text. */
export const help = `navscope bake MANIFEST --out DIR [--workers N] [--base NAME] [--lenient]
                [--json|--csv|--md]

Reads a world manifest (OBJ meshes, occluders, off-mesh links, no-go polygons) and writes into
DIR: NAME.nav.gz (BNAV main pack: BGEO, BSRF, BOML, BGRD), NAME.fields.nav.gz (BNVF sidecar,
paired by build hash + FNV of the main pack), NAME.occluder.gz (OCLS) and NAME.nogo.json.
Every output goes to a temporary file first; all are renamed into place only at the end.
The output is byte-identical for any --workers value. On a terminal, a progress bar on stderr
shows the zone, the tile pass, tiles done / total and the records baked so far.

  --out DIR        output directory (created if missing)             (required)
  --workers N      bake tiles on N threads (default: all cores; 1 = no workers)
  --base NAME      output base name (default base)
  --lenient        bake meshes with non-manifold edges (cut and counted as warnings)
  --json           the bake report as JSON: {manifest, world, workers, zones: [{name, id, tier,
                   triangles, walkable, components, islandTriangles, links: {kept, dropped},
                   grid: {tiles, records, tileRecords, spans, regions, components, walls,
                   unmatchedEdges, times}, warnings, meshes: [{file, triangles,
                   ignoredLines}]}], files: [{role, path, bytes}],
                   gridBytesPerRecord, fieldsBytesPerRecord, records, times, warnings}
                   (times in ms; grid.pass1.* and grid.<stage> are summed over tiles,
                   grid.pass1Wall / grid.tileWall are the wall times of the two tile passes)
  --csv | --md     the report tables as CSV or Markdown`;

/** Runs bake; resolves to the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("bake", args, {
    out: { type: "string" },
    workers: { type: "string" },
    base: { type: "string" },
    lenient: { type: "boolean" },
    json: { type: "boolean" },
    csv: { type: "boolean" },
    md: { type: "boolean" },
  });
  const format = formatFromFlags(values);
  if (positionals.length !== 1) {
    throw new NavscopeError(
      "usage",
      `bake: ${positionals.length === 0 ? "no manifest given" : "more than one manifest given"}`,
      {},
      "exactly one MANIFEST (see navscope bake --help)",
    );
  }
  if (values.out === undefined || values.out === "") {
    throw new NavscopeError("usage", "bake: --out DIR is required", {}, "--out DIR");
  }
  let workers: number | undefined;
  if (values.workers !== undefined) {
    workers = Number(values.workers);
    if (!/^\d+$/.test(values.workers) || workers < 1 || workers > 256) {
      throw new NavscopeError(
        "usage",
        `bake: --workers ${JSON.stringify(values.workers)}`,
        {},
        "an integer 1..256",
      );
    }
  }
  const base = values.base ?? "base";
  if (!/^[A-Za-z0-9_\-][A-Za-z0-9_.\-]*$/.test(base) || base.endsWith(".fields")) {
    throw new NavscopeError(
      "usage",
      `bake: --base ${JSON.stringify(base)}`,
      {},
      "a plain file name",
    );
  }
  // Before the (long) bake: the output folder can be written.
  await requireWritable([{ path: values.out, what: "the bake output (--out)", dir: true }]);
  const progress = new Progress();
  let a;
  try {
    a = await bakeToDirectory(positionals[0], values.out, {
      workers,
      base,
      strictManifold: !values.lenient,
      onProgress: (p) => progress.update(...bakeProgress(p)),
    });
  } finally {
    progress.done();
  }
  const r = a.report;
  for (const z of r.zones) {
    for (const w of z.warnings) io.err.write(`navscope bake: warning: zone ${z.name}: ${w}\n`);
  }
  printTables(format, reportTables(r), r);
  return 0;
}

/** The report as tables: zones, output files, bytes per record, stage times. */
export function reportTables(r: BakeReport): TableModel[] {
  const zones: TableModel = {
    title: `bake ${r.world} (${r.workers} worker${r.workers === 1 ? "" : "s"})`,
    head: [
      "zone",
      "triangles",
      "walkable",
      "tiles",
      "spans",
      "records",
      "regions",
      "components",
      "walls",
      "links",
      "warnings",
      "ignored OBJ lines",
    ],
    rows: r.zones.map((z) => [
      z.tier ? `${z.name} (tier)` : z.name,
      z.triangles,
      z.walkable,
      z.grid?.tiles ?? 0,
      z.grid?.spans ?? 0,
      z.grid?.tileRecords ?? 0,
      z.grid?.regions ?? 0,
      z.grid?.components ?? 0,
      z.grid?.walls ?? 0,
      `${z.links.kept}/${z.links.kept + z.links.dropped}`,
      z.warnings.length,
      z.meshes.reduce((n, m) => n + m.ignoredLines, 0),
    ]),
    notes: [
      "records = BGRD records (apron duplicates included); links = kept/declared",
      "ignored OBJ lines = statements the OBJ import skips (vt, vn, s, l, mtllib, …)",
    ],
  };
  const files: TableModel = {
    title: "outputs",
    head: ["file", "role", "bytes", "bytes/record"],
    rows: r.files.map((f) => [f.path, f.role, f.bytes, r.records > 0 ? f.bytes / r.records : null]),
  };
  const fields: TableModel = {
    title: "compressed bytes per record: BGRD streams, FSPN streams, sidecar sections",
    head: ["section", "field", "bytes/record"],
    rows: [
      ...Object.entries(r.gridBytesPerRecord).map(([k, v]) => ["BGRD", k, v]),
      ...Object.entries(r.fieldsBytesPerRecord).map(([k, v]) => [
        /^[a-z]/.test(k) && k !== "total" ? "FSPN" : "BNVF",
        k,
        v,
      ]),
    ],
  };
  const times: TableModel = {
    title: "stage times (ms; grid.* tile stages are summed over tiles)",
    head: ["stage", "ms"],
    rows: Object.entries(r.times).map(([k, v]) => [k, v]),
  };
  return [zones, files, fields, times];
}
