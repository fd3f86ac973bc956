/**
 * Mutation operators of the fuzz engine: byte level (bit flips, byte sets, typed integer and
 * float fields set to edge values, truncation, inserts, deletes, duplicated ranges), JSON level
 * (deleted members, wrong types, unknown keys, duplicate keys, number literals beyond 2^53 or
 * f64, lone surrogate escapes, BOM, deep nesting) and line level (OBJ and log lines). Every
 * operator draws from a {@link FuzzRng}, so a mutation is reproducible from (seed, index).
 * @module
 */

/** Deterministic generator (mulberry32) with the helpers the operators need. */
export class FuzzRng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * Math.max(1, n));
  }
  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  /** One element. */
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** FNV-1a 32 of a string: the per-input RNG seed from (target, seed, index). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One mutated input and how it was made. */
export interface Mutation {
  /** The bytes to decode. */
  bytes: Uint8Array;
  /** Operator name. */
  op: string;
  /** Short description (offset, path, value). */
  note: string;
}

const te = new TextEncoder();

function splice(b: Uint8Array, at: number, del: number, ins: ArrayLike<number>): Uint8Array {
  const o = new Uint8Array(b.length - del + ins.length);
  o.set(b.subarray(0, at));
  o.set(ins as ArrayLike<number>, at);
  o.set(b.subarray(at + del), at + ins.length);
  return o;
}

/** Byte-level mutation of any input (binary or text). */
export function mutateBytes(rng: FuzzRng, b: Uint8Array): Mutation {
  const n = b.length;
  const at = rng.int(n);
  const o = b.slice();
  const dv = new DataView(o.buffer);
  switch (rng.int(10)) {
    case 0:
      o[at] ^= 1 << rng.int(8);
      return { bytes: o, op: "bit-flip", note: `@${at}` };
    case 1:
      o[at] = rng.pick([0, 0xff, 0x7f, 0x80, 1, rng.int(256)]);
      return { bytes: o, op: "byte-set", note: `@${at}` };
    case 2: {
      const a = at & ~3;
      if (a + 4 > n) break;
      const v = rng.pick([0, 0xffffffff, 0x7fffffff, 0x80000000, 1, 0xffff, 0x10000]);
      dv.setUint32(a, v, true);
      return { bytes: o, op: "u32-field", note: `@${a}:=0x${v.toString(16)}` };
    }
    case 3: {
      const a = at & ~3;
      if (a + 4 > n) break;
      const v = rng.pick([NaN, Infinity, -Infinity, -0, 3.4e38, 1e-45, -1]);
      dv.setFloat32(a, v, true);
      return { bytes: o, op: "f32-field", note: `@${a}:=${v}` };
    }
    case 4: {
      const a = at & ~7;
      if (a + 8 > n) break;
      dv.setFloat64(a, rng.pick([NaN, Infinity, -Infinity, 1e308]), true);
      return { bytes: o, op: "f64-field", note: `@${a}` };
    }
    case 5:
      return { bytes: b.slice(0, at), op: "truncate", note: `→${at}` };
    case 6: {
      const ins = Array.from({ length: rng.range(1, 16) }, () => rng.int(256));
      return { bytes: splice(b, at, 0, ins), op: "insert", note: `@${at}+${ins.length}` };
    }
    case 7: {
      const d = Math.min(n - at, rng.range(1, 64));
      return { bytes: splice(b, at, d, []), op: "delete", note: `@${at}-${d}` };
    }
    case 8: {
      const len = Math.min(n - at, rng.range(1, 256));
      const to = rng.int(n);
      return {
        bytes: splice(b, to, 0, b.subarray(at, at + len)),
        op: "duplicate-range",
        note: `${at}+${len}→${to}`,
      };
    }
    default:
      break;
  }
  for (let k = 0; k < 8 && n > 0; k++) o[rng.int(n)] = rng.int(256);
  return { bytes: o, op: "garble", note: "8 bytes" };
}

type J = unknown;
type Path = (string | number)[];

function paths(v: J, p: Path = [], out: Path[] = []): Path[] {
  out.push(p);
  if (out.length > 5000) return out;
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...p, i], out));
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v as Record<string, J>)) paths(x, [...p, k], out);
  }
  return out;
}

function getAt(v: J, p: Path): J {
  let x = v as Record<string | number, J>;
  for (const k of p) x = x[k] as Record<string | number, J>;
  return x;
}

function setAt(v: J, p: Path, val: J | undefined): J {
  if (p.length === 0) return val;
  const parent = getAt(v, p.slice(0, -1)) as Record<string | number, J>;
  const k = p[p.length - 1];
  if (val === undefined) {
    if (Array.isArray(parent)) parent.splice(k as number, 1);
    else delete parent[k];
  } else parent[k] = val;
  return v;
}

const pathText = (p: Path) =>
  "$" + p.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("");

const WEIRD: J[] = ["x", "", 0, -1, true, null, [], {}, 1e308, -0, 5e-324, "NaN", [1, 2, 3], {
  a: 1,
}];
const NAMES = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202eevil",
  "Ｍａｐ",
  "map01base ",
  "x".repeat(5000),
];

/** Structure-aware JSON mutation (a quarter of the time byte/text level instead). */
export function mutateJson(rng: FuzzRng, text: string): Mutation {
  if (rng.chance(0.25)) return mutateBytes(rng, te.encode(text));
  const doc = JSON.parse(text) as J;
  const ps = paths(doc);
  const p = rng.pick(ps);
  const cur = getAt(doc, p);
  const ind = rng.chance(0.5) ? 1 : undefined;
  const out = (d: J, op: string, note: string, fix = (s: string) => s): Mutation => ({
    bytes: te.encode(fix(JSON.stringify(d, null, ind))),
    op,
    note,
  });
  switch (rng.int(9)) {
    case 0:
      if (p.length) return out(setAt(doc, p, undefined), "json-delete", pathText(p));
      break;
    case 1:
      if (cur && typeof cur === "object" && !Array.isArray(cur)) {
        (cur as Record<string, J>)[rng.pick(["extra", "Zones", "typo_px", "__proto__x"])] = 1;
        return out(doc, "json-unknown-key", pathText(p));
      }
      break;
    case 2: {
      // duplicate key: the same key again (after the original) with another value
      const objs = ps.filter((q) => {
        const v = getAt(doc, q);
        return v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0;
      });
      if (!objs.length) break;
      const q = rng.pick(objs);
      const o = getAt(doc, q) as Record<string, J>;
      const key = rng.pick(Object.keys(o));
      o["@@DUP@@"] = 0;
      const alt = JSON.stringify(rng.pick(WEIRD.slice(0, 8)));
      return out(
        doc,
        "json-duplicate-key",
        `${key} in ${pathText(q)}`,
        (s) => s.replace(/"@@DUP@@":\s?0/, `${JSON.stringify(key)}: ${alt}`),
      );
    }
    case 3: {
      const lit = rng.pick([
        "1e309",
        "-1e400",
        "123456789012345678901234567890",
        "9007199254740993",
        "-0",
        "0.1e-400",
        "00",
        "0x10",
        "NaN",
      ]);
      return out(
        setAt(doc, p, "@@LIT@@"),
        "json-number-literal",
        `${pathText(p)}:=${lit}`,
        (s) => s.replace('"@@LIT@@"', lit),
      );
    }
    case 4: {
      const v = rng.pick(WEIRD);
      return out(setAt(doc, p, v), "json-wrong-type", `${pathText(p)}:=${JSON.stringify(v)}`);
    }
    case 5:
      if (typeof cur === "string") {
        const v = rng.pick(NAMES);
        return out(setAt(doc, p, v), "json-string", pathText(p));
      }
      if (typeof cur === "number") {
        const v = rng.pick([cur * 1e6, -cur, cur + 0.5, 1e308, Number.MAX_SAFE_INTEGER, 0]);
        return out(setAt(doc, p, v), "json-number", `${pathText(p)}:=${v}`);
      }
      break;
    case 6:
      if (Array.isArray(cur) && cur.length) {
        const v = rng.chance(0.5) ? [...cur, cur[0]] : cur.slice(0, -1);
        return out(setAt(doc, p, v), "json-array-length", pathText(p));
      }
      break;
    case 7: {
      const strs = ps.filter((q) => typeof getAt(doc, q) === "string");
      if (!strs.length) break;
      const q = rng.pick(strs);
      const esc = rng.pick(['"\\ud800"', '"\\udfff x"', '"\\u0000"', '"a\\ufffdb"']);
      return out(
        setAt(doc, q, "@@ESC@@"),
        "json-escape",
        `${pathText(q)}:=${esc}`,
        (s) => s.replace('"@@ESC@@"', esc),
      );
    }
    default: {
      const k = rng.pick(["bom", "crlf", "deep", "trailing", "utf16"]);
      if (k === "bom") return { bytes: te.encode("\ufeff" + text), op: "json-bom", note: "" };
      if (k === "crlf") {
        return { bytes: te.encode(text.replace(/\n/g, "\r\n")), op: "json-crlf", note: "" };
      }
      if (k === "deep") {
        const d = rng.pick([300, 100000]);
        return { bytes: te.encode("[".repeat(d) + "]".repeat(d)), op: "json-deep", note: `${d}` };
      }
      if (k === "trailing") {
        return {
          bytes: te.encode(text + rng.pick(["\n{}", " x", "\u0000"])),
          op: "json-trailing",
          note: "",
        };
      }
      const u = new Uint8Array(2 * text.length);
      for (let i = 0; i < text.length; i++) {
        u[2 * i] = text.charCodeAt(i) & 0xff;
        u[2 * i + 1] = text.charCodeAt(i) >> 8;
      }
      return { bytes: u, op: "json-utf16", note: "" };
    }
  }
  return mutateBytes(rng, te.encode(text));
}

/** Line-level mutation of a text file: insert / replace / delete a line from `inserts`. */
export function mutateLines(rng: FuzzRng, text: string, inserts: readonly string[]): Mutation {
  if (rng.chance(0.35)) return mutateBytes(rng, te.encode(text));
  const lines = text.split("\n");
  const i = rng.int(lines.length);
  const ins = rng.pick(inserts);
  const op = rng.int(3);
  if (op === 0) lines.splice(i, 0, ins);
  else if (op === 1) lines[i] = ins;
  else lines.splice(i, 1);
  const name = ["line-insert", "line-replace", "line-delete"][op];
  return {
    bytes: te.encode(lines.join("\n")),
    op: name,
    note: `line ${i + 1}: ${ins.slice(0, 30)}`,
  };
}
