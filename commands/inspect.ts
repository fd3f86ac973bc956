/**
 * `navscope inspect PACK [--zone Z] [--json|--md|--csv] [--nogo FILE] [--strict]`: look inside a main pack
 * and the files paired with it — header, sections, zones, grid tiles and records, compressed
 * bytes per record per field (the spec's 格图段 table), fields-sidecar validation, occluder and
 * no-go table status. Exit 0 when the set would load; 1 when a required part is unusable.
 * A fields sidecar (BNVF) or an occluder pack (OCLS) given directly is summarised on its own.
 * @module
 */
import { readMaybeGzip } from "../src/codec/mod.ts";
import { NavscopeError } from "../src/errors.ts";
import { collectBoundViolations } from "../src/pack/bounds.ts";
import { BGRD_SUMMARY_HEADINGS, bgrdSummaryRows } from "../src/pack/bgrd/summary.ts";
import { openSidecar, summarizeSidecar } from "../src/pack/bnvf/sidecar.ts";
import { decodeOccluderPackAll, summarizeOccluderPack } from "../src/pack/ocls/pack.ts";
import { inspectPackSet, type PackSetReport } from "../src/pack/set/pack_set.ts";
import {
  fmtNum,
  formatFromFlags,
  io,
  parseFlags,
  printTables,
  type TableModel,
} from "./support/terminal.ts";

export const summary = "Look inside a pack: header, sections, zones, tiles, sidecar pairing";
export const help = `navscope inspect PACK [--zone Z] [--nogo FILE] [--strict] [--json|--md|--csv]

PACK is a main pack (base.nav or base.nav.gz). Its paired files are found by name in the same
directory: base.fields.nav(.gz), base.occluder(.gz), base.nogo.json. What PACK is (main pack,
sidecar, occluder pack; gzip or plain) is decided by its content, not its name.

Prints the BNAV header, the section directory, the zones, the BGEO chunk directories, the BGRD
grid section per zone (tiles, records, compressed bytes per record per field), the tile table
of --zone Z, and the status of the fields sidecar (all six validation steps), the occluder pack
and the author no-go table. A BNVF or OCLS file given as PACK is summarised on its own.

  --zone Z     only zone Z (and its tile table)
  --nogo FILE  the author no-go table (default: base.nogo.json beside PACK)
  --strict     list every value outside its plausible range (docs/pack_validation.md), one
               located line each on stderr, and exit 1 if there is any; without it the
               load stops at the first, as the engine does
  --json       the whole report as JSON
  --md, --csv  the tables as Markdown / CSV

An occluder pack or no-go table that names zones the main pack does not have, no-go polygons
wholly outside their zone, or an occluder scene wholly outside its zone is "mismatched": not this
pack's, the engine is unusable. Every occluder scene is decoded; a pack that does not decode is
"invalid" and a warning (plans run without occluders, ledge drops allowed, and say so).

Exit status: 0 if an engine would load this set, 1 if a required part is missing or invalid
(grid section, fields sidecar, an unreadable or foreign no-go table, a foreign occluder pack; the
reason is on stderr, with --json too) or the main pack itself does not decode (one error line,
e.g. a section tag other than BGEO, BOML, BSRF, BGRD), 2 for usage errors.`;

function magicOf(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes.subarray(0, 4));
}

/** Runs inspect. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("inspect", args, {
    zone: { type: "string" },
    nogo: { type: "string" },
    json: { type: "boolean" },
    md: { type: "boolean" },
    csv: { type: "boolean" },
    strict: { type: "boolean" },
  });
  const format = formatFromFlags(values);
  if (positionals.length !== 1) {
    throw new NavscopeError(
      "usage",
      "inspect takes exactly one PACK (see navscope inspect --help)",
    );
  }
  const path = positionals[0];
  if (!values.strict) return await inspectPath(path, values, format);
  // --strict: every value outside its plausible range (src/pack/bounds.ts), not only the first.
  const { result, error, violations } = await collectBoundViolations(() =>
    inspectPath(path, values, format)
  );
  for (const v of violations) io.err.write(`navscope inspect: ${v.message}\n`);
  if (error !== undefined) throw error;
  if (violations.length) {
    io.err.write(
      `navscope inspect: ${violations.length} value${
        violations.length > 1 ? "s" : ""
      } outside the plausible bounds (docs/pack_validation.md)\n`,
    );
    return 1;
  }
  return result!;
}

async function inspectPath(
  path: string,
  values: { zone?: string; nogo?: string },
  format: ReturnType<typeof formatFromFlags>,
): Promise<number> {
  // Decided by content (gzip or not, then the magic), never by the file name.
  const bytes = await readMaybeGzip(path, { magic: ["BNAV", "BNVF", "OCLS"] });
  if (magicOf(bytes) !== "BNAV") return inspectOther(path, bytes, format);
  const report = await inspectPackSet(path, { zone: values.zone, nogoPath: values.nogo, bytes });
  printTables(format, reportTables(report, values.zone), report);
  for (const w of report.warnings) io.err.write(`navscope inspect: warning: ${w}\n`);
  // The reason goes to stderr in every format (--json too: a script reading only the exit code
  // and stderr still learns why, issue 27 item 9).
  if (!report.usable) {
    io.err.write(`navscope inspect: engine unusable: ${report.unusableReason}\n`);
  }
  return report.usable ? 0 : 1;
}

function inspectOther(
  path: string,
  bytes: Uint8Array,
  format: ReturnType<typeof formatFromFlags>,
): number {
  const magic = magicOf(bytes);
  if (magic === "BNVF") {
    const s = summarizeSidecar(openSidecar(bytes, null, { file: path }));
    const t: TableModel = {
      title: `${path}: BNVF v${s.version} (not checked against a main pack)`,
      head: ["zone", "regions", "tiles", "records", "FSPN B", "FSCC B", "FWAL B"],
      rows: s.zones.map((z) => [
        z.name,
        z.regions,
        z.tiles,
        z.records,
        z.fspnBytes,
        z.fsccBytes,
        z.fwalBytes,
      ]),
    };
    printTables(format, [t], s);
    return 0;
  }
  if (magic === "OCLS") {
    // Every record decoded: a pack whose streams do not decode is an error, not a summary.
    decodeOccluderPackAll(bytes, path);
    const zones = summarizeOccluderPack(bytes, path);
    const t: TableModel = {
      title: `${path}: OCLS occluder pack`,
      head: ["zone", "bytes", "templates", "instances", "terrain blocks", "shadowed"],
      rows: zones.map((z) => [
        z.name,
        z.length,
        z.counts?.templates ?? null,
        z.counts?.instances ?? null,
        z.counts?.blocks ?? null,
        z.shadowed ? "yes" : "",
      ]),
    };
    printTables(format, [t], { file: path, zones });
    return 0;
  }
  const shown = Array.from(
    bytes.subarray(0, 4),
    (b) => b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`,
  ).join("");
  throw new NavscopeError(
    "bad_magic",
    `not a navscope pack: the ${bytes.length < 4 ? `${bytes.length}-byte file` : "magic"} ` +
      `is "${shown}"${bytes.length < 4 ? "" : " (after un-gzipping, if the file was gzip)"}`,
    { file: path, offset: 0 },
    'the magic "BNAV" (main pack), "BNVF" (fields sidecar) or "OCLS" (occluder pack), plain or gzip',
  );
}

/** The report as tables, in reading order. */
export function reportTables(r: PackSetReport, zone?: string): TableModel[] {
  const h = r.main.header;
  const zones = r.main.zones.filter((z) => zone === undefined || z.name === zone);
  const out: TableModel[] = [
    {
      title: `${r.main.file}: BNAV v${h.version}, ${r.main.size} bytes`,
      head: ["field", "value"],
      rows: [
        [
          "zones / vertices / triangles / links",
          `${h.zones} / ${h.vertices} / ${h.triangles} / ${h.links}`,
        ],
        ["build_hash", `${h.buildHash}${r.main.verified ? " (verified)" : ""}`],
        ["file FNV-1a 64", r.mainFileFnv],
        ["flags", `0x${h.flags.toString(16)}`],
      ],
    },
    {
      title: "sections",
      head: ["tag", "offset", "bytes"],
      rows: r.main.sections.map((s) => [s.tag, s.offset, s.size]),
      align: ["left", "right", "right"],
    },
    {
      title: "zones",
      head: ["id", "name", "tier of", "triangles", "components", "size px", "floor_y"],
      rows: zones.map((z) => [
        z.id,
        z.name,
        z.parent === null ? "" : String(z.parent),
        z.triangleCount,
        z.componentCount,
        `${fmtNum(z.width)}×${fmtNum(z.height)}`,
        z.floorY,
      ]),
      align: ["right", "left", "left", "right", "right", "left", "right"],
    },
  ];
  if (r.main.geometry.kind === "BGEO") {
    const c = r.main.geometry.chunks;
    const row = (name: string, list: typeof c.vertex) => [
      name,
      list.length,
      list.reduce((a, x) => a + x.records, 0),
      list.reduce((a, x) => a + x.size, 0),
    ];
    out.push({
      title: "BGEO chunks",
      head: ["table", "chunks", "records", "compressed bytes"],
      rows: [row("vertex", c.vertex), row("triangle", c.triangle), row("link", c.link)],
    });
  }
  if (r.grid) {
    const rows = bgrdSummaryRows(r.grid);
    out.push({
      title: `BGRD v${r.grid.version}: compressed bytes per record per field`,
      head: [...BGRD_SUMMARY_HEADINGS],
      align: ["left", ...Array(BGRD_SUMMARY_HEADINGS.length - 1).fill("right")],
      rows: zone === undefined
        ? rows
        : rows.filter((row, i) => row[0] === zone || i === rows.length - 1),
      notes: r.gridError ? [`grid section UNUSABLE — ${r.gridError}`] : undefined,
    });
  } else {
    out.push({ title: "BGRD", head: ["status"], rows: [[`unusable: ${r.gridError}`]] });
  }
  if (zone !== undefined) {
    for (const z of r.tiles) {
      out.push({
        title: `tiles of ${z.zone}`,
        head: ["tile", "gx0", "gy0", "nx×ny", "owned x", "owned y", "records", "bytes", "B/rec"],
        align: ["right", "right", "right", "left", "left", "left", "right", "right", "right"],
        rows: z.tiles.map((t) => [
          t.index,
          t.gx0,
          t.gy0,
          `${t.nx}×${t.ny}`,
          `${t.owned[0]}..${t.owned[1]}`,
          `${t.owned[2]}..${t.owned[3]}`,
          t.records,
          t.bytes,
          t.records ? (t.bytes / t.records).toFixed(3) : "-",
        ]),
      });
    }
  }
  out.push({
    title: "paired files",
    head: ["part", "status", "path", "detail"],
    rows: [
      ["fields sidecar", r.sidecar.status, r.sidecar.path, r.sidecar.error ?? sidecarDetail(r)],
      [
        "occluder pack",
        r.occluder.status,
        r.occluder.path,
        r.occluder.error ?? r.occluder.warning ?? occluderDetail(r),
      ],
      ["no-go table", r.nogo.status, r.nogo.path, r.nogo.error ?? r.nogo.warning ?? nogoDetail(r)],
    ],
    notes: [r.usable ? "engine: usable" : `engine: UNUSABLE — ${r.unusableReason}`],
  });
  return out;
}

function sidecarDetail(r: PackSetReport): string {
  const s = r.sidecar.summary;
  if (!s) return "";
  const rec = s.zones.reduce((a, z) => a + z.records, 0);
  return `all six checks passed; ${s.zones.length} zones, ${rec} records, FLNK ${
    s.links ?? "absent"
  }, FOPN ${s.opens ?? "absent"}`;
}

function occluderDetail(r: PackSetReport): string {
  if (r.occluder.status === "missing") return "ledge drops are allowed everywhere";
  return `${r.occluder.zones?.length ?? 0} zone records`;
}

function nogoDetail(r: PackSetReport): string {
  if (r.nogo.status === "missing") return "no author no-go zones";
  return (r.nogo.zones ?? []).map((z) => `${z.zone}: ${z.polygons}`).join(", ");
}
