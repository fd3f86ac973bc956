/**
 * A parse worker: decodes a block of whole lines and reads them with a collect-mode
 * {@link LogLineProcessor}; the owner absorbs the result in block order, so pairing and every
 * count are what one thread reading the file gives (see `parse_pool.ts`).
 * @module
 */
/// <reference lib="deno.worker" />
import { emptyFileReport, emptyReport, LogLineProcessor, pushText } from "./parser.ts";
import type { BlockReply, BlockRequest } from "./parse_pool.ts";

// One-shot decoding of whole lines; the byte-order mark is left to the processor (line_decoder.ts).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

self.onmessage = (ev: MessageEvent<BlockRequest | { type: "close" }>) => {
  const m = ev.data;
  if (m.type === "close") return self.close();
  let reply: BlockReply;
  try {
    const p = new LogLineProcessor(m.opts, emptyReport(), true);
    const rep = emptyFileReport(m.file);
    rep.role = m.role;
    p.beginFile(rep, m.atStart);
    pushText(p, decoder.decode(m.bytes));
    if (m.last) p.endFile(m.damaged);
    reply = { type: "result", id: m.id, result: p.takeBlock() };
  } catch (e) {
    reply = { type: "error", id: m.id, message: (e as Error).stack ?? String(e) };
  }
  self.postMessage(reply);
};
