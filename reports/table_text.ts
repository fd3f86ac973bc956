/**
 * Tables as plain text for files and comments: one table model (title, heads, rows, notes)
 * rendered as GitHub Markdown or CSV, numbers formatted once ({@link fmtNum}). Shared by the
 * renderers (reports/), the workflows (src/jobs/) and the commands' terminal output
 * (commands/support/terminal.ts, which adds the cli-table3 terminal rendering).
 * @module
 */

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

/** One cell as printed: numbers by {@link fmtNum}, text as is. */
export function cell(v: string | number | null): string {
  return typeof v === "number" || v === null ? fmtNum(v) : v;
}

/** A column's alignment: as declared, else numbers right and text left. */
export function alignOf(t: TableModel, i: number): "left" | "right" {
  if (t.align?.[i]) return t.align[i];
  const v = t.rows[0]?.[i];
  return typeof v === "number" || v === null ? "right" : "left";
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
