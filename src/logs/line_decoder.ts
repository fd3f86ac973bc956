/**
 * UTF-8 bytes to text, cut at line ends. A log is decoded in whole lines: the bytes up to the
 * last LF of a chunk go through the decoder's one-shot path (native, no streaming state — the
 * streaming `decode(…, { stream: true })` costs several times more per byte in Deno), and the
 * bytes after it wait for the next chunk. LF (0x0A) never occurs inside a UTF-8 sequence, so a
 * cut there splits no character and the text is exactly what one streaming decode of the whole
 * file gives (same U+FFFD for the same invalid bytes, WHATWG Encoding §4.1).
 *
 * A line longer than `maxHold` bytes is not held whole (memory stays bounded on a 130-MB file
 * without a newline): its bytes go through a second, streaming decoder until its LF, after
 * which that decoder holds no state again.
 *
 * The byte-order mark is kept (`ignoreBOM`): the line processor drops it from line 1, so a
 * U+FEFF elsewhere is not silently removed at an arbitrary chunk start.
 * @module
 */

const LF = 10;
const EMPTY = new Uint8Array(0);

/** Default: bytes of one unfinished line held before it is streamed instead. */
export const DEFAULT_MAX_HOLD = 1 << 22;

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Decodes a byte stream chunk by chunk into text pieces that end at line ends. */
export class LineTextDecoder {
  #oneShot = new TextDecoder("utf-8", { ignoreBOM: true });
  #stream = new TextDecoder("utf-8", { ignoreBOM: true });
  #held: Uint8Array = EMPTY;
  #streaming = false;
  readonly #maxHold: number;

  /** `maxHold`: longest unfinished line kept as bytes (default 4 MiB). */
  constructor(maxHold = DEFAULT_MAX_HOLD) {
    this.#maxHold = maxHold;
  }

  /** Decodes `chunk`; calls `out` with each text piece (possibly none), in order. */
  decode(chunk: Uint8Array, out: (text: string) => void): void {
    const last = chunk.lastIndexOf(LF);
    if (last < 0) return this.#hold(chunk, out);
    let start = 0;
    if (this.#streaming || this.#held.length > 0) {
      // The line that crosses from the previous chunk, up to its LF.
      const first = chunk.indexOf(LF);
      const head = chunk.subarray(0, first + 1);
      if (this.#streaming) {
        out(this.#stream.decode(head, { stream: true }));
        this.#streaming = false; // after an LF the streaming decoder holds no partial character
      } else {
        out(this.#oneShot.decode(concat(this.#held, head)));
        this.#held = EMPTY;
      }
      start = first + 1;
    }
    if (last + 1 > start) out(this.#oneShot.decode(chunk.subarray(start, last + 1)));
    if (last + 1 < chunk.length) this.#hold(chunk.slice(last + 1), out);
  }

  #hold(bytes: Uint8Array, out: (text: string) => void): void {
    if (this.#streaming) return out(this.#stream.decode(bytes, { stream: true }));
    if (this.#held.length + bytes.length <= this.#maxHold) {
      this.#held = this.#held.length === 0 ? bytes : concat(this.#held, bytes);
      return;
    }
    // A very long line: stream it from here on (its text is cut by the line cap anyway).
    out(this.#stream.decode(this.#held, { stream: true }));
    this.#held = EMPTY;
    out(this.#stream.decode(bytes, { stream: true }));
    this.#streaming = true;
  }

  /** Ends the input: the text of the last line without an LF (a cut character → U+FFFD). */
  end(): string {
    if (this.#streaming) {
      this.#streaming = false;
      return this.#stream.decode();
    }
    const t = this.#held.length > 0 ? this.#oneShot.decode(this.#held) : "";
    this.#held = EMPTY;
    return t;
  }
}
