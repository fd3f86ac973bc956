/**
 * OCLZ zone body: layout and decoder (encoder: `ocls_zone_encode.ts`), byte-exact (spec 数据包 › OccluderPack; formulas.md
 * "## OccluderPack (not in the reference)"). format-notes.md has no OCLZ layout, so the stream
 * contents below are a reconstruction; each choice is marked [I] and kept canonical (one byte
 * string per model), which is what makes `encode(decode(bytes)) == bytes` hold for every body the
 * decoder accepts.
 *
 * Header (80 bytes, spec table): 0 "OCLZ", 4 u32 version 1, 8/12/16 u32 template, instance and
 * block counts, 20 u32 samples per block edge n, 24 f64 position step q, 32 f64 terrain cell
 * width w, 40 f64 height scale a, 48 f64 height offset b (k → a·k + b, formulas 15: the order
 * scale-then-offset is [I]), 56 u32 quaternion denominator D, 60 u32 scale fixed-point bits F,
 * 64/72 i64 origin x, z in units of q.
 *
 * Then 12 streams, each `u32 byte count + raw bytes` (not zlib: the whole file is already
 * gzipped, and raw streams keep re-encoding exact [I]); together they must use up the body:
 *
 * | # | stream | content (varints are LEB128, s = zigzag) |
 * |---|---|---|
 * | 0 | templates | per template: nv, nt, s(exponent e) |
 * | 1 | vertices | per template: s(Δx)×nv, s(Δy)×nv, s(Δz)×nv ("按轴分组差分", first from 0) |
 * | 2 | indices | per template: 3·nt back-references d (0 = next new vertex, else vertex seen−d) |
 * | 3 | instance-counts | per template: instance count (instances grouped by template) |
 * | 4 | positions | s(Δx)×N, s(Δy)×N, s(Δz)×N over all instances |
 * | 5 | rotation-codes | one byte per instance, 0–4 |
 * | 6 | rotations | per instance with code < 4: three s(k), component = k/D |
 * | 7 | scales | palette size P, 3·P s(integers), then per code < 4 instance: palette index |
 * | 8 | matrices | per code-4 instance: 9 raw f32, row-major |
 * | 9 | blocks | per block: s(Δorigin x), s(Δorigin z) in cells, hole flag byte 0/1 |
 * | 10 | heights | per block: n² s(residual), plane predictor left + up − upleft |
 * | 11 | holes | per flagged block: ⌈(n−1)²/8⌉ bytes, LSB first, spare bits 0 |
 * @module
 */
import { ByteReader } from "../../codec/bytes.ts";
import { type ErrorLocation, NavscopeError } from "../../errors.ts";
import { checkBound, HEIGHT, POSITIVE_SCALE, WORLD_COORD } from "../bounds.ts";
import { OclzStreamReader } from "./stream.ts";
import {
  holeBytes,
  type OccluderScene,
  OCLS_VERSION,
  OCLZ_HEADER_BYTES,
  OCLZ_MAGIC,
  OCLZ_STREAM_COUNT,
  OCLZ_STREAM_NAMES,
  type OclzHeader,
  ROT_CODE_MATRIX,
} from "./types.ts";

/** Largest accepted quaternion denominator (keeps 2k² exact in doubles). */
const MAX_QUAT_DEN = 1 << 24;
/** Largest accepted scale fixed-point bit count. */
const MAX_SCALE_BITS = 30;
/** Largest accepted samples per block edge. */
const MAX_BLOCK_SAMPLES = 4096;
/** Accepted template exponent range (vertex = int · 2^e stays exact and finite). */
const MAX_EXPONENT = 100;
const TWO32 = 4294967296;

/** Decodes one OCLZ body (the bytes of one OCLS record). `base` = absolute offset for errors. */
export function decodeOccluderZone(
  body: Uint8Array,
  zone: string,
  where: ErrorLocation = {},
  base = 0,
): OccluderScene {
  const loc: ErrorLocation = { ...where, zone, section: "OCLZ header" };
  const r = new ByteReader(body, loc, base);
  const h = readHeader(r);
  const streams = readStreamTable(r, body, { ...where, zone }, base);
  const scene = decodeStreams(zone, h, streams);
  return scene;
}

/** Byte offsets of the bounded OCLZ header fields (spec OccluderPack 头部表). */
const OCLZ_FIELD_AT = {
  posStep: 24,
  cellWidth: 32,
  heightScale: 40,
  heightOffset: 48,
  originX: 64,
};

/**
 * The plausibility bounds of an OCLZ header (issue 55, src/pack/bounds.ts): position step, cell
 * width and height scale strictly positive, above the float32 denormal range and ≤ 1e5 (the
 * builder divides by each: 0 or a denormal turns every quantised value into ±Inf); height offset
 * within ±1e5 m; the origin (integers × position step) within ±1e6 world units. Decoder and
 * encoder; `at(off)` locates the field at header offset `off`.
 */
export function checkOclzHeaderBounds(h: OclzHeader, at: (off: number) => ErrorLocation): void {
  const A = OCLZ_FIELD_AT;
  checkBound(h.posStep, POSITIVE_SCALE, at(A.posStep), "OCLZ header", "pos_step");
  checkBound(h.cellWidth, POSITIVE_SCALE, at(A.cellWidth), "OCLZ header", "cell_width");
  checkBound(h.heightScale, POSITIVE_SCALE, at(A.heightScale), "OCLZ header", "height_scale");
  checkBound(h.heightOffset, HEIGHT, at(A.heightOffset), "OCLZ header", "height_offset");
  checkBound(
    h.originX * h.posStep,
    WORLD_COORD,
    at(A.originX),
    "OCLZ header",
    "origin_x × pos_step",
  );
  checkBound(
    h.originZ * h.posStep,
    WORLD_COORD,
    at(A.originX + 8),
    "OCLZ header",
    "origin_z × pos_step",
  );
}

interface RawHeader {
  header: OclzHeader;
  templates: number;
  instances: number;
  blocks: number;
}

function readHeader(r: ByteReader): RawHeader {
  r.need(OCLZ_HEADER_BYTES, "OCLZ header");
  const magic = r.tag();
  if (magic !== OCLZ_MAGIC) {
    throw r.error("bad_magic", `zone body magic is ${JSON.stringify(magic)}`, '"OCLZ"', 0);
  }
  const version = r.u32();
  if (version !== OCLS_VERSION) {
    throw r.error("bad_version", `OCLZ version ${version}`, `${OCLS_VERSION}`, 4);
  }
  const templates = r.u32();
  const instances = r.u32();
  const blocks = r.u32();
  const blockSamples = r.u32();
  const posStep = r.f64();
  const cellWidth = r.f64();
  const heightScale = r.f64();
  const heightOffset = r.f64();
  const quatDenominator = r.u32();
  const scaleBits = r.u32();
  const originX = readI64(r, 64);
  const originZ = readI64(r, 72);
  const bad = (what: string, expected: string, at: number) => {
    throw r.error("bad_value", what, expected, at);
  };
  // Finite here; > 0 and the range are the bound (checkOclzHeaderBounds), one rule per field.
  if (!Number.isFinite(posStep)) bad(`position step ${posStep}`, "finite", 24);
  if (!Number.isFinite(cellWidth)) bad(`cell width ${cellWidth}`, "finite", 32);
  if (!Number.isFinite(heightScale)) bad(`height scale ${heightScale}`, "finite", 40);
  if (!Number.isFinite(heightOffset)) bad(`height offset ${heightOffset}`, "finite", 48);
  if (quatDenominator < 1 || quatDenominator > MAX_QUAT_DEN) {
    bad(`quaternion denominator ${quatDenominator}`, `1..${MAX_QUAT_DEN}`, 56);
  }
  if (scaleBits > MAX_SCALE_BITS) bad(`scale bits ${scaleBits}`, `≤ ${MAX_SCALE_BITS}`, 60);
  if (blockSamples > MAX_BLOCK_SAMPLES || (blocks > 0 && blockSamples < 2)) {
    bad(`samples per block edge ${blockSamples}`, `2..${MAX_BLOCK_SAMPLES}`, 20);
  }
  const header = {
    blockSamples,
    posStep,
    cellWidth,
    heightScale,
    heightOffset,
    quatDenominator,
    scaleBits,
    originX,
    originZ,
  };
  checkOclzHeaderBounds(header, (off) => ({ ...r.where, offset: r.base + off }));
  return {
    header,
    templates,
    instances,
    blocks,
  };
}

function readI64(r: ByteReader, at: number): number {
  const lo = r.u32();
  const hi = r.i32();
  if (hi < -0x200000 || hi >= 0x200000) {
    throw r.error("bad_value", "origin exceeds ±2^53", "a safe integer", at);
  }
  return hi * TWO32 + lo;
}

function readStreamTable(
  r: ByteReader,
  body: Uint8Array,
  where: ErrorLocation,
  base: number,
): OclzStreamReader[] {
  const out: OclzStreamReader[] = [];
  for (let s = 0; s < OCLZ_STREAM_COUNT; s++) {
    const section = `OCLZ stream ${s} (${OCLZ_STREAM_NAMES[s]})`;
    const at = r.pos;
    if (r.remaining < 4) {
      throw new NavscopeError(
        "truncated",
        `stream length missing: ${r.remaining} bytes left`,
        { ...where, section, offset: base + at },
        "a u32 byte count",
      );
    }
    const len = r.u32();
    if (len > r.remaining) {
      throw new NavscopeError(
        "stream_length",
        `stream says ${len} bytes but only ${r.remaining} remain in the zone body`,
        { ...where, section, offset: base + at },
        `≤ ${r.remaining}`,
      );
    }
    out.push(
      new OclzStreamReader(body.subarray(r.pos, r.pos + len), { ...where, section }, base + r.pos),
    );
    r.pos += len;
  }
  if (r.remaining !== 0) {
    throw new NavscopeError(
      "stream_length",
      `${r.remaining} bytes left over after the 12 streams`,
      { ...where, section: "OCLZ streams", offset: base + r.pos },
      "the streams to use up the body",
    );
  }
  return out;
}

function countCheck(s: OclzStreamReader, what: string, n: number, minBytesEach: number): void {
  if (n * minBytesEach > s.bytes.length) {
    throw s.error(
      "count_mismatch",
      `${what} ${n} cannot fit in a ${s.bytes.length}-byte stream`,
      `≤ ${Math.floor(s.bytes.length / minBytesEach)}`,
      0,
    );
  }
}

function decodeStreams(zone: string, raw: RawHeader, st: OclzStreamReader[]): OccluderScene {
  const { header } = raw;
  const T = raw.templates, N = raw.instances, B = raw.blocks;
  countCheck(st[0], "template count", T, 3);
  countCheck(st[5], "instance count", N, 1);
  countCheck(st[9], "block count", B, 3);
  const tpl = decodeTemplates(T, st[0], st[1], st[2]);
  const inst = decodeInstances(T, N, header, st.slice(3, 9));
  const terr = decodeTerrain(B, header.blockSamples, st[9], st[10], st[11]);
  for (let s = 0; s < OCLZ_STREAM_COUNT; s++) st[s].expectEnd(OCLZ_STREAM_NAMES[s]);
  return {
    zone,
    header,
    templateCount: T,
    instanceCount: N,
    blockCount: B,
    ...tpl,
    ...inst,
    ...terr,
  };
}

function decodeTemplates(
  T: number,
  s0: OclzStreamReader,
  s1: OclzStreamReader,
  s2: OclzStreamReader,
) {
  const tplExponent = new Int8Array(T);
  const tplVertexStart = new Uint32Array(T + 1);
  const tplTriStart = new Uint32Array(T + 1);
  for (let t = 0; t < T; t++) {
    const at = s0.pos;
    const nv = s0.uvar("vertex count");
    const nt = s0.uvar("triangle count");
    const e = s0.svar("exponent");
    if (nv > 3 * nt) {
      throw s0.error(
        "count_mismatch",
        `template ${t}: ${nv} vertices for ${nt} triangles`,
        "nv ≤ 3·nt",
        at,
      );
    }
    if (e < -MAX_EXPONENT || e > MAX_EXPONENT) {
      throw s0.error("bad_value", `template ${t}: exponent ${e}`, `|e| ≤ ${MAX_EXPONENT}`, at);
    }
    tplExponent[t] = e;
    tplVertexStart[t + 1] = tplVertexStart[t] + nv;
    tplTriStart[t + 1] = tplTriStart[t] + nt;
    countCheck(s1, "total vertex count", tplVertexStart[t + 1], 3);
    countCheck(s2, "total triangle count", tplTriStart[t + 1], 3);
  }
  const tplVertices = new Int32Array(3 * tplVertexStart[T]);
  const tplIndices = new Uint32Array(3 * tplTriStart[T]);
  for (let t = 0; t < T; t++) {
    const v0 = tplVertexStart[t], v1 = tplVertexStart[t + 1];
    for (let axis = 0; axis < 3; axis++) {
      let prev = 0;
      for (let v = v0; v < v1; v++) {
        prev = s1.delta32(prev, `template ${t} vertex coordinate`);
        tplVertices[3 * v + axis] = prev;
      }
    }
    decodeCorners(t, v1 - v0, tplTriStart[t], tplTriStart[t + 1], s2, tplIndices);
  }
  return { tplExponent, tplVertexStart, tplVertices, tplTriStart, tplIndices };
}

/** Corner back-references (spec: 0 = new vertex, else index n − d; formulas 17). */
function decodeCorners(
  t: number,
  nv: number,
  tri0: number,
  tri1: number,
  s: OclzStreamReader,
  out: Uint32Array,
): void {
  let seen = 0;
  for (let c = 3 * tri0; c < 3 * tri1; c++) {
    const at = s.pos;
    const d = s.uvar("corner back-reference");
    if (d === 0) {
      if (seen >= nv) {
        throw s.error("count_mismatch", `template ${t}: more new vertices than ${nv}`, `${nv}`, at);
      }
      out[c] = seen++;
    } else {
      if (d > seen) {
        throw s.error(
          "offset_out_of_range",
          `template ${t}: back-reference ${d} with ${seen} seen`,
          `1..${seen}`,
          at,
        );
      }
      out[c] = seen - d;
    }
  }
  if (seen !== nv) {
    throw s.error(
      "count_mismatch",
      `template ${t}: ${seen} vertices referenced, header says ${nv}`,
      `${nv}`,
    );
  }
}

function decodeInstances(T: number, N: number, h: OclzHeader, st: OclzStreamReader[]) {
  const [sCount, sPos, sCode, sRot, sScale, sMat] = st;
  const instTemplate = new Uint32Array(N);
  let k = 0;
  for (let t = 0; t < T; t++) {
    const c = sCount.uvarMax(`template ${t} instance count`, N - k);
    instTemplate.fill(t, k, k + c);
    k += c;
  }
  if (k !== N) {
    throw sCount.error(
      "count_mismatch",
      `per-template instance counts sum to ${k}`,
      `${N} (header)`,
    );
  }
  countCheck(sPos, "instance count", N, 3);
  const instPos = new Int32Array(3 * N);
  for (let axis = 0; axis < 3; axis++) {
    let prev = 0;
    for (let i = 0; i < N; i++) {
      instPos[3 * i + axis] = prev = sPos.delta32(prev, "instance position");
    }
  }
  const instRotCode = new Uint8Array(N);
  let nQuat = 0;
  for (let i = 0; i < N; i++) {
    const at = sCode.pos;
    const code = sCode.u8();
    if (code > ROT_CODE_MATRIX) throw sCode.error("bad_value", `rotation code ${code}`, "0..4", at);
    instRotCode[i] = code;
    if (code < ROT_CODE_MATRIX) nQuat++;
  }
  const instQuat = decodeQuats(N, instRotCode, h.quatDenominator, sRot);
  const { instScaleIndex, scalePalette } = decodeScales(N, nQuat, instRotCode, sScale);
  const instMatrix = new Float32Array(9 * N);
  const matBytes = new Uint8Array(instMatrix.buffer);
  if (sMat.bytes.length !== 36 * (N - nQuat)) {
    throw sMat.error(
      "stream_length",
      `matrix stream has ${sMat.bytes.length} bytes`,
      `${36 * (N - nQuat)} (36 per code-4 instance)`,
      0,
    );
  }
  for (let i = 0; i < N; i++) {
    // Raw byte copy keeps NaN payloads, so re-encoding is exact (little-endian host assumed).
    if (instRotCode[i] === ROT_CODE_MATRIX) {
      const at = sMat.pos;
      matBytes.set(sMat.take(36, "matrix"), 36 * i);
      // A non-finite matrix entry places the instance nowhere (issue 27): no writer makes one.
      for (let k = 9 * i; k < 9 * i + 9; k++) {
        if (!Number.isFinite(instMatrix[k])) {
          throw sMat.error(
            "bad_value",
            `instance ${i} matrix entry ${k - 9 * i} is ${instMatrix[k]}`,
            "finite",
            at,
          );
        }
      }
    }
  }
  return { instTemplate, instPos, instRotCode, instQuat, instScaleIndex, scalePalette, instMatrix };
}

/** Smallest-three components: |k/D| ≤ 1/√2 (formulas 18), checked as 2k² ≤ (D+1)² for rounding. */
function decodeQuats(N: number, codes: Uint8Array, D: number, s: OclzStreamReader): Int32Array {
  const q = new Int32Array(3 * N);
  const lim = (D + 1) * (D + 1);
  for (let i = 0; i < N; i++) {
    if (codes[i] === ROT_CODE_MATRIX) continue;
    for (let c = 0; c < 3; c++) {
      const at = s.pos;
      const k = s.svar("quaternion component");
      if (2 * k * k > lim) {
        throw s.error(
          "bad_value",
          `quaternion component ${k}/${D} exceeds 1/√2`,
          `|k| ≤ ${D}/√2`,
          at,
        );
      }
      q[3 * i + c] = k;
    }
  }
  return q;
}

function decodeScales(N: number, nQuat: number, codes: Uint8Array, s: OclzStreamReader) {
  const P = s.uvar("scale palette size");
  countCheck(s, "scale palette size", P, 3);
  const scalePalette = new Int32Array(3 * P);
  for (let p = 0; p < 3 * P; p++) {
    const at = s.pos;
    scalePalette[p] = s.i32Range(s.svar("scale"), "scale", at);
  }
  const instScaleIndex = new Uint32Array(N);
  if (nQuat > 0 && P === 0) throw s.error("count_mismatch", "empty scale palette", "≥ 1 entry", 0);
  for (let i = 0; i < N; i++) {
    if (codes[i] !== ROT_CODE_MATRIX) instScaleIndex[i] = s.uvarMax("scale index", P - 1);
  }
  return { instScaleIndex, scalePalette };
}

function decodeTerrain(
  B: number,
  n: number,
  sBlk: OclzStreamReader,
  sH: OclzStreamReader,
  sHole: OclzStreamReader,
) {
  const blockOrigin = new Int32Array(2 * B);
  const blockHoleFlag = new Uint8Array(B);
  let px = 0, pz = 0;
  for (let b = 0; b < B; b++) {
    blockOrigin[2 * b] = px = sBlk.delta32(px, "block origin x");
    blockOrigin[2 * b + 1] = pz = sBlk.delta32(pz, "block origin z");
    const at = sBlk.pos;
    const f = sBlk.u8();
    if (f > 1) throw sBlk.error("bad_value", `hole flag ${f}`, "0 or 1", at);
    blockHoleFlag[b] = f;
  }
  const nn = n * n;
  countCheck(sH, "height sample count", B * nn, 1);
  const blockHeights = new Int32Array(B * nn);
  let first = 0;
  for (let b = 0; b < B; b++) {
    first = decodeBlockHeights(sH, n, blockHeights, b * nn, first);
  }
  const hb = holeBytes(n);
  const blockHoles = new Uint8Array(B * hb);
  const cells = (n - 1) * (n - 1);
  for (let b = 0; b < B; b++) {
    if (!blockHoleFlag[b]) continue;
    const at = sHole.pos;
    blockHoles.set(sHole.take(hb, "hole bitmap"), b * hb);
    const spare = hb * 8 - cells;
    if (spare > 0 && (blockHoles[b * hb + hb - 1] >> (8 - spare)) !== 0) {
      throw sHole.error(
        "bad_value",
        `block ${b}: spare hole bits set`,
        "zero padding",
        at + hb - 1,
      );
    }
  }
  return { blockOrigin, blockHoleFlag, blockHeights, blockHoles };
}

/**
 * Plane-predicted residuals (spec 地形块; formulas 19): interior pred = left + up − upleft; first
 * row left only; first column up only; sample 0 continues from the previous block's sample 0.
 */
function decodeBlockHeights(
  s: OclzStreamReader,
  n: number,
  out: Int32Array,
  o: number,
  first: number,
): number {
  for (let z = 0; z < n; z++) {
    for (let x = 0; x < n; x++) {
      const at = s.pos;
      const r = s.svar("height residual");
      const i = o + z * n + x;
      const pred = predictHeight(out, n, i, x, z, first);
      out[i] = s.i32Range(pred + r, "terrain height", at);
    }
  }
  return out[o];
}

/** Plane predictor of terrain sample i (shared with the encoder). */
export function predictHeight(
  h: Int32Array,
  n: number,
  i: number,
  x: number,
  z: number,
  first: number,
) {
  if (x === 0 && z === 0) return first;
  if (z === 0) return h[i - 1];
  if (x === 0) return h[i - n];
  return h[i - 1] + h[i - n] - h[i - n - 1];
}
