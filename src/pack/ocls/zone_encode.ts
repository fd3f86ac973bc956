/**
 * OCLZ zone body encoder: the exact inverse of `decodeOccluderZone` (layout table in
 * `ocls_zone.ts`). Canonical output — shortest varints, vertices in first-reference order,
 * instances grouped by template — so decode → encode reproduces the input bytes.
 * @module
 */
import { ByteWriter } from "../../codec/bytes.ts";
import { NavscopeError } from "../../errors.ts";
import { checkOclzHeaderBounds, predictHeight } from "./zone.ts";
import {
  holeBytes,
  type OccluderScene,
  OCLS_VERSION,
  OCLZ_MAGIC,
  OCLZ_STREAM_COUNT,
  ROT_CODE_MATRIX,
} from "./types.ts";

const TWO32 = 4294967296;

/** Encodes one scene as an OCLZ body. Canonical: the inverse of {@link decodeOccluderZone}. */
export function encodeOccluderZone(scene: OccluderScene): Uint8Array {
  validateForEncode(scene);
  const h = scene.header;
  const w = new ByteWriter(256);
  w.tag(OCLZ_MAGIC).u32(OCLS_VERSION);
  w.u32(scene.templateCount).u32(scene.instanceCount).u32(scene.blockCount);
  w.u32(h.blockSamples).f64(h.posStep).f64(h.cellWidth).f64(h.heightScale).f64(h.heightOffset);
  w.u32(h.quatDenominator).u32(h.scaleBits);
  writeI64(w, h.originX);
  writeI64(w, h.originZ);
  for (const s of encodeStreams(scene)) w.u32(s.length).bytes(s);
  return w.finish();
}

function writeI64(w: ByteWriter, v: number): void {
  const hi = Math.floor(v / TWO32);
  w.u32(v - hi * TWO32).i32(hi);
}

function validateForEncode(s: OccluderScene): void {
  const bad = (what: string) => {
    throw new NavscopeError("bad_value", what, { zone: s.zone, section: "OCLZ encode" });
  };
  if (s.tplVertexStart.length !== s.templateCount + 1) bad("tplVertexStart length");
  if (s.tplTriStart.length !== s.templateCount + 1) bad("tplTriStart length");
  if (s.instTemplate.length !== s.instanceCount) bad("instTemplate length");
  for (let i = 1; i < s.instanceCount; i++) {
    if (s.instTemplate[i] < s.instTemplate[i - 1]) bad("instances must be grouped by template");
  }
  if (s.blockHeights.length !== s.blockCount * s.header.blockSamples ** 2) {
    bad("blockHeights length");
  }
  if (!Number.isSafeInteger(s.header.originX) || !Number.isSafeInteger(s.header.originZ)) {
    bad("origin must be a safe integer");
  }
  const h = s.header;
  if (!Number.isFinite(h.posStep)) bad(`position step ${h.posStep}`);
  if (!Number.isFinite(h.cellWidth)) bad(`cell width ${h.cellWidth}`);
  if (!Number.isFinite(h.heightScale) || !Number.isFinite(h.heightOffset)) {
    bad(`height scale/offset ${h.heightScale}, ${h.heightOffset}`);
  }
  checkOclzHeaderBounds(h, () => ({ zone: s.zone, section: "OCLZ encode" }));
  for (let i = 0; i < s.instanceCount; i++) {
    if (s.instRotCode[i] !== 4) continue;
    for (let k = 9 * i; k < 9 * i + 9; k++) {
      if (!Number.isFinite(s.instMatrix[k])) bad(`instance ${i} matrix entry ${s.instMatrix[k]}`);
    }
  }
}

function encodeStreams(s: OccluderScene): Uint8Array[] {
  const ws = Array.from({ length: OCLZ_STREAM_COUNT }, () => new ByteWriter(64));
  encodeTemplates(s, ws[0], ws[1], ws[2]);
  encodeInstances(s, ws.slice(3, 9));
  encodeTerrain(s, ws[9], ws[10], ws[11]);
  return ws.map((w) => w.finish());
}

function encodeTemplates(s: OccluderScene, w0: ByteWriter, w1: ByteWriter, w2: ByteWriter): void {
  for (let t = 0; t < s.templateCount; t++) {
    const v0 = s.tplVertexStart[t], v1 = s.tplVertexStart[t + 1];
    const c0 = 3 * s.tplTriStart[t], c1 = 3 * s.tplTriStart[t + 1];
    w0.varint(v1 - v0).varint((c1 - c0) / 3).svarint(s.tplExponent[t]);
    for (let axis = 0; axis < 3; axis++) {
      let prev = 0;
      for (let v = v0; v < v1; v++) {
        const x = s.tplVertices[3 * v + axis];
        w1.svarint(x - prev);
        prev = x;
      }
    }
    let seen = 0;
    for (let c = c0; c < c1; c++) {
      const idx = s.tplIndices[c];
      if (idx === seen) {
        w2.varint(0);
        seen++;
      } else if (idx < seen) w2.varint(seen - idx);
      else {
        throw new NavscopeError(
          "bad_value",
          `template ${t}: vertices not in first-reference order`,
          {
            zone: s.zone,
            section: "OCLZ encode",
          },
        );
      }
    }
  }
}

function encodeInstances(s: OccluderScene, ws: ByteWriter[]): void {
  const [wCount, wPos, wCode, wRot, wScale, wMat] = ws;
  const N = s.instanceCount;
  let k = 0;
  for (let t = 0; t < s.templateCount; t++) {
    let c = 0;
    while (k < N && s.instTemplate[k] === t) {
      k++;
      c++;
    }
    wCount.varint(c);
  }
  for (let axis = 0; axis < 3; axis++) {
    let prev = 0;
    for (let i = 0; i < N; i++) {
      const x = s.instPos[3 * i + axis];
      wPos.svarint(x - prev);
      prev = x;
    }
  }
  const P = s.scalePalette.length / 3;
  wScale.varint(P);
  for (let p = 0; p < 3 * P; p++) wScale.svarint(s.scalePalette[p]);
  const matBytes = new Uint8Array(
    s.instMatrix.buffer,
    s.instMatrix.byteOffset,
    s.instMatrix.byteLength,
  );
  for (let i = 0; i < N; i++) {
    const code = s.instRotCode[i];
    wCode.u8(code);
    if (code === ROT_CODE_MATRIX) {
      wMat.bytes(matBytes.subarray(36 * i, 36 * i + 36));
    } else {
      wRot.svarint(s.instQuat[3 * i]).svarint(s.instQuat[3 * i + 1]).svarint(s.instQuat[3 * i + 2]);
      wScale.varint(s.instScaleIndex[i]);
    }
  }
}

function encodeTerrain(
  s: OccluderScene,
  wBlk: ByteWriter,
  wH: ByteWriter,
  wHole: ByteWriter,
): void {
  const n = s.header.blockSamples, nn = n * n, hb = holeBytes(n);
  let px = 0, pz = 0, first = 0;
  for (let b = 0; b < s.blockCount; b++) {
    const x0 = s.blockOrigin[2 * b], z0 = s.blockOrigin[2 * b + 1];
    wBlk.svarint(x0 - px).svarint(z0 - pz).u8(s.blockHoleFlag[b]);
    px = x0;
    pz = z0;
    const o = b * nn;
    for (let z = 0; z < n; z++) {
      for (let x = 0; x < n; x++) {
        const i = o + z * n + x;
        wH.svarint(s.blockHeights[i] - predictHeight(s.blockHeights, n, i, x, z, first));
      }
    }
    first = s.blockHeights[o];
    if (s.blockHoleFlag[b]) wHole.bytes(s.blockHoles.subarray(b * hb, b * hb + hb));
  }
}
