/**
 * Test-data builder: MaaEnd log bundles as MXU's exporter writes them (maaend-bundles.md §1):
 * `<name>-logs-<version>-<date>-<time>-partNN.zip` volumes, each an independent Deflate zip
 * with paths relative to `debug/`, the cpp-algo navigator log in a later volume than the big
 * top-level logs (§1.3 entry order). Written with fflate's `zipSync` (the library the reader
 * pairs with). Tests and benchmarks only.
 * @module
 */
import { type Zippable, zipSync } from "fflate";

/** Entries of one volume: archive path → bytes or text. */
export type VolumeEntries = Record<string, Uint8Array | string>;

/** A bundle to write. */
export interface BundleSpec {
  /** `MaaEnd-logs-v2.23.0-rc.2-20260808-075256`: the prefix before `-partNN.zip`. */
  prefix: string;
  /** Volumes in order (part01 first); one volume and `single: true` writes the old single zip. */
  volumes: VolumeEntries[];
  /** Write `<prefix>.zip` (the older exporter) instead of `-partNN` volumes. */
  single?: boolean;
  /** Deflate level (default 6, as the zip crate). */
  level?: 0 | 1 | 6 | 9;
}

const enc = new TextEncoder();

/** Zips one volume's entries. */
export function zipVolume(entries: VolumeEntries, level: 0 | 1 | 6 | 9 = 6): Uint8Array {
  const z: Zippable = {};
  for (const [k, v] of Object.entries(entries)) {
    z[k] = [typeof v === "string" ? enc.encode(v) : v, { level, mtime: new Date(2026, 7, 8) }];
  }
  return zipSync(z);
}

/** Writes the bundle's volumes into `dir`; returns their paths (part01 first). */
export function writeBundle(dir: string, spec: BundleSpec): string[] {
  Deno.mkdirSync(dir, { recursive: true });
  const width = spec.volumes.length >= 100 ? 3 : 2;
  return spec.volumes.map((v, i) => {
    const name = spec.single
      ? `${spec.prefix}.zip`
      : `${spec.prefix}-part${String(i + 1).padStart(width, "0")}.zip`;
    const path = `${dir}/${name}`;
    Deno.writeFileSync(path, zipVolume(v, spec.level));
    return path;
  });
}

/** Text with LF line ends turned into CRLF (Windows builds, maaend-bundles.md §1.5). */
export function crlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** A pipeline-log line (top-level maafw.log) of a task boundary. */
export function pipelineLine(time: string, msg: string, extra = ""): string {
  return `[${time}][INF][Px100][Tx1][Tasker.cpp][L10][maa::Tasker::run] ${msg} ${extra}\n`;
}
