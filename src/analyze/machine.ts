/**
 * Machine fingerprints: which machine a run's timings were measured on. A timing is only
 * comparable with one measured on the same kind of machine (same CPU model and logical cores,
 * same OS and architecture, same Deno and V8: a V8 update alone moves JIT-bound stages), so
 * `diff` gates timing metrics only when both runs carry equal fingerprints (docs/gate.md).
 *
 * A run's fingerprint lives in `machine.json` beside its logs (nightly writes one into its output
 * folder and into the baseline) and as the `machine` field of a stats / nightly JSON file.
 * @module
 */
import { cpus } from "node:os";
import { fnv1a64Hex } from "../codec/fnv.ts";
import { NavscopeError } from "../errors.ts";

/** One machine, as far as timings care. */
export interface MachineFingerprint {
  /** Format tag of a `machine.json` file. */
  format: "navscope-machine";
  /** Format version. */
  version: 1;
  /** 16 hex digits: FNV-1a 64 of the compared fields (see {@link fingerprintKey}). */
  id: string;
  /** CPU model name (`node:os` cpus(), else `/proc/cpuinfo` "model name"), or "unknown". */
  cpu: string;
  /** Logical cores (`navigator.hardwareConcurrency`). */
  cores: number;
  /** `Deno.build.os`. */
  os: string;
  /** `Deno.build.arch`. */
  arch: string;
  /** `Deno.version.deno`. */
  deno: string;
  /** `Deno.version.v8`. */
  v8: string;
}

/** The fields two fingerprints must share for their timings to be compared, in key order. */
export const COMPARED_FIELDS = ["cpu", "cores", "os", "arch", "deno", "v8"] as const;

/** The canonical text the id hashes: `cpu|cores|os|arch|deno|v8`. */
export function fingerprintKey(f: Omit<MachineFingerprint, "id" | "format" | "version">): string {
  return COMPARED_FIELDS.map((k) => String(f[k])).join("|");
}

function cpuModel(): string {
  // node:os cpus() needs --allow-sys=cpus (the nightly task grants it); Deno reads /proc/cpuinfo
  // only with --allow-all, so that is the fallback for `deno run -A` / tests.
  try {
    const c = cpus();
    if (c.length && c[0].model) return c[0].model.trim().replace(/\s+/g, " ");
  } catch { /* no --allow-sys=cpus */ }
  try {
    const text = Deno.readTextFileSync("/proc/cpuinfo");
    const m = /^(?:model name|Model|Hardware|cpu model)\s*:\s*(.+)$/m.exec(text);
    if (m) return m[1].trim().replace(/\s+/g, " ");
  } catch { /* not Linux, or not --allow-all */ }
  return UNKNOWN_CPU;
}

/** The `cpu` of a fingerprint taken without the permission to read the CPU model. */
export const UNKNOWN_CPU = "unknown";

let cached: MachineFingerprint | null = null;

/** This machine's fingerprint (computed once per process). */
export function machineFingerprint(): MachineFingerprint {
  if (cached) return cached;
  const f = {
    cpu: cpuModel(),
    cores: navigator.hardwareConcurrency ?? 0,
    os: Deno.build.os as string,
    arch: Deno.build.arch as string,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
  };
  cached = makeFingerprint(f);
  return cached;
}

/** A fingerprint of the given fields, with its id. */
export function makeFingerprint(
  f: Omit<MachineFingerprint, "id" | "format" | "version">,
): MachineFingerprint {
  // Only the compared fields are taken (a spread fingerprint's own id must not survive).
  const id = fnv1a64Hex(new TextEncoder().encode(fingerprintKey(f)));
  const { cpu, cores, os, arch, deno, v8 } = f;
  return { format: "navscope-machine", version: 1, id, cpu, cores, os, arch, deno, v8 };
}

/**
 * True when timings measured on `a` and `b` may be compared: both known, fields equal, and the
 * CPU model known (two "unknown" CPUs are not evidence of one machine).
 */
export function sameMachine(a: MachineFingerprint | null, b: MachineFingerprint | null): boolean {
  return a !== null && b !== null && a.cpu !== UNKNOWN_CPU &&
    fingerprintKey(a) === fingerprintKey(b);
}

/** One-line description, e.g. `AMD EPYC ×2, linux x86_64, Deno 2.9.6 / V8 15.0 (id 3f…)`. */
export function describeMachine(f: MachineFingerprint | null): string {
  if (!f) return "unknown machine (no fingerprint recorded)";
  return `${f.cpu} ×${f.cores}, ${f.os} ${f.arch}, Deno ${f.deno} / V8 ${f.v8} (id ${
    f.id.slice(0, 8)
  })`;
}

/** The fields where two fingerprints differ, e.g. `cpu: A → B; cores: 2 → 8`. */
export function machineDifference(a: MachineFingerprint, b: MachineFingerprint): string {
  return COMPARED_FIELDS.filter((k) => a[k] !== b[k]).map((k) => `${k}: ${a[k]} → ${b[k]}`)
    .join("; ");
}

/**
 * Validates a fingerprint read from JSON (`where` names the file and JSON path for the error).
 * The id is recomputed from the fields, so a hand-edited id cannot make two machines equal.
 */
export function parseFingerprint(v: unknown, where: string): MachineFingerprint {
  const fail = (what: string) =>
    new NavscopeError("bad_value", `${where}: ${what}`, {}, "a navscope-machine fingerprint");
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw fail("not an object");
  const o = v as Record<string, unknown>;
  for (const k of ["cpu", "os", "arch", "deno", "v8"] as const) {
    if (typeof o[k] !== "string") throw fail(`.${k} must be a string`);
  }
  if (typeof o.cores !== "number" || !Number.isInteger(o.cores) || o.cores < 0) {
    throw fail(".cores must be an integer ≥ 0");
  }
  return makeFingerprint({
    cpu: o.cpu as string,
    cores: o.cores,
    os: o.os as string,
    arch: o.arch as string,
    deno: o.deno as string,
    v8: o.v8 as string,
  });
}

/** File name of a run's fingerprint beside its logs. */
export const MACHINE_FILE = "machine.json";

/** Reads a `machine.json`; null when there is none, an error when it is malformed. */
export async function readMachineFile(path: string): Promise<MachineFingerprint | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new NavscopeError("io", `cannot read the machine fingerprint: ${(e as Error).message}`, {
      file: path,
    });
  }
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    throw new NavscopeError("bad_value", `${path}: not JSON: ${(e as Error).message}`);
  }
  return parseFingerprint(j, path);
}

/** Writes this machine's (or the given) fingerprint to `path` (temp file, then rename). */
export async function writeMachineFile(
  path: string,
  f: MachineFingerprint = machineFingerprint(),
): Promise<void> {
  const tmp = `${path}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(f, null, 2) + "\n");
  await Deno.rename(tmp, path);
}
