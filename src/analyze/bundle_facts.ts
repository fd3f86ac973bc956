/**
 * What every output says about the bundle it read (issue 35: tables, `--json`, the report's
 * run facts, replay.json): product, version, stamp (local time as written), volumes found and
 * missing, the navigator files read, the exporter era, zipline state. One shape, one table, so
 * classify, stats, replay, report and triage say the same.
 * @module
 */
import type { BundleInfo } from "../logs/bundle.ts";
import type { FileReport, ParseReport } from "../logs/types.ts";
import { relPath } from "../util/shown_paths.ts";

/** The JSON form of a bundle (stable, snake_case). */
export interface BundleFacts {
  label: string;
  kind: BundleInfo["kind"];
  product: string;
  version: string;
  stamp: string;
  era: string;
  volumes_found: string[];
  volumes_missing: string[];
  navigator_files: string[];
  pipeline_files: string[];
  other_files: number;
  ziplines: boolean | null;
  ziplines_key: string;
  problems: Array<{ file: string; entry: string; error: string }>;
  warnings: string[];
  /** NULs dropped and lines with invalid UTF-8 over the navigator files. */
  nul_chars: number;
  non_utf8_lines: number;
  /** Pipeline-log task boundaries (top-level maafw.log). */
  tasks: { started: number; succeeded: number; failed: number; node_actions_failed: number };
}

function under(b: BundleInfo, f: FileReport): boolean {
  return b.navigatorFiles.includes(f.file) || b.pipelineFiles.includes(f.file);
}

/** Facts of every bundle in a parse. */
export function bundleFacts(parse: ParseReport): BundleFacts[] {
  return parse.bundles.map((b) => {
    const files = parse.files.filter((f) => under(b, f));
    const tasks = { started: 0, succeeded: 0, failed: 0, node_actions_failed: 0 };
    for (const f of files) {
      if (!f.boundaries) continue;
      tasks.started += f.boundaries.tasksStarted;
      tasks.succeeded += f.boundaries.tasksSucceeded;
      tasks.failed += f.boundaries.tasksFailed;
      tasks.node_actions_failed += f.boundaries.nodeActionsFailed;
    }
    return {
      label: relPath(b.label),
      kind: b.kind,
      product: b.product,
      version: b.version,
      stamp: b.stamp,
      era: b.era,
      volumes_found: b.volumes.map(relPath),
      volumes_missing: b.missingVolumes,
      navigator_files: b.navigatorFiles.map(relPath),
      pipeline_files: b.pipelineFiles.map(relPath),
      other_files: b.otherFiles.length,
      ziplines: b.ziplines,
      ziplines_key: b.ziplinesKey,
      problems: b.problems.map((p) => ({ ...p, file: relPath(p.file) })),
      warnings: b.warnings,
      nul_chars: files.reduce((s, f) => s + f.nulChars, 0),
      non_utf8_lines: files.reduce((s, f) => s + f.nonUtf8Lines, 0),
      tasks,
    };
  });
}

/** One-word zipline state. */
export function ziplineWord(z: boolean | null): string {
  return z === null ? "unknown" : z ? "on" : "off";
}
