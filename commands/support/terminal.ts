/**
 * Output helpers shared by the analytics commands: one table model rendered as a terminal table
 * (cli-table3), CSV (RFC 4180), Markdown or JSON; colours only when stdout is a TTY and NO_COLOR
 * is unset; a progress line on stderr only when stderr is a TTY.
 *
 * Output goes through swappable sinks so tests can call a command's `run()` and capture exactly
 * what it printed ({@link captureOutput}).
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import Table from "cli-table3";
import { createColors } from "picocolors";
import { NavscopeError } from "../../src/errors.ts";
import { fileProblemWarnings, type JobEvent, type OnJobEvent } from "../../src/jobs/progress.ts";
import {
  alignOf,
  cell,
  csvField,
  displayWidth,
  fmtNum,
  renderCsv,
  renderMarkdown,
  type TableModel,
} from "../../reports/table_text.ts";

export { csvField, displayWidth, fmtNum, renderCsv, renderMarkdown, type TableModel };

/** Where text goes. */
export interface Sink {
  /** Writes text as is (no newline added). */
  write(text: string): void;
  /** True when the sink is an interactive terminal. */
  isTerminal: boolean;
}

const enc = new TextEncoder();

function fdSink(f: { writeSync(p: Uint8Array): number; isTerminal(): boolean }): Sink {
  let tty = false;
  try {
    tty = f.isTerminal();
  } catch {
    tty = false;
  }
  return {
    write(text: string) {
      const b = enc.encode(text);
      let off = 0;
      while (off < b.length) off += f.writeSync(b.subarray(off));
    },
    isTerminal: tty,
  };
}

/** The current stdout/stderr sinks. */
export const io: { out: Sink; err: Sink } = { out: fdSink(Deno.stdout), err: fdSink(Deno.stderr) };

/** Output captured by {@link captureOutput}. */
export interface Captured {
  /** Everything written to stdout. */
  out: string;
  /** Everything written to stderr. */
  err: string;
}

/**
 * Runs `fn` with stdout/stderr redirected to strings (non-terminal sinks, so no colour and no
 * progress). Restores the real sinks afterwards, also on error.
 */
export async function captureOutput<T>(
  fn: () => Promise<T>,
): Promise<{ value: T } & Captured> {
  const saved = { ...io };
  const c: Captured = { out: "", err: "" };
  io.out = { write: (t) => void (c.out += t), isTerminal: false };
  io.err = { write: (t) => void (c.err += t), isTerminal: false };
  try {
    const value = await fn();
    return { value, ...c };
  } finally {
    io.out = saved.out;
    io.err = saved.err;
  }
}

/** True when colours are allowed on stdout: a TTY and no NO_COLOR (https://no-color.org). */
export function colorEnabled(sink: Sink = io.out): boolean {
  if (!sink.isTerminal) return false;
  try {
    const v = Deno.env.get("NO_COLOR");
    return v === undefined || v === "";
  } catch {
    return true; // no env permission: a TTY without evidence of NO_COLOR
  }
}

/** Output format of a command. */
export type Format = "text" | "json" | "csv" | "md";

/** Renders tables for a terminal (cli-table3); bold heads and cyan titles when `color`. */
export function renderText(tables: TableModel[], color = false): string {
  const pc = createColors(color);
  const parts: string[] = [];
  for (const t of tables) {
    const tbl = new Table({
      head: t.head.map((h) => pc.bold(h)),
      style: { head: [], border: [], compact: true },
      colAligns: t.head.map((_, i) => alignOf(t, i)),
    });
    for (const r of t.rows) tbl.push(r.map(cell));
    let s = pc.cyan(pc.bold(t.title)) + "\n" + tbl.toString() + "\n";
    for (const n of t.notes ?? []) s += n + "\n";
    parts.push(s);
  }
  return parts.join("\n");
}

/** Stable JSON: two-space indent, trailing newline. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Tables (or JSON) in the chosen format as text; terminal tables in colour only with `color`. */
export function renderTables(
  format: Format,
  tables: TableModel[],
  json: unknown,
  color = false,
): string {
  switch (format) {
    case "json":
      return renderJson(json);
    case "csv":
      return renderCsv(tables);
    case "md":
      return renderMarkdown(tables);
    default:
      return renderText(tables, color);
  }
}

/** Prints tables (or JSON) in the chosen format to stdout. */
export function printTables(format: Format, tables: TableModel[], json: unknown): void {
  io.out.write(renderTables(format, tables, json, format === "text" && colorEnabled(io.out)));
}

/** Picks the output format from mutually exclusive `--json/--csv/--md` flags. */
export function formatFromFlags(v: { json?: boolean; csv?: boolean; md?: boolean }): Format {
  const set = (["json", "csv", "md"] as const).filter((k) => v[k]);
  if (set.length > 1) {
    throw new NavscopeError(
      "usage",
      `--${set.join(" and --")} are mutually exclusive`,
      {},
      "at most one of --json, --csv, --md",
    );
  }
  return set[0] ?? "text";
}

/**
 * A one-line progress bar on stderr, drawn only on a TTY and at most every 100 ms. `update`
 * takes the fraction done (0…1) and a short label; `done` erases the line.
 */
export class Progress {
  private last = 0;
  private drawn = false;
  private readonly on: boolean;

  /** @param enabled force on/off; default: stderr is a TTY. */
  constructor(enabled?: boolean) {
    this.on = enabled ?? io.err.isTerminal;
  }

  /** Redraws if enabled and 100 ms have passed (or `force`). */
  update(fraction: number, label: string, force = false): void {
    if (!this.on) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const f = Math.max(0, Math.min(1, fraction));
    const w = 24;
    const fill = Math.round(f * w);
    const bar = "#".repeat(fill) + "-".repeat(w - fill);
    io.err.write(`\r[${bar}] ${String(Math.floor(f * 100)).padStart(3)}% ${label}\x1b[K`);
    this.drawn = true;
  }

  /** Erases the progress line. */
  done(): void {
    if (this.on && this.drawn) io.err.write("\r\x1b[K");
    this.drawn = false;
  }
}

/**
 * Parses command flags with `node:util` parseArgs (strict, positionals allowed); unknown flags,
 * missing values and bad types become a `usage` NavscopeError naming the command and flag.
 */
export function parseFlags<O extends ParseArgsConfig["options"]>(
  cmd: string,
  args: string[],
  options: O,
) {
  try {
    return parseArgs({
      args: joinDashValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    const msg = (e as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    throw new NavscopeError("usage", `${cmd}: ${msg} (see navscope ${cmd} --help)`);
  }
}

/**
 * `--workers -1` → `--workers=-1` when `--workers` takes a value and `-1` is not a flag, so the
 * command's own check reports the bad value (node's parseArgs would call it "ambiguous").
 */
function joinDashValues(args: string[], options: ParseArgsConfig["options"]): string[] {
  const out: string[] = [];
  const known = (a: string) => {
    if (a === "--" || a === "-h" || a === "--help") return true;
    const name = a.startsWith("--") ? a.slice(2).split("=")[0] : null;
    if (name !== null) return options !== undefined && Object.hasOwn(options, name);
    return options !== undefined &&
      Object.values(options).some((o) => o.short !== undefined && `-${o.short}` === a);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i], next = args[i + 1];
    const name = a.startsWith("--") && !a.includes("=") ? a.slice(2) : null;
    const opt = name !== null && options !== undefined && Object.hasOwn(options, name)
      ? options[name]
      : undefined;
    if (opt?.type === "string" && next !== undefined && next.startsWith("-") && !known(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Prints the file problems of a log read as warnings on stderr (src/jobs/progress.ts). */
export function warnFileProblems(cmd: string, problems: Array<{ file: string; error: string }>) {
  for (const text of fileProblemWarnings(problems)) {
    io.err.write(`navscope ${cmd}: warning: ${text}\n`);
  }
}

/** Bundle warnings (missing volumes, unreadable config …) on stderr, one line each. */
export function warnBundles(cmd: string, parse: { bundles: readonly { warnings: string[] }[] }) {
  for (const b of parse.bundles) {
    for (const w of b.warnings) io.err.write(`navscope ${cmd}: warning: ${w}\n`);
  }
}

/**
 * The printer of a job's events (src/jobs/progress.ts) for command `cmd`: steps as
 * `navscope CMD: …` lines (or with `stepPrefix`), warnings as `navscope CMD: warning: …` (the
 * step's name when the event carries one), fractions on the progress bar.
 */
export function jobPrinter(
  cmd: string,
  progress?: Progress,
  stepPrefix = `navscope ${cmd}: `,
): OnJobEvent {
  return (e: JobEvent) => {
    if (e.kind === "fraction") {
      progress?.update(e.fraction, e.label, e.force);
      return;
    }
    progress?.done();
    if (e.kind === "step") io.err.write(`${stepPrefix}${e.text}\n`);
    else io.err.write(`navscope ${e.from ?? cmd}: warning: ${e.text}\n`);
  };
}
