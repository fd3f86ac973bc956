/**
 * The spans of a picture's crop cells (`LegPicture.cellSpans`), packed small for the HTML
 * report's hover read-out: height, region, flags and clearance of every span of the hovered
 * cell. The page unpacks it with the browser's own `DecompressionStream("gzip")` (no library,
 * no request).
 *
 * Layout before gzip (little-endian, every column aligned to its element size), S spans, C cells:
 * - `h`      Int32 × S: span height in cm, each the difference to the span before (0 before the
 *            first), so flat ground packs to runs of zeros;
 * - `region` Int32 × S: region id (−1: another region than the searched one), difference coded
 *            the same way;
 * - `count`  Uint16 × C: spans per cell (row-major, y up, as the picture);
 * - `clr`    Uint16 × S: clearance in 1/100 px plus 1; 0 when unknown (another region's span);
 * - `bits`   Uint8 × S: span flags (Dead 1, Walk 2, Core 4, Ghost 8) | flood bits << 4 (bit 4
 *            reached from the start, bit 5 reaches the goal).
 * @module
 */
import { base64 } from "./svg_png.ts";
import { gunzip, gzip } from "../src/codec/gzip.ts";
import type { LegPicture } from "../src/plan/diagnostics/picture.ts";
import type { PackedSpans } from "./report_data.ts";

/** One unpacked span. */
export interface HoverSpan {
  /** Height, m (cm precision). */
  h: number;
  region: number;
  flags: number;
  /** Clearance, px, null when unknown. */
  clearance: number | null;
  flood: number;
}

/** Packs the crop cells' spans of a picture. */
export function packSpans(p: LegPicture): PackedSpans {
  const cs = p.cellSpans, C = p.nx * p.ny;
  const S = cs.start[C] - cs.start[0];
  const buf = new ArrayBuffer(S * 11 + C * 2);
  const h = new Int32Array(buf, 0, S), region = new Int32Array(buf, 4 * S, S);
  const count = new Uint16Array(buf, 8 * S, C), clr = new Uint16Array(buf, 8 * S + 2 * C, S);
  const bits = new Uint8Array(buf, 10 * S + 2 * C, S);
  let ph = 0, pr = 0, j = 0;
  for (let k = 0; k < C; k++) {
    const a = cs.start[k], b = cs.start[k + 1];
    if (b - a > 0xffff) throw new RangeError(`cell ${k} has ${b - a} spans (more than 65 535)`);
    count[k] = b - a;
    for (let i = a; i < b; i++, j++) {
      const hc = Math.round(cs.h[i] * 100);
      h[j] = hc - ph;
      ph = hc;
      region[j] = cs.region[i] - pr;
      pr = cs.region[i];
      const c = cs.clearance[i];
      clr[j] = c >= 0 ? Math.min(0xfffe, Math.round(c * 100)) + 1 : 0;
      bits[j] = (cs.flags[i] & 0x0f) | ((cs.flood[i] & 3) << 4);
    }
  }
  return {
    x0: p.x0,
    y0: p.y0,
    nx: p.nx,
    ny: p.ny,
    spans: S,
    gz: base64(gzip(new Uint8Array(buf))),
  };
}

/** Unpacks {@link packSpans}' data: the spans of every crop cell (row-major, y up). */
export async function unpackSpans(d: PackedSpans): Promise<HoverSpan[][]> {
  const raw = await gunzip(Uint8Array.from(atob(d.gz), (c) => c.charCodeAt(0)));
  const S = d.spans, C = d.nx * d.ny;
  const buf = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
  const h = new Int32Array(buf, 0, S), region = new Int32Array(buf, 4 * S, S);
  const count = new Uint16Array(buf, 8 * S, C), clr = new Uint16Array(buf, 8 * S + 2 * C, S);
  const bits = new Uint8Array(buf, 10 * S + 2 * C, S);
  const out: HoverSpan[][] = [];
  let ph = 0, pr = 0, j = 0;
  for (let k = 0; k < C; k++) {
    const cell: HoverSpan[] = [];
    for (let n = 0; n < count[k]; n++, j++) {
      ph += h[j];
      pr += region[j];
      cell.push({
        h: ph / 100,
        region: pr,
        flags: bits[j] & 0x0f,
        clearance: clr[j] ? (clr[j] - 1) / 100 : null,
        flood: bits[j] >> 4,
      });
    }
    out.push(cell);
  }
  return out;
}
