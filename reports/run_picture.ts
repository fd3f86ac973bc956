/**
 * The picture of one failed navigation run (triage, issue 53): the planned paths, the observed
 * track, the zipline hops, where the run ended and how far off the route, on a plain grid in
 * zone coordinates (px) — with a title, the cause and its message, a legend of every layer drawn
 * and a scale bar. Plain SVG; rendering it to PNG is the pictures' job (reports/svg_png.ts).
 * @module
 */

type P = [number, number];

/** Everything the picture of one failed run shows (plain data, built by reports/triage_runs.ts). */
export interface RunPictureData {
  /** Run id, e.g. `run-01`. */
  id: string;
  /** Title: run, node, zone, cause. */
  title: string;
  /** Zone drawn (navmesh zone of where the run ended), "" when unknown. */
  zone: string;
  /** Planned paths from the log (`NAVMESH generated path.`), by zone. */
  plannedPaths: { zone: string; points: [number, number][] }[];
  /** Observed track (`status=0` fixes), by navmesh zone. */
  track: { zone: string; points: [number, number][] }[];
  /** Zipline hops: mount, landing, outcome. */
  hops: { mount: [number, number] | null; landing: [number, number] | null; outcome: string }[];
  /** Last valid fix, null when none. */
  end: [number, number] | null;
  /** Distance of `end` to the last planned path of the zone, px; null when unknown. */
  offRoutePx: number | null;
  /** Terminal cause (`offroute:wedge_timeout`). */
  cause: string;
  /** The line that named it, described. */
  message: string;
}

const W = 720, H = 540, PAD = 48, TOP = 64, BOTTOM = 96;
const COLORS = {
  planned: "#2563eb",
  track: "#ea580c",
  hop: "#7c3aed",
  end: "#dc2626",
  grid: "#e5e7eb",
  text: "#111827",
};

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const r1 = (v: number) => Math.round(v * 10) / 10;

function nearestOn(p: P, line: readonly P[]): P | null {
  let best: P | null = null, bd = Infinity;
  for (let i = 0; i < line.length; i++) {
    const a = line[i], b = line[Math.min(i + 1, line.length - 1)];
    const dx = b[0] - a[0], dy = b[1] - a[1], L = dx * dx + dy * dy;
    let t = L > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L : 0;
    t = Math.max(0, Math.min(1, t));
    const q: P = [a[0] + t * dx, a[1] + t * dy];
    const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
    if (d < bd) [bd, best] = [d, q];
  }
  return best;
}

/** A 1-2-5 step near `span / 6`. */
function niceStep(span: number): number {
  const raw = Math.max(span / 6, 1e-6), e = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * e >= raw) return m * e;
  return 10 * e;
}

/** The SVG of one failed run (see {@link RunPictureData}). */
export function runPictureSvg(data: RunPictureData): string {
  const inZone = (z: string) => data.zone === "" || z === data.zone;
  const planned = data.plannedPaths.filter((p) => inZone(p.zone));
  const track = data.track.filter((t) => inZone(t.zone));
  const pts: P[] = [
    ...planned.flatMap((p) => p.points),
    ...track.flatMap((t) => t.points),
    ...data.hops.flatMap((h) => [h.mount, h.landing].filter((x): x is P => x !== null)),
    ...(data.end ? [data.end] : []),
  ];
  let x0 = Math.min(...pts.map((p) => p[0])), x1 = Math.max(...pts.map((p) => p[0]));
  let y0 = Math.min(...pts.map((p) => p[1])), y1 = Math.max(...pts.map((p) => p[1]));
  if (pts.length === 0) [x0, x1, y0, y1] = [0, 100, 0, 100];
  const span = Math.max(x1 - x0, y1 - y0, 20);
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, half = span * 0.55;
  const drawW = W - 2 * PAD, drawH = H - TOP - BOTTOM;
  const k = Math.min(drawW, drawH) / (2 * half);
  const ox = PAD + drawW / 2, oy = TOP + drawH / 2;
  const X = (x: number) => r1(ox + (x - cx) * k), Y = (y: number) => r1(oy + (y - cy) * k);
  const poly = (p: readonly P[]) => p.map((q) => `${X(q[0])},${Y(q[1])}`).join(" ");
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
  ];
  // Grid in zone coordinates (no pack: a plain grid, labelled in px).
  const step = niceStep(2 * half);
  const gx0 = cx - drawW / 2 / k, gx1 = cx + drawW / 2 / k;
  const gy0 = cy - drawH / 2 / k, gy1 = cy + drawH / 2 / k;
  for (let g = Math.ceil(gx0 / step) * step; g <= gx1; g += step) {
    out.push(
      `<line x1="${X(g)}" y1="${TOP}" x2="${X(g)}" y2="${TOP + drawH}" stroke="${COLORS.grid}"/>`,
      `<text x="${X(g) + 2}" y="${TOP + drawH - 2}" font-size="9" fill="#6b7280">${r1(g)}</text>`,
    );
  }
  for (let g = Math.ceil(gy0 / step) * step; g <= gy1; g += step) {
    out.push(
      `<line x1="${PAD}" y1="${Y(g)}" x2="${PAD + drawW}" y2="${Y(g)}" stroke="${COLORS.grid}"/>`,
      `<text x="${PAD + 2}" y="${Y(g) - 2}" font-size="9" fill="#6b7280">${r1(g)}</text>`,
    );
  }
  const legend: Array<[string, string]> = [];
  for (const p of planned) {
    out.push(
      `<polyline points="${
        poly(p.points)
      }" fill="none" stroke="${COLORS.planned}" stroke-width="3" opacity="0.8"/>`,
    );
  }
  if (planned.length) legend.push([COLORS.planned, "planned path (from the log)"]);
  for (const t of track) {
    out.push(
      `<polyline points="${
        poly(t.points)
      }" fill="none" stroke="${COLORS.track}" stroke-width="2" stroke-dasharray="4 2"/>`,
    );
  }
  if (track.length) legend.push([COLORS.track, "observed track (status=0 fixes)"]);
  for (const h of data.hops) {
    if (h.mount && h.landing) {
      out.push(
        `<line x1="${X(h.mount[0])}" y1="${Y(h.mount[1])}" x2="${X(h.landing[0])}" y2="${
          Y(h.landing[1])
        }" stroke="${COLORS.hop}" stroke-width="2" stroke-dasharray="8 4"/>`,
      );
    }
    if (h.mount) {
      out.push(
        `<circle cx="${X(h.mount[0])}" cy="${Y(h.mount[1])}" r="5" fill="${COLORS.hop}"/>`,
      );
    }
    if (h.landing) {
      out.push(
        `<rect x="${X(h.landing[0]) - 5}" y="${
          Y(h.landing[1]) - 5
        }" width="10" height="10" fill="none" stroke="${COLORS.hop}" stroke-width="2"/>`,
        `<text x="${X(h.landing[0]) + 8}" y="${
          Y(h.landing[1]) + 4
        }" font-size="11" fill="${COLORS.hop}">${esc(h.outcome)}</text>`,
      );
    }
  }
  if (data.hops.length) legend.push([COLORS.hop, "zipline hop: mount ● → landing ■"]);
  if (data.end) {
    const [ex, ey] = [X(data.end[0]), Y(data.end[1])];
    out.push(
      `<path d="M${ex - 6},${ey - 6}L${ex + 6},${ey + 6}M${ex - 6},${ey + 6}L${ex + 6},${
        ey - 6
      }" stroke="${COLORS.end}" stroke-width="3"/>`,
    );
    const last = planned[planned.length - 1];
    const q = last ? nearestOn(data.end, last.points) : null;
    if (q && data.offRoutePx !== null) {
      out.push(
        `<line x1="${ex}" y1="${ey}" x2="${X(q[0])}" y2="${
          Y(q[1])
        }" stroke="${COLORS.end}" stroke-dasharray="3 3"/>`,
        `<text x="${ex + 8}" y="${ey - 8}" font-size="12" fill="${COLORS.end}">${
          data.offRoutePx.toFixed(1)
        } px off the route</text>`,
      );
    }
    legend.push([COLORS.end, "where the run ended (last fix)"]);
  }
  // Title, cause and message.
  out.push(
    `<text x="${PAD}" y="22" font-size="15" font-weight="bold" fill="${COLORS.text}">${
      esc(data.title)
    }</text>`,
    `<text x="${PAD}" y="40" font-size="12" fill="${COLORS.text}">cause: ${esc(data.cause)}</text>`,
    `<text x="${PAD}" y="56" font-size="11" fill="#374151">${esc(data.message)}</text>`,
  );
  // Legend (every layer drawn) and scale bar.
  let ly = H - BOTTOM + 18;
  for (const [c, label] of legend) {
    out.push(
      `<rect x="${W / 2}" y="${ly - 9}" width="14" height="10" fill="${c}"/>`,
      `<text x="${W / 2 + 20}" y="${ly}" font-size="11" fill="${COLORS.text}">${esc(label)}</text>`,
    );
    ly += 16;
  }
  const bar = niceStep(2 * half / 2);
  const by = H - 30;
  out.push(
    `<line x1="${PAD}" y1="${by}" x2="${
      r1(PAD + bar * k)
    }" y2="${by}" stroke="${COLORS.text}" stroke-width="3"/>`,
    `<text x="${PAD}" y="${by - 6}" font-size="11" fill="${COLORS.text}">${r1(bar)} px</text>`,
    `<text x="${PAD}" y="${H - 10}" font-size="10" fill="#6b7280">zone ${
      esc(data.zone || "?")
    }: plain grid in zone coordinates (px), no pack drawn</text>`,
    "</svg>",
  );
  return out.join("\n") + "\n";
}
