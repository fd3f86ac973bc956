/**
 * A small PNG decoder for the tests (8-bit RGBA or RGB, non-interlaced, every row filter), so a
 * test reads back the pixels of a PNG navscope wrote, independently of the renderer that wrote
 * it.
 */
import { unzlibSync } from "fflate";

/** Decoded pixels, RGBA, row-major. */
export interface DecodedPng {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Decodes `png`; throws on anything else than 8-bit RGB(A) without interlace. */
export function decodePng(png: Uint8Array): DecodedPng {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  if (!sig.every((b, i) => png[i] === b)) throw new Error("not a PNG");
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0, height = 0, colour = 0;
  const idat: Uint8Array[] = [];
  for (let o = 8; o < png.length;) {
    const len = dv.getUint32(o), type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    const data = png.subarray(o + 8, o + 8 + len);
    if (type === "IHDR") {
      width = dv.getUint32(o + 8);
      height = dv.getUint32(o + 12);
      colour = data[9];
      if (data[8] !== 8 || (colour !== 6 && colour !== 2) || data[12] !== 0) {
        throw new Error(
          `unsupported PNG: depth ${data[8]}, colour ${colour}, interlace ${data[12]}`,
        );
      }
    } else if (type === "IDAT") idat.push(data);
    o += 12 + len;
  }
  const all = new Uint8Array(idat.reduce((n, c) => n + c.length, 0));
  let k = 0;
  for (const c of idat) (all.set(c, k), (k += c.length));
  const raw = unzlibSync(all);
  const bpp = colour === 6 ? 4 : 3, stride = width * bpp;
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)],
      row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[y * stride + x - bpp] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
      let pred = 0;
      if (f === 1) pred = a;
      else if (f === 2) pred = b;
      else if (f === 3) pred = (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[y * stride + x] = (row[x] + pred) & 0xff;
    }
  }
  if (bpp === 4) return { width, height, rgba: px };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba.set(px.subarray(3 * i, 3 * i + 3), 4 * i);
    rgba[4 * i + 3] = 255;
  }
  return { width, height, rgba };
}

/** Pixels darker than `max` (mean of R, G, B) in the box [x0, x1) × [y0, y1). */
export function darkPixels(
  img: DecodedPng,
  box: [number, number, number, number],
  max = 96,
): number {
  const [x0, y0, x1, y1] = box;
  let n = 0;
  for (let y = Math.max(0, y0); y < Math.min(img.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(img.width, x1); x++) {
      const o = 4 * (y * img.width + x);
      if ((img.rgba[o] + img.rgba[o + 1] + img.rgba[o + 2]) / 3 < max) n++;
    }
  }
  return n;
}
