/**
 * The process-wide window gate (src/plan/window/window_gate.ts): windows at or above the threshold
 * run one at a time, a holder re-enters freely (nested plans), small windows never wait, and the
 * holder's scratch takes come from the shared chunk until it leaves.
 * @module
 */
import { assert, assertEquals, assertThrows } from "./assert.ts";
import { windowGateFlag } from "../commands/support/flags.ts";
import { createWindowGateShared, kGateCells, WindowGate } from "../src/plan/window/window_gate.ts";
import { scratch } from "../src/plan/scratch.ts";

const kMin = 1000;

/** Two workers' handles on one shared state (one thread here; the waiter polls on a timer). */
function pair(): [WindowGate, WindowGate] {
  const shared = createWindowGateShared(kMin, 256 << 20);
  return [new WindowGate(shared), new WindowGate(shared)];
}

Deno.test("window gate: a second large window waits until the holder leaves", async () => {
  const [a, b] = pair();
  const order: string[] = [];
  await a.enter(kMin);
  assert(a.held);
  const waiting = b.enter(5 * kMin).then(() => order.push("b entered"));
  // Let the waiter run: it must still be waiting.
  await new Promise((r) => setTimeout(r, 30));
  assertEquals(order, []);
  assert(!b.held);
  order.push("a left");
  a.leave();
  await waiting;
  assertEquals(order, ["a left", "b entered"]);
  assert(b.held && !a.held);
  b.leave();
  assert(!b.held);
});

Deno.test("window gate: small windows and a re-entering holder never wait", async () => {
  const [a, b] = pair();
  await a.enter(kMin);
  // b's small window passes while a holds the gate; a's nested plan re-enters.
  assertEquals(await b.enter(kMin - 1), 0);
  assert(!b.held);
  assertEquals(await a.enter(10 * kMin), 0);
  a.leave();
  a.leave(); // a second leave changes nothing
  await b.enter(kMin);
  assert(b.held);
  b.leave();
});

Deno.test("window gate: the holder takes scratch from the shared chunk, then its own again", async () => {
  const [a] = pair();
  const big = 4 << 20;
  const own = scratch.frame(() => scratch.u8(big).buffer);
  assert(!(own instanceof SharedArrayBuffer));
  await a.enter(kMin);
  assert(scratch.adopted);
  const shared = scratch.frame(() => {
    const t = scratch.u8(big, 7);
    assertEquals(t[big - 1], 7);
    return t.buffer;
  });
  assert(shared instanceof SharedArrayBuffer);
  a.leave();
  assert(!scratch.adopted);
  assertEquals(scratch.frame(() => scratch.u8(big).buffer), own);
});

Deno.test("window gate: --window-gate takes a cell count or off, and refuses anything else", () => {
  assertEquals(windowGateFlag(undefined, "replay"), kGateCells);
  assertEquals(windowGateFlag("1", "replay"), 1);
  assertEquals(windowGateFlag("off", "replay"), Number.POSITIVE_INFINITY);
  for (const bad of ["0", "-5", "1e6", "12x", "", "1.5"]) {
    const e = assertThrows(() => windowGateFlag(bad, "replay"));
    assert(e.message.includes("--window-gate needs a cell count"), e.message);
  }
});
