/**
 * MaaEnd log bundles as they reach a planner team (maaend-bundles.md): the GUI's
 * `<name>-logs-<version>-<date>-<time>-partNN.zip` volumes (independent zips, §1.3), the older
 * exporter's single zip (§1.6), a hand-made zip of the `debug/` folder (with or without a top
 * folder, §1.7), an extracted folder. This module turns such inputs into log *sources* — a
 * name and a way to open its bytes — and a {@link BundleInfo} per bundle saying what was
 * found, missing and read. Zip entries are streamed, never extracted (src/codec/zip.ts).
 *
 * Which files are read (§1.4, §6): the navigator logs by path,
 * `(^|/)cpp-algo/debug/maafw(\.bak\.[^/]+)?\.log$` (and the older `maa.log` / `maa.bak.log`),
 * in the order of the stamp in the rotated name and then the live log — never by mtime, which
 * unzipping destroys (§1.5). The top-level `maafw.log` is the pipeline log: read for task and
 * node boundaries only. Everything else is listed, not parsed.
 * @module
 */
import {
  entryStream,
  isZip,
  openZip,
  openZipBytes,
  type ZipArchive,
  type ZipEntry,
} from "../codec/zip.ts";
import { NavscopeError } from "../errors.ts";

/** What a log source is to the reader. */
export type SourceRole = "navigator" | "pipeline" | "log";

/** One readable log: a file, or an entry of a zip volume. */
export interface LogSourceFile {
  /** Display name: the path, or `VOLUME.zip!entry/path`. */
  name: string;
  role: SourceRole;
  /** Opens the raw (possibly gzip) bytes. */
  open(): Promise<ReadableStream<Uint8Array>>;
  /** The bundle it belongs to, null for a loose file. */
  bundle: BundleInfo | null;
  /** Order within its bundle (the rotation rule), 0 for loose files. */
  rank: number;
  /** The file on disk, when the source is a plain file (read in large chunks). */
  path?: string;
  /**
   * Read in rotation order with the rest of its bundle (zip members). Files of an extracted
   * folder are ordered by their first timestamp instead, as loose logs are: unzipping keeps
   * the names, and a folder may hold other logs beside the navigator's.
   */
  rotationOrder?: boolean;
}

/** A problem with one volume or entry (named, located). */
export interface BundleProblem {
  /** Volume (zip path) or folder. */
  file: string;
  /** Entry path inside the volume, "" for the whole volume. */
  entry: string;
  error: string;
}

/** What navscope knows about one bundle; every output names it. */
export interface BundleInfo {
  /** The bundle's name (prefix before `-partNN.zip`), or the zip / folder path. */
  label: string;
  /** `volumes` (partNN), `single_zip` (the older exporter), `debug_zip` (hand-made), `folder`. */
  kind: "volumes" | "single_zip" | "debug_zip" | "folder";
  /** `interface.json` name from the file name (`MaaEnd`), "" when unknown. */
  product: string;
  /** Version from the file name (`v2.23.0-rc.2`), "" when unknown. */
  version: string;
  /** Export stamp, local time as written (`2026-08-08 07:52:56`), "" when unknown. */
  stamp: string;
  /** The exporter era, in words (maaend-bundles.md §1.6). */
  era: string;
  /** Volumes read (paths as given). */
  volumes: string[];
  /** Volumes expected and absent (file names). */
  missingVolumes: string[];
  /** Navigator logs read, in reading order. */
  navigatorFiles: string[];
  /** Pipeline logs (task and node boundaries only). */
  pipelineFiles: string[];
  /** Everything else in the bundle (listed, not parsed). */
  otherFiles: string[];
  /** Whether zipline delivery is on per `config/mxu-MaaEnd.json`, null when unknown. */
  ziplines: boolean | null;
  /** The config key that said so, "" when none. */
  ziplinesKey: string;
  /** Unreadable volumes and entries. */
  problems: BundleProblem[];
  /** Warnings (missing volumes, unknown numbering …). */
  warnings: string[];
}

/** `<name>-logs-[<ver>-]<date>-<time>[-partNN].zip`, parsed from the right (§1.2). */
const BUNDLE_NAME =
  /^(?<name>.+)-logs-(?:(?<ver>.+)-)?(?<date>\d{8})-(?<time>\d{6})(?:-part(?<part>\d{2,3}))?\.zip$/;

/** Parsed bundle file name, or null. */
export function parseBundleName(
  base: string,
): {
  prefix: string;
  product: string;
  version: string;
  stamp: string;
  part: number | null;
  width: number;
} | null {
  const m = BUNDLE_NAME.exec(base);
  if (!m) return null;
  const g = m.groups!;
  const d = g.date, t = g.time;
  const prefix = base.slice(0, base.length - ".zip".length - (g.part ? g.part.length + 5 : 0));
  return {
    prefix,
    product: g.name,
    version: g.ver ?? "",
    stamp: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)} ${t.slice(0, 2)}:${t.slice(2, 4)}:${
      t.slice(4, 6)
    }`,
    part: g.part ? Number(g.part) : null,
    width: g.part ? g.part.length : 0,
  };
}

const NAV_LOG = /(^|\/)cpp-algo\/debug\/(maafw(\.bak\.[^/]+)?|maa(\.bak)?)\.log$/;
const PIPE_LOG = /^(?:[^/]+\/)?(maafw(\.bak\.[^/]+)?|maa(\.bak)?)\.log$/;
const CONFIG = /(^|\/)config\/mxu-MaaEnd\.json$/;

/** Role of a path inside a bundle. */
export function roleOf(path: string): SourceRole | "config" | "other" {
  if (NAV_LOG.test(path)) return "navigator";
  if (!path.includes("cpp-algo/") && PIPE_LOG.test(path)) return "pipeline";
  if (CONFIG.test(path)) return "config";
  return "other";
}

/**
 * Reading order of rotated logs (§1.5): `maafw.bak.<stamp>.log` by its zero-padded stamp (a
 * lexical sort is chronological), `maa.bak.log` before `maa.log`, the live log last.
 */
export function rotationKey(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const m = /^maafw\.bak\.(.+)\.log$/.exec(base);
  if (m) return `1:${m[1]}`;
  if (base === "maa.bak.log") return "0:";
  if (base === "maa.log") return "2:";
  return "3:"; // maafw.log, the live log
}

/** A bundle with nothing found yet. */
function emptyBundle(label: string, kind: BundleInfo["kind"]): BundleInfo {
  return {
    label,
    kind,
    product: "",
    version: "",
    stamp: "",
    era: "",
    volumes: [],
    missingVolumes: [],
    navigatorFiles: [],
    pipelineFiles: [],
    otherFiles: [],
    ziplines: null,
    ziplinesKey: "",
    problems: [],
    warnings: [],
  };
}

/** Reads a small entry whole (the config file), null when it cannot be read. */
async function readSmall(
  open: () => Promise<ReadableStream<Uint8Array>>,
): Promise<Uint8Array | null> {
  try {
    const chunks: Uint8Array[] = [];
    let n = 0;
    for await (const c of await open()) {
      chunks.push(c);
      n += c.length;
      if (n > 8 << 20) return null;
    }
    const out = new Uint8Array(n);
    let at = 0;
    for (const c of chunks) out.set(c, (at += c.length) - c.length);
    return out;
  } catch {
    return null;
  }
}

/**
 * Whether zipline delivery is on, from `config/mxu-MaaEnd.json` (maaend-bundles.md §1.4, the
 * fact maintainers check in #5512). The file's schema is not documented, so the first key or
 * option name that mentions ziplines (`zipline`, `Zipline`, 滑索) with a boolean-like value is
 * taken, and its path is reported so a reader can check it.
 */
export function ziplinesFromConfig(json: unknown): { on: boolean | null; key: string } {
  const truthy = (v: unknown): boolean | null => {
    if (typeof v === "boolean") return v;
    if (typeof v === "string") {
      if (/^(yes|true|on|enabled?|是|开启?)$/i.test(v)) return true;
      if (/^(no|false|off|disabled?|否|关闭?)$/i.test(v)) return false;
    }
    return null;
  };
  const mentions = (s: string) => /zipline|滑索/i.test(s);
  const walk = (v: unknown, path: string): { on: boolean | null; key: string } | null => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const r = walk(v[i], `${path}[${i}]`);
        if (r) return r;
      }
      return null;
    }
    if (v === null || typeof v !== "object") return null;
    const o = v as Record<string, unknown>;
    // An option record: {name: "…Zipline…", value: "Yes"} and the like.
    const label = ["name", "option", "key", "id"].map((k) => o[k]).find((x) =>
      typeof x === "string"
    );
    if (typeof label === "string" && mentions(label)) {
      for (const k of ["value", "enabled", "checked", "selected", "case"]) {
        const b = truthy(o[k]);
        if (b !== null) return { on: b, key: `${path}.${k} (${label})` };
      }
    }
    for (const [k, x] of Object.entries(o)) {
      if (mentions(k)) {
        const b = truthy(x);
        if (b !== null) return { on: b, key: `${path}.${k}` };
      }
      const r = walk(x, `${path}.${k}`);
      if (r) return r;
    }
    return null;
  };
  return walk(json, "$") ?? { on: null, key: "" };
}

async function applyConfig(
  b: BundleInfo,
  open: () => Promise<ReadableStream<Uint8Array>>,
  name: string,
) {
  const bytes = await readSmall(open);
  if (bytes === null) {
    b.warnings.push(`${name}: could not be read; zipline state unknown`);
    return;
  }
  try {
    const z = ziplinesFromConfig(JSON.parse(new TextDecoder().decode(bytes)));
    b.ziplines = z.on;
    b.ziplinesKey = z.key;
  } catch (e) {
    b.warnings.push(`${name}: not JSON (${(e as Error).message}); zipline state unknown`);
  }
}

function eraOf(b: BundleInfo, hasCppAlgo: boolean, oldNames: boolean): string {
  const parts: string[] = [];
  if (b.kind === "volumes") parts.push("MXU ≥ v2.1.7 exporter (independent partNN volumes)");
  else if (b.kind === "single_zip") parts.push("MXU < v2.1.7 exporter (one zip)");
  else if (b.kind === "debug_zip") parts.push("hand-made zip of the debug folder");
  else parts.push("extracted folder");
  if (!hasCppAlgo) parts.push("no cpp-algo/debug navigator log (MXU < v2.1.6 packs none)");
  if (oldNames) parts.push("maa.log names (before the 2026-05 maafw rename)");
  return parts.join("; ");
}

/** Registers one entry/file of a bundle: a source, the config, or a listed other file. */
interface Member {
  path: string;
  display: string;
  open: () => Promise<ReadableStream<Uint8Array>>;
}

async function addMembers(
  b: BundleInfo,
  members: Member[],
  out: LogSourceFile[],
  folder = false,
): Promise<void> {
  const nav: Member[] = [];
  for (const m of members) {
    const role = roleOf(m.path);
    if (role === "navigator") nav.push(m);
    else if (
      folder && role === "other" && /(^|\/)cpp-algo\/debug\//.test(m.path) &&
      /\.(log|txt|gz)$/i.test(m.path)
    ) {
      // Other logs in the navigator's folder of an extracted bundle (a re-compressed or
      // renamed rotation): read as logs, in time order.
      b.navigatorFiles.push(m.display);
      out.push({ name: m.display, role: "log", open: m.open, bundle: b, rank: 0, path: m.display });
    } else if (role === "pipeline") {
      b.pipelineFiles.push(m.display);
      out.push({ name: m.display, role, open: m.open, bundle: b, rank: 1e9 });
    } else if (role === "config") {
      b.otherFiles.push(m.display);
      await applyConfig(b, m.open, m.display);
    } else b.otherFiles.push(m.display);
  }
  nav.sort((x, y) => {
    const kx = rotationKey(x.path), ky = rotationKey(y.path);
    return kx < ky ? -1 : kx > ky ? 1 : x.display < y.display ? -1 : 1;
  });
  nav.forEach((m, i) => {
    b.navigatorFiles.push(m.display);
    out.push({
      name: m.display,
      role: "navigator",
      open: m.open,
      bundle: b,
      rank: i,
      rotationOrder: !folder,
      ...(folder ? { path: m.display } : {}),
    });
  });
}

function fileOpener(path: string): () => Promise<ReadableStream<Uint8Array>> {
  return async () => (await Deno.open(path, { read: true })).readable;
}

/** Options of {@link resolveSources}. */
export interface ResolveOptions {
  /** Throw on a missing volume or an unreadable volume instead of warning. */
  strict?: boolean;
}

/**
 * Resolves expanded input files into log sources and bundles. `files` are the expanded inputs
 * (zip volumes recognised by magic or name); `folders` the directory inputs that hold a bundle
 * layout (a `cpp-algo/debug/` navigator log). Volume problems are recorded on the bundle (and
 * thrown under `strict`); other volumes are still read.
 */
export async function resolveSources(
  files: readonly string[],
  zipFiles: ReadonlySet<string>,
  folders: ReadonlyMap<string, string[]>,
  opts: ResolveOptions = {},
): Promise<{ sources: LogSourceFile[]; bundles: BundleInfo[] }> {
  const sources: LogSourceFile[] = [];
  const bundles: BundleInfo[] = [];
  // Zip volumes grouped by their bundle prefix (§1.2); unnamed zips are bundles of their own.
  const groups = new Map<string, Volume[]>();
  const addVolume = (f: string, zip?: ZipArchive, notes: string[] = [], skipZips = false) => {
    // The volume's own name: after the folder, or after the outer zip's `!`.
    const cut = Math.max(f.lastIndexOf("/"), f.lastIndexOf("!")) + 1;
    const parsed = parseBundleName(f.slice(cut));
    const key = parsed && parsed.part !== null ? `${f.slice(0, cut)}${parsed.prefix}` : f;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push({ parsed, path: f, zip, notes, skipZips });
  };
  for (const f of files) {
    if (!zipFiles.has(f)) {
      sources.push({ name: f, role: "log", open: fileOpener(f), bundle: null, rank: 0, path: f });
      continue;
    }
    const nested = await nestedVolumes(f, opts);
    if (nested === null) addVolume(f);
    else {
      for (const v of nested.volumes) addVolume(v.zip.path, v.zip, v.notes);
      if (nested.rest) addVolume(f, nested.rest, nested.notes, true);
      else if (nested.notes.length) addVolume(f, nested.outer, nested.notes, true);
    }
  }
  for (const [key, vols] of groups) {
    const first = vols[0].parsed;
    const kind: BundleInfo["kind"] = first?.part != null
      ? "volumes"
      : first
      ? "single_zip"
      : "debug_zip";
    const b = emptyBundle(
      key.slice(Math.max(key.lastIndexOf("/"), key.lastIndexOf("!")) + 1),
      kind,
    );
    for (const n of vols.flatMap((v) => v.notes)) if (!b.warnings.includes(n)) b.warnings.push(n);
    if (first) {
      b.product = first.product;
      b.version = first.version;
      b.stamp = first.stamp;
    }
    bundles.push(b);
    vols.sort((x, y) => (x.parsed?.part ?? 0) - (y.parsed?.part ?? 0));
    if (kind === "volumes") {
      missingParts(b, vols.map((v) => v.parsed!), key);
      if (opts.strict && b.missingVolumes.length > 0) {
        throw new NavscopeError("io", b.warnings[b.warnings.length - 1], { file: vols[0].path });
      }
    }
    const members: Member[] = [];
    let hasCpp = false, oldNames = false;
    for (const v of vols) {
      let zip: ZipArchive;
      try {
        zip = v.zip ?? await openZip(v.path);
      } catch (e) {
        const msg = (e as Error).message;
        if (opts.strict) throw e;
        b.problems.push({ file: v.path, entry: "", error: msg });
        continue;
      }
      b.volumes.push(v.path);
      const copies = duplicateNames(zip, b);
      for (const entry of zip.entries) {
        if (entry.directory) continue;
        // The volumes of a re-zipped bundle are read as volumes (nestedVolumes), not as entries.
        if (v.skipZips && isZipName(entry.name)) continue;
        const copy = copies.get(entry.index) ?? 0;
        // Both copies of a duplicate name are read, in archive order; the later one is named
        // apart, so nothing is silently dropped or merged.
        const display = `${v.path}!${entry.name}${copy > 1 ? ` (copy ${copy})` : ""}`;
        if (roleOf(entry.name) !== "other" && entry.flags & 1) {
          const e = new NavscopeError("bad_value", "encrypted entry: cannot be read", {
            file: v.path,
            section: `zip entry ${entry.name}`,
          });
          if (opts.strict) throw e;
          b.problems.push({ file: v.path, entry: entry.name, error: e.message });
          continue;
        }
        if (/(^|\/)cpp-algo\/debug\//.test(entry.name)) hasCpp = true;
        if (/(^|\/)maa(\.bak)?\.log$/.test(entry.name)) oldNames = true;
        members.push({ path: entry.name, display, open: zipOpener(zip, entry) });
      }
    }
    // A zip holding none of the bundle's files is still read as plain logs (a zip of loose logs).
    await addMembers(b, members, sources);
    if (
      kind === "debug_zip" && members.length > 0 && b.navigatorFiles.length === 0 &&
      b.pipelineFiles.length === 0
    ) {
      for (const m of members) {
        if (/\.(log|txt|gz)$/i.test(m.path)) {
          sources.push({ name: m.display, role: "log", open: m.open, bundle: b, rank: 0 });
        }
      }
    }
    b.era = eraOf(b, hasCpp, oldNames);
  }
  for (const [dir, rels] of folders) {
    const b = emptyBundle(dir, "folder");
    bundles.push(b);
    const members = rels.map((r) => ({
      path: r,
      display: `${dir.replace(/\/$/, "")}/${r}`,
      open: fileOpener(`${dir.replace(/\/$/, "")}/${r}`),
    }));
    await addMembers(b, members, sources, true);
    b.era = eraOf(b, true, rels.some((r) => /(^|\/)maa(\.bak)?\.log$/.test(r)));
  }
  return { sources, bundles };
}

/** A zip volume to read: its path, name parse, and the archive when opened already. */
interface Volume {
  parsed: ReturnType<typeof parseBundleName>;
  path: string;
  /** Opened already (a volume read from inside another zip, or a re-zip's own entries). */
  zip?: ZipArchive;
  /** Warnings the bundle carries about this volume. */
  notes: string[];
  /** Skip the `.zip` entries (read as volumes of their own). */
  skipZips?: boolean;
}

const isZipName = (name: string) => /\.zip$/i.test(name);

/** What {@link nestedVolumes} found in a zip of volumes. */
interface Nested {
  /** The volumes inside, opened from memory, each with its warnings. */
  volumes: Array<{ zip: ZipArchive; notes: string[] }>;
  /** The outer archive when it holds other files too (read as a bundle of its own). */
  rest: ZipArchive | null;
  /** The outer archive. */
  outer: ZipArchive;
  /** Warnings about the outer archive (inner entries that could not be read as volumes). */
  notes: string[];
}

/**
 * A zip that holds bundle volumes (users re-zip the `partNN` zips into one file to attach it):
 * its `.zip` entries, each inflated into memory (bounded by the inflate cap) and opened as a
 * volume named `OUTER.zip!inner.zip`; `rest` is the outer archive when it holds other files
 * too (read as a bundle of its own, its `.zip` entries skipped). Null when the zip holds no
 * `.zip` entry (read as usual). One level only: a zip inside such a volume is listed, not read,
 * with a warning naming it (maaend-bundles.md: the exporter never nests).
 */
async function nestedVolumes(
  path: string,
  opts: ResolveOptions,
): Promise<Nested | null> {
  let outer: ZipArchive;
  try {
    outer = await openZip(path);
  } catch {
    return null; // the main pass reports it
  }
  const inner = outer.entries.filter((e) => !e.directory && isZipName(e.name));
  if (inner.length === 0) return null;
  const volumes: Array<{ zip: ZipArchive; notes: string[] }> = [];
  const notes: string[] = [];
  for (const e of inner) {
    const where = `${path}!${e.name}`;
    let zip: ZipArchive;
    try {
      const bytes = await readAll(entryStream(outer, e));
      if (!isZip(bytes.subarray(0, 4))) {
        throw new NavscopeError("bad_value", "a .zip entry that is not a zip", {
          file: path,
          section: `zip entry ${e.name}`,
        });
      }
      zip = await openZipBytes(where, bytes);
    } catch (err) {
      if (opts.strict) throw err;
      notes.push(`${where}: not read as a volume: ${(err as Error).message}`);
      continue;
    }
    const deeper = zip.entries.filter((x) => !x.directory && isZipName(x.name));
    const vNotes = [`volumes read from inside ${path} (a re-zipped bundle, one level of nesting)`];
    for (const d of deeper) {
      const msg = `${where}!${d.name}: a zip inside a zip inside a zip is not read (one level ` +
        `of nesting only): unzip ${path} once and pass the volumes`;
      if (opts.strict) {
        throw new NavscopeError("bad_value", msg, { file: path, section: `zip entry ${e.name}` });
      }
      vNotes.push(msg);
    }
    volumes.push({ zip, notes: vNotes });
  }
  const others = outer.entries.some((e) => !e.directory && !isZipName(e.name));
  return { volumes, rest: others ? outer : null, outer, notes };
}

/** Every byte of a stream (an inner volume: bounded by the inflate cap of its entry). */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let n = 0;
  for await (const c of stream) {
    chunks.push(c);
    n += c.length;
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.length) - c.length);
  return out;
}

/**
 * Duplicate entry names of one archive (a hand-made zip appended to, or two folders flattened):
 * a warning on the bundle naming every copy (central-directory index and offset), and the copy
 * number of each entry after the first (by index). Every copy is read, in archive order.
 */
function duplicateNames(zip: ZipArchive, b: BundleInfo): Map<number, number> {
  const byName = new Map<string, ZipEntry[]>();
  for (const e of zip.entries) {
    if (e.directory) continue;
    const l = byName.get(e.name);
    if (l) l.push(e);
    else byName.set(e.name, [e]);
  }
  const copies = new Map<number, number>();
  for (const [name, l] of byName) {
    if (l.length < 2) continue;
    l.forEach((e, i) => copies.set(e.index, i + 1));
    b.warnings.push(
      `${zip.path}: entry "${name}" appears ${l.length} times (${
        l.map((e) => `entry ${e.index + 1} at offset ${e.localOffset}`).join(", ")
      }); every copy is read, in archive order, the later ones named "${name} (copy N)"`,
    );
  }
  return copies;
}

function zipOpener(zip: ZipArchive, entry: ZipEntry): () => Promise<ReadableStream<Uint8Array>> {
  return () => Promise.resolve(entryStream(zip, entry));
}

/**
 * Missing volumes (§1.3: LOG-ARCHIVE refuses a missing part and numbering that does not start
 * at 01): each absent number below the highest found is named. Parts after the highest cannot
 * be known to be missing; the warning says so when part01 is absent.
 */
function missingParts(
  b: BundleInfo,
  parts: NonNullable<ReturnType<typeof parseBundleName>>[],
  key: string,
): void {
  const have = new Set(parts.map((p) => p.part!));
  const max = Math.max(...have);
  const width = parts[0].width;
  const base = key.slice(key.lastIndexOf("/") + 1);
  for (let i = 1; i <= max; i++) {
    if (!have.has(i)) b.missingVolumes.push(`${base}-part${String(i).padStart(width, "0")}.zip`);
  }
  if (b.missingVolumes.length > 0) {
    b.warnings.push(
      `bundle ${base}: missing volume${b.missingVolumes.length > 1 ? "s" : ""} ` +
        `${b.missingVolumes.join(", ")} (found ${
          [...have].sort((x, y) => x - y).map((p) => `part${String(p).padStart(width, "0")}`).join(
            ", ",
          )
        }); ` +
        `the rest is read — attach every part for the whole log`,
    );
  }
}
