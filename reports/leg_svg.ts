/**
 * One plan as an SVG (`navscope plan … --svg`; reused by the HTML report's drill-down): the window
 * crop as an embedded PNG (walkable core, core without walk, non-core layer cells, clearance
 * shading), blocker segments, no-go rings and discs, and the stage point lists — topology path,
 * taut chain, pulled, assembled and final points — with waypoints, drops and the gap markers.
 * y grows upwards in the world, so the picture flips it.
 * @module
 */

import { base64, Canvas, encodePng } from "./svg_png.ts";
import type { LegPicture } from "../src/plan/diagnostics/picture.ts";
import type { Pt } from "../src/plan/types.ts";

/** Pixels per cell of the background. */
const kScale = 4;

/** Colours of the cell classes (0xRRGGBBAA). */
const CELL_RGBA = [0xf4f4f4ff, 0xc9c9c9ff, 0xffffffff, 0x8f8f8fff];

/** Renders the picture; `title` goes into the SVG's <title>. */
export function legSvg(p: LegPicture, title = "navscope plan"): string {
  const W = p.nx * kScale, H = p.ny * kScale;
  const cv = new Canvas(p.nx, p.ny);
  for (let y = 0; y < p.ny; y++) {
    for (let x = 0; x < p.nx; x++) {
      const k = y * p.nx + x, cls = p.cells[k];
      let rgba = CELL_RGBA[cls] ?? CELL_RGBA[0];
      if (cls === 2) {
        // Clearance shading on walkable cells: white at 12 px, green near walls.
        const t = Math.min(1, p.clearance[k] / 192);
        const rb = Math.round(190 + 65 * t), g = Math.round(225 + 30 * t);
        rgba = ((rb << 24) | (g << 16) | (rb << 8) | 0xff) >>> 0;
      }
      cv.set(x, p.ny - 1 - y, rgba);
    }
  }
  const png = base64(encodePng(cv.width, cv.height, cv.rgba));
  // px → SVG coordinates.
  const X = (x: number) => ((x / 0.25 - p.x0) * kScale).toFixed(2);
  const Y = (y: number) => ((p.ny - (y / 0.25 - p.y0)) * kScale).toFixed(2);
  const poly = (pts: readonly Pt[], cls: string) =>
    pts.length < 2
      ? ""
      : `<polyline class="${cls}" points="${pts.map((q) => `${X(q[0])},${Y(q[1])}`).join(" ")}"/>`;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    `<title>${escapeXml(title)}</title>`,
    `<style>.blk{stroke:#222;stroke-width:1}.topo{stroke:#999;stroke-width:3;fill:none;opacity:.6}` +
      `.taut{stroke:#f90;stroke-width:1.5;fill:none}.pulled{stroke:#36c;stroke-width:1.5;fill:none;stroke-dasharray:4 3}` +
      `.asm{stroke:#93c;stroke-width:1;fill:none}.final{stroke:#d22;stroke-width:2;fill:none}` +
      `.nogo{fill:#f66;fill-opacity:.25;stroke:#c00}.gap{stroke:#c0c;stroke-width:2;fill:none}</style>`,
    `<image width="${W}" height="${H}" preserveAspectRatio="none" style="image-rendering:pixelated" href="data:image/png;base64,${png}"/>`,
  );
  for (let i = 0; i < p.blockers.length; i += 4) {
    const b = p.blockers;
    parts.push(
      `<line class="blk" x1="${X(b[i])}" y1="${Y(b[i + 1])}" x2="${X(b[i + 2])}" y2="${
        Y(b[i + 3])
      }"/>`,
    );
  }
  for (const r of p.rings) {
    parts.push(
      `<polygon class="nogo" points="${r.map((q) => `${X(q[0])},${Y(q[1])}`).join(" ")}"/>`,
    );
  }
  for (const d of p.discs) {
    parts.push(`<circle class="nogo" cx="${X(d.x)}" cy="${Y(d.y)}" r="${(d.r / 0.25) * kScale}"/>`);
  }
  parts.push(
    poly(p.topology, "topo"),
    poly(p.taut, "taut"),
    poly(p.pulled, "pulled"),
    poly(p.assembled, "asm"),
    poly(p.points, "final"),
  );
  for (const i of p.waypoints) {
    const q = p.points[i];
    if (q) parts.push(`<circle cx="${X(q[0])}" cy="${Y(q[1])}" r="4" fill="none" stroke="#d22"/>`);
  }
  for (const i of p.drops) {
    const q = p.points[i];
    if (q) {
      parts.push(
        `<rect x="${+X(q[0]) - 4}" y="${+Y(q[1]) - 4}" width="8" height="8" fill="#06c"/>`,
      );
    }
  }
  if (p.gap) {
    const g = p.gap;
    parts.push(
      `<circle class="gap" cx="${X(g.start[0])}" cy="${Y(g.start[1])}" r="6"/>`,
      `<circle class="gap" cx="${X(g.goal[0])}" cy="${Y(g.goal[1])}" r="6"/>`,
      `<line class="gap" x1="${X(g.start[0])}" y1="${Y(g.start[1])}" x2="${X(g.goal[0])}" y2="${
        Y(g.goal[1])
      }"/>`,
      `<text x="${X((g.start[0] + g.goal[0]) / 2)}" y="${
        Y((g.start[1] + g.goal[1]) / 2)
      }" font-size="12" fill="#c0c">gap ${g.distance.toFixed(2)} px</text>`,
    );
  }
  parts.push(
    `<circle cx="${X(p.start[0])}" cy="${Y(p.start[1])}" r="5" fill="#2a2"/>`,
    `<circle cx="${X(p.goal[0])}" cy="${Y(p.goal[1])}" r="5" fill="#a22"/>`,
    "</svg>",
  );
  return parts.filter((s) => s !== "").join("\n") + "\n";
}

function escapeXml(s: string): string {
  return s.replace(
    /[<>&"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!,
  );
}
