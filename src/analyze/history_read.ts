/**
 * What `navscope history add RUN` reads: a nightly output folder (plans.log + machine.json), a
 * replay output folder (replay.log), or plan-line log files, through the log reader of
 * src/logs (gzip, globs and all). The battery of a leg is its plan line's source field (nightly
 * writes the battery folder's name there).
 * @module
 */
import { join } from "node:path";
import { NavscopeError } from "../errors.ts";
import { parseLogs } from "../logs/reader.ts";
import type { PlanRecord } from "../logs/types.ts";
import { MACHINE_FILE, type MachineFingerprint, readMachineFile } from "./machine.ts";

/** Plan records of a run and the machine it ran on (null when no machine.json was found). */
export interface RunInput {
  /** Records with their battery. */
  records: Array<{ record: PlanRecord; battery: string }>;
  /** The fingerprint beside the logs, or null. */
  machine: MachineFingerprint | null;
  /** The log files read. */
  files: string[];
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await Deno.stat(p)).isDirectory;
  } catch {
    return false;
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await Deno.stat(p)).isFile;
  } catch {
    return false;
  }
}

/** Reads a run: one folder (nightly or replay output) or plan-line log files. */
export async function readRunInput(inputs: readonly string[]): Promise<RunInput> {
  const files: string[] = [];
  let machine: MachineFingerprint | null = null;
  for (const p of inputs) {
    if (!(await isDir(p))) {
      files.push(p);
      continue;
    }
    const found = [join(p, "plans.log"), join(p, "replay.log"), join(p, "replay", "replay.log")];
    const log = (await Promise.all(found.map(isFile))).findIndex((x) => x);
    if (log < 0) {
      throw new NavscopeError(
        "io",
        "no plans.log or replay.log in the folder",
        { file: p },
        "a nightly or replay output folder",
      );
    }
    files.push(found[log]);
    machine ??= await readMachineFile(join(p, MACHINE_FILE));
  }
  const stream = parseLogs(files);
  const records: RunInput["records"] = [];
  for await (const e of stream) {
    if (e.type === "plan") records.push({ record: e.record, battery: e.head.srcFile });
  }
  const problem = stream.report.files.find((f) => f.error);
  if (problem) {
    throw new NavscopeError("io", `cannot read the run: ${problem.error}`, { file: problem.file });
  }
  if (records.length === 0) {
    throw new NavscopeError("bad_value", "no navscope plan lines in the run", {
      file: files.join(", "),
    }, "plan lines (NAVSCOPE plan.) as nightly, plan or replay write them");
  }
  return { records, machine, files };
}
