/**
 * A small RGBA canvas with a PNG encoder (no native dependencies: zlib from node:zlib via the
 * codec layer, CRC-32 computed here) and a 3×5 bitmap font, so pictures can be written as PNG
 * and embedded into SVG. Deterministic: same pixels → same bytes.
 * @module
 */
import { deflate } from "../src/codec/mod.ts";

/** An RGBA image, row-major, 4 bytes per pixel. */
export class Canvas {
  /** Pixel bytes. */
  readonly rgba: Uint8Array;

  constructor(
    /** Width, pixels. */
    readonly width: number,
    /** Height, pixels. */
    readonly height: number,
    background: number = 0xffffffff,
  ) {
    this.rgba = new Uint8Array(width * height * 4);
    const dv = new DataView(this.rgba.buffer);
    for (let i = 0; i < width * height; i++) dv.setUint32(4 * i, background >>> 0);
  }

  /** Sets pixel (x, y) to 0xRRGGBBAA, blending by its alpha; ignores points outside. */
  set(x: number, y: number, rgba: number): void {
    x = Math.floor(x);
    y = Math.floor(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const o = 4 * (y * this.width + x), a = (rgba & 0xff) / 255;
    const p = this.rgba;
    p[o] = Math.round(p[o] * (1 - a) + ((rgba >>> 24) & 0xff) * a);
    p[o + 1] = Math.round(p[o + 1] * (1 - a) + ((rgba >>> 16) & 0xff) * a);
    p[o + 2] = Math.round(p[o + 2] * (1 - a) + ((rgba >>> 8) & 0xff) * a);
    p[o + 3] = 255;
  }

  /** Filled rectangle. */
  fillRect(x0: number, y0: number, w: number, h: number, rgba: number): void {
    for (let y = Math.floor(y0); y < y0 + h; y++) {
      for (let x = Math.floor(x0); x < x0 + w; x++) this.set(x, y, rgba);
    }
  }

  /** Line (Bresenham). */
  line(x0: number, y0: number, x1: number, y1: number, rgba: number): void {
    x0 = Math.round(x0);
    y0 = Math.round(y0);
    x1 = Math.round(x1);
    y1 = Math.round(y1);
    const dx = Math.abs(x1 - x0), dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      this.set(x0, y0, rgba);
      if (x0 === x1 && y0 === y1) return;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  /** Circle outline of radius r. */
  circle(cx: number, cy: number, r: number, rgba: number): void {
    const n = Math.max(12, Math.ceil(r * 8));
    for (let k = 0; k < n; k++) {
      const a = (2 * Math.PI * k) / n;
      this.set(cx + r * Math.cos(a), cy + r * Math.sin(a), rgba);
    }
  }

  /** Text in the 3×5 font at (x, y) (top-left), each font pixel `s` image pixels. */
  text(x: number, y: number, s: string, rgba: number, scale = 1, halo?: number): void {
    const draw = (ox: number, oy: number, c: number) => {
      let cx = x + ox;
      for (const ch of s.toUpperCase()) {
        const g = GLYPHS[ch] ?? GLYPHS["?"];
        for (let r = 0; r < 5; r++) {
          for (let col = 0; col < 3; col++) {
            if (g[r] & (4 >> col)) {
              this.fillRect(cx + col * scale, y + oy + r * scale, scale, scale, c);
            }
          }
        }
        cx += 4 * scale;
      }
    };
    if (halo !== undefined) {
      for (const [dx, dy] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) draw(dx, dy, halo);
    }
    draw(0, 0, rgba);
  }

  /** PNG bytes (8-bit RGBA, filter 0 on every row). */
  png(): Uint8Array {
    return encodePng(this.width, this.height, this.rgba);
  }
}

/** Width in pixels of `s` in the 3×5 font at `scale`. */
export function textWidth(s: string, scale = 1): number {
  return s.length * 4 * scale - scale;
}

// 3×5 glyphs: one row per entry, bit 2 = left column.
const GLYPHS: Record<string, number[]> = {
  "A": [2, 5, 7, 5, 5],
  "B": [6, 5, 6, 5, 6],
  "C": [3, 4, 4, 4, 3],
  "D": [6, 5, 5, 5, 6],
  "E": [7, 4, 6, 4, 7],
  "F": [7, 4, 6, 4, 4],
  "G": [3, 4, 5, 5, 3],
  "H": [5, 5, 7, 5, 5],
  "I": [7, 2, 2, 2, 7],
  "J": [1, 1, 1, 5, 2],
  "K": [5, 5, 6, 5, 5],
  "L": [4, 4, 4, 4, 7],
  "M": [5, 7, 7, 5, 5],
  "N": [6, 5, 5, 5, 5],
  "O": [2, 5, 5, 5, 2],
  "P": [6, 5, 6, 4, 4],
  "Q": [2, 5, 5, 6, 3],
  "R": [6, 5, 6, 5, 5],
  "S": [3, 4, 2, 1, 6],
  "T": [7, 2, 2, 2, 2],
  "U": [5, 5, 5, 5, 7],
  "V": [5, 5, 5, 5, 2],
  "W": [5, 5, 7, 7, 5],
  "X": [5, 5, 2, 5, 5],
  "Y": [5, 5, 2, 2, 2],
  "Z": [7, 1, 2, 4, 7],
  "0": [7, 5, 5, 5, 7],
  "1": [2, 6, 2, 2, 7],
  "2": [6, 1, 2, 4, 7],
  "3": [6, 1, 2, 1, 6],
  "4": [5, 5, 7, 1, 1],
  "5": [7, 4, 6, 1, 6],
  "6": [3, 4, 7, 5, 7],
  "7": [7, 1, 1, 2, 2],
  "8": [7, 5, 7, 5, 7],
  "9": [7, 5, 7, 1, 6],
  "_": [0, 0, 0, 0, 7],
  "-": [0, 0, 7, 0, 0],
  ".": [0, 0, 0, 0, 2],
  ":": [0, 2, 0, 2, 0],
  "/": [1, 1, 2, 4, 4],
  "(": [1, 2, 2, 2, 1],
  ")": [4, 2, 2, 2, 4],
  "+": [0, 2, 7, 2, 0],
  "=": [0, 7, 0, 7, 0],
  " ": [0, 0, 0, 0, 0],
  "?": [6, 1, 2, 0, 2],
};

let crcTable: Uint32Array | null = null;

/** CRC-32 (ISO-HDLC, as PNG uses). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** Encodes 8-bit RGBA pixels as PNG. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const raw = new Uint8Array(height * (4 * width + 1));
  for (let y = 0; y < height; y++) {
    raw.set(rgba.subarray(4 * width * y, 4 * width * (y + 1)), y * (4 * width + 1) + 1);
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunks = [
    chunk("IHDR", ihdr),
    chunk("IDAT", deflate(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  const out = new Uint8Array(8 + chunks.reduce((s, c) => s + c.length, 0));
  out.set(sig);
  let o = 8;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Base64 of bytes (for data: URIs). */
export function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}
