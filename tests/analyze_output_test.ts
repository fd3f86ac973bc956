/**
 * Output helpers of the analytics commands: number formatting, CSV quoting, Markdown escaping
 * and padding (fmt-stable), no colour off a TTY, NO_COLOR, and the progress line.
 */
import { assert, assertEquals } from "./assert.ts";
import {
  captureOutput,
  colorEnabled,
  csvField,
  displayWidth,
  fmtNum,
  io,
  Progress,
  renderCsv,
  renderMarkdown,
  renderText,
} from "../commands/support/terminal.ts";

Deno.test("fmtNum: decimals by magnitude, trailing zeros dropped, '-' for missing", () => {
  assertEquals(
    [1.234, 0.07, 31.82, 114.04, 1758.5, 2293, -0, null, NaN, 0.005].map((v) => fmtNum(v)),
    ["1.23", "0.07", "31.8", "114", "1759", "2293", "0", "-", "-", "0.01"],
  );
});

Deno.test("CSV quoting (RFC 4180) and Markdown escaping", () => {
  assertEquals(csvField("a,b"), '"a,b"');
  assertEquals(csvField('say "x"'), '"say ""x"""');
  assertEquals(csvField("plain"), "plain");
  const t = [{ title: "T", head: ["k", "n"], rows: [["a|b, c", 1]] }];
  assertEquals(renderCsv(t), '# T\nk,n\n"a|b, c",1\n');
  assertEquals(
    renderMarkdown(t),
    "### T\n\n| k       |   n |\n| ------- | --: |\n| a\\|b, c |   1 |\n",
  );
});

Deno.test("display width counts CJK as two columns", () => {
  assertEquals(displayWidth("walk 断开"), 9);
  assertEquals(displayWidth("abc"), 3);
  assertEquals(displayWidth("×"), 1);
});

Deno.test("no colour off a TTY; NO_COLOR disables colour on a TTY", async () => {
  const t = [{ title: "T", head: ["a"], rows: [["x"]] }];
  assert(!renderText(t, false).includes("\x1b["));
  assert(renderText(t, true).includes("\x1b["));
  const r = await captureOutput(() => Promise.resolve(colorEnabled(io.out)));
  assertEquals(r.value, false);
  const tty = { write: () => {}, isTerminal: true };
  const old = Deno.env.get("NO_COLOR");
  try {
    Deno.env.set("NO_COLOR", "1");
    assertEquals(colorEnabled(tty), false);
    Deno.env.delete("NO_COLOR");
    assertEquals(colorEnabled(tty), true);
  } finally {
    if (old !== undefined) Deno.env.set("NO_COLOR", old);
  }
});

Deno.test("progress: silent off a TTY; draws and erases when on", async () => {
  const off = await captureOutput(() => {
    const p = new Progress();
    p.update(0.5, "x", true);
    p.done();
    return Promise.resolve(0);
  });
  assertEquals(off.err, "");
  const on = await captureOutput(() => {
    const p = new Progress(true);
    p.update(0.5, "1/2 files", true);
    p.done();
    return Promise.resolve(0);
  });
  assert(on.err.startsWith("\r[############------------]  50% 1/2 files"), JSON.stringify(on.err));
  assert(on.err.endsWith("\r\x1b[K"));
  assertEquals(on.out, "");
});
