/**
 * Flag parsers and progress labels shared by several commands (replay, nightly, stats, report,
 * triage; bake and gen): one parser per flag, so `--jobs` reads and fails alike everywhere.
 * @module
 */
import { NavscopeError } from "../../src/errors.ts";
import { kGateCells } from "../../src/plan/window/window_gate.ts";
import type { BakeProgress } from "../../src/world/bake_world.ts";

/** Parses `--jobs` (default: cores). */
export function jobsFlag(v: string | undefined, cmd: string): number {
  if (v === undefined) return Math.max(1, navigator.hardwareConcurrency || 1);
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    throw new NavscopeError(
      "usage",
      `${cmd}: --jobs needs an integer 1..256, got ${
        JSON.stringify(v)
      } (see navscope ${cmd} --help)`,
    );
  }
  return n;
}

/**
 * Parses `--window-gate` (cells, or "off"): the size from which windows of parallel workers run
 * one at a time (src/plan/window/window_gate.ts). Default kGateCells.
 */
export function windowGateFlag(v: string | undefined, cmd: string): number {
  if (v === undefined) return kGateCells;
  if (v === "off") return Number.POSITIVE_INFINITY;
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || !Number.isSafeInteger(n) || n < 1) {
    throw new NavscopeError(
      "usage",
      `${cmd}: --window-gate needs a cell count ≥ 1 or "off", got ${
        JSON.stringify(v)
      } (see navscope ${cmd} --help)`,
    );
  }
  return n;
}

/** Progress bar fraction and label of a bake: zones in order, three tile stages per zone. */
export function bakeProgress(p: BakeProgress): [number, string] {
  const stage = p.stage === "pass1" ? 0 : p.stage === "pass2" ? 1 : 2;
  const f = (p.zoneIndex + (stage * p.total + p.done) / (3 * Math.max(1, p.total))) /
    Math.max(1, p.zones);
  const name = p.stage === "pass1" ? "spans" : p.stage === "pass2" ? "fields" : "encode";
  return [
    f,
    `zone ${p.zone} ${p.zoneIndex + 1}/${p.zones}: ${name} ${p.done}/${p.total} tiles, ` +
    `${p.records} records`,
  ];
}
