/**
 * Independent checks of what a reader ACCEPTED: the fuzz engine asks these, not the reader's
 * own validation, whether the decoded content is something a correct writer could produce.
 * Each returns a list of reasons (empty = fine).
 * @module
 */

/**
 * Implausible magnitudes among float fields a correct writer fills (issue 55), judged coarsely and
 * apart from the readers' bounds: |x| > 1e6, above every documented bound
 * (docs/pack_validation.md). With `positive` (sizes, steps, scales) also 0, negatives and
 * denormals (|x| < 2^−126); a tiny height or coordinate is merely 0, not implausible.
 * `values` are [label, value] pairs or one label with a float array.
 */
export function implausible(
  values: [string, number][] | [string, ArrayLike<number>],
  positive = false,
): string[] {
  const pairs: [string, number][] = typeof values[0] === "string"
    ? Array.from(values[1] as ArrayLike<number>, (v, i) => [`${values[0]}[${i}]`, v])
    : values as [string, number][];
  for (const [p, v] of pairs) {
    const a = Math.abs(v);
    if (a > 1e6 || (positive && !(v >= 2 ** -126))) return [`${p} = ${v}`];
  }
  return [];
}

/** Non-finite numbers anywhere in a value (objects, arrays, typed float arrays), as paths. */
export function nonFinite(
  v: unknown,
  p = "$",
  out: string[] = [],
  seen = new Set<unknown>(),
): string[] {
  if (out.length >= 4) return out;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) out.push(`${p} = ${v}`);
    return out;
  }
  if (v === null || typeof v !== "object" || seen.has(v)) return out;
  seen.add(v);
  if (v instanceof Float32Array || v instanceof Float64Array) {
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i])) {
        out.push(`${p}[${i}] = ${v[i]}`);
        break;
      }
    }
    return out;
  }
  if (ArrayBuffer.isView(v)) return out;
  if (v instanceof Map) {
    for (const [k, x] of v) nonFinite(x, `${p}.${String(k)}`, out, seen);
    return out;
  }
  if (Array.isArray(v)) v.forEach((x, i) => nonFinite(x, `${p}[${i}]`, out, seen));
  else for (const [k, x] of Object.entries(v)) nonFinite(x, `${p}.${k}`, out, seen);
  return out;
}

/** Strings holding a lone surrogate or U+FFFD, as paths. */
export function badStrings(v: unknown, p = "$", out: string[] = []): string[] {
  if (out.length >= 4) return out;
  if (typeof v === "string") {
    if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\ufffd/.test(v)) {
      out.push(`${p} = ${JSON.stringify(v.slice(0, 30))}`);
    }
    return out;
  }
  if (v === null || typeof v !== "object" || ArrayBuffer.isView(v)) return out;
  if (Array.isArray(v)) v.forEach((x, i) => badStrings(x, `${p}[${i}]`, out));
  else for (const [k, x] of Object.entries(v)) badStrings(x, `${p}.${k}`, out);
  return out;
}

/**
 * Duplicate keys in a JSON text (JSON.parse keeps the last silently). A small string-aware
 * scan, separate from src/codec/json_strict.ts on purpose.
 */
export function duplicateKeys(text: string): string[] {
  const out: string[] = [];
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length && out.length < 4;) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const raw = text.slice(i, j + 1);
      i = j + 1;
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        let k = raw;
        try {
          k = JSON.parse(raw);
        } catch { /* keep raw */ }
        if (top.has(k)) out.push(k);
        top.add(k);
        expectKey = false;
      }
      continue;
    }
    if (c === "{") {
      stack.push(new Set());
      expectKey = true;
    } else if (c === "[") stack.push(null);
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") expectKey = stack.length > 0 && stack[stack.length - 1] !== null;
    i++;
  }
  return out;
}

/** Integer literals of 17+ digits (beyond 2^53, rounded by JSON.parse) outside strings. */
export function inexactIntegers(text: string): boolean {
  const bare = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return /(^|[^0-9.eE+-])-?\d{17,}(?![.eE\d])/.test(bare);
}

/** True when the bytes are valid UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Every JSON-level rule at once for an accepted JSON input. */
export function jsonProblems(bytes: Uint8Array, text: string, decoded: unknown): string[] {
  const out: string[] = [];
  if (!isUtf8(bytes)) out.push("invalid UTF-8 accepted");
  const d = duplicateKeys(text);
  if (d.length) {
    out.push(`duplicate key(s) ${d.map((k) => JSON.stringify(k.slice(0, 30))).join(", ")}`);
  }
  if (inexactIntegers(text)) out.push("integer literal beyond 2^53 accepted");
  out.push(...nonFinite(decoded).map((x) => `non-finite ${x}`));
  out.push(...badStrings(decoded).map((x) => `bad string ${x}`));
  return out;
}

/** A zone name no baker writes: empty, control characters, outer white space. */
export function badName(s: string): boolean {
  // deno-lint-ignore no-control-regex
  return s === "" || s.trim() !== s || /[\x00-\x1f\x7f-\x9f]/.test(s);
}
