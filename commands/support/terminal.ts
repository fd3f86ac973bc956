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

/** A table to print: a title, column heads and rows of cells. */
export interface TableModel {
  /** Title printed above the table (a `# title` line in CSV, a `###` heading in Markdown). */
  title: string;
  /** Column heads. */
  head: string[];
  /** Rows; numbers are printed with {@link fmtNum}. */
  rows: Array<Array<string | number | null>>;
  /** Per-column alignment; default: numbers right, text left. */
  align?: Array<"left" | "right">;
  /** Lines printed after the table (notes, shares). */
  notes?: string[];
}

/** Output format of a command. */
export type Format = "text" | "json" | "csv" | "md";

/**
 * Formats a number for tables: up to 2 decimals below 10, 1 decimal below 1000, integers above,
 * trailing zeros dropped; null/NaN print as "-". Deterministic (no locale).
 */
export function fmtNum(v: number | null): string {
  if (v === null || Number.isNaN(v)) return "-";
  const a = Math.abs(v);
  const d = a < 10 ? 2 : a < 1000 ? 1 : 0;
  const s = String(Number(v.toFixed(d)));
  return s === "-0" ? "0" : s;
}

function cell(v: string | number | null): string {
  return typeof v === "number" || v === null ? fmtNum(v) : v;
}

function alignOf(t: TableModel, i: number): "left" | "right" {
  if (t.align?.[i]) return t.align[i];
  const v = t.rows[0]?.[i];
  return typeof v === "number" || v === null ? "right" : "left";
}

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

/** One CSV field (RFC 4180: quote when it has a comma, quote, CR or LF). */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * Renders tables as CSV. Each table is a `# title` line, a header row and its rows; tables are
 * separated by one empty line. Notes become `# note` lines. Lines end with `\n`.
 */
export function renderCsv(tables: TableModel[]): string {
  return tables.map((t) => {
    const lines = [`# ${t.title}`, t.head.map(csvField).join(",")];
    for (const r of t.rows) lines.push(r.map((v) => csvField(cell(v))).join(","));
    for (const n of t.notes ?? []) lines.push(`# ${n}`);
    return lines.join("\n") + "\n";
  }).join("\n");
}

function mdCell(s: string): string {
  return s.replaceAll("\\", "\\\\").replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * Display width of a string in a monospace font: East Asian wide/fullwidth characters count 2
 * (the same rule `deno fmt` uses to pad Markdown tables, so golden .md files stay fmt-clean).
 */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    w += (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
        (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
        (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
        (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd)
      ? 2
      : 1;
  }
  return w;
}

function pad(s: string, w: number, right: boolean): string {
  const fill = " ".repeat(Math.max(0, w - displayWidth(s)));
  return right ? fill + s : s + fill;
}

/**
 * Renders tables as GitHub Markdown (a `###` heading, a pipe table padded to column width,
 * notes as paragraphs).
 */
export function renderMarkdown(tables: TableModel[]): string {
  return tables.map((t) => {
    const head = t.head.map(mdCell);
    const body = t.rows.map((r) => r.map((v) => mdCell(cell(v))));
    const right = t.head.map((_, i) => alignOf(t, i) === "right");
    const w = head.map((h, i) =>
      Math.max(3, displayWidth(h), ...body.map((r) => displayWidth(r[i] ?? "")))
    );
    const row = (cells: string[]) =>
      `| ${cells.map((c, i) => pad(c, w[i], right[i])).join(" | ")} |`;
    const lines = [`### ${mdCell(t.title)}`, "", row(head)];
    lines.push(
      `| ${w.map((n, i) => (right[i] ? "-".repeat(n - 1) + ":" : "-".repeat(n))).join(" | ")} |`,
    );
    for (const r of body) lines.push(row(r));
    // One paragraph per note, so `deno fmt` never re-wraps them (notes stay < 100 columns).
    for (const n of t.notes ?? []) lines.push("", mdCell(n));
    return lines.join("\n") + "\n";
  }).join("\n");
}

/** Stable JSON: two-space indent, trailing newline. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Prints tables (or JSON) in the chosen format to stdout. */
export function printTables(format: Format, tables: TableModel[], json: unknown): void {
  switch (format) {
    case "json":
      io.out.write(renderJson(json));
      return;
    case "csv":
      io.out.write(renderCsv(tables));
      return;
    case "md":
      io.out.write(renderMarkdown(tables));
      return;
    default:
      io.out.write(renderText(tables, colorEnabled(io.out)));
  }
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

/** Prints `navscope CMD: warning: …` lines for unreadable files / broken gzip on stderr. */
export function warnFileProblems(cmd: string, problems: Array<{ file: string; error: string }>) {
  for (const p of problems) {
    // A corrupt .gz is read up to the damage ("…; read up to line N"): not skipped.
    const partly = /; read up to line [1-9]|dropped \(a crash|not valid UTF-8/.test(p.error);
    io.err.write(
      `navscope ${cmd}: warning: ${partly ? "partly read" : "skipped"} ${p.file}: ${p.error}\n`,
    );
  }
}

/** Bundle warnings (missing volumes, unreadable config …) on stderr, one line each. */
export function warnBundles(cmd: string, parse: { bundles: readonly { warnings: string[] }[] }) {
  for (const b of parse.bundles) {
    for (const w of b.warnings) io.err.write(`navscope ${cmd}: warning: ${w}\n`);
  }
}
