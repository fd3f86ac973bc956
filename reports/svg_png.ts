/**
 * A small RGBA raster with a PNG encoder (no native dependencies: zlib from node:zlib via the
 * codec layer, CRC-32 computed here), for the raster layers that pictures embed into their SVG
 * (cells, floods, a zone's height map) at one pixel per cell. Text and vector drawing are the
 * SVG's; a whole picture becomes PNG through reports/svg_raster.ts. Deterministic: same pixels →
 * same bytes.
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

  /** PNG bytes (8-bit RGBA, filter 0 on every row). */
  png(): Uint8Array {
    return encodePng(this.width, this.height, this.rgba);
  }
}

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
