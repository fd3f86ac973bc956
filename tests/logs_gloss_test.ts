/**
 * English glosses of the planner's Chinese messages (src/logs/message_gloss.ts): known messages read as
 * intended, numbers stay in place, text without Chinese has no gloss, and every Chinese message
 * or reason the planner can emit (every Chinese string literal in src/plan/) glosses with no
 * Chinese left over.
 */
import { assert, assertEquals } from "./assert.ts";
import { gloss, GLOSSARY, hasCjk, unglossed } from "../src/logs/message_gloss.ts";

Deno.test("gloss: planner messages and reasons in English, numbers kept", () => {
  assertEquals(gloss("不连通"), "disconnected");
  assertEquals(gloss("类过大 (129×129 格)"), "region too large (129×129 cells)");
  assertEquals(
    gloss("从起点走不到终点 (端点在可走面上, 可达区距 起 0.0px / 终 20.2px)"),
    "goal not reachable from the start (endpoints on walkable spans, distance to the reach " +
      "domain: start 0.0px / goal 20.2px)",
  );
  assertEquals(
    gloss("目标面不可达 (声明 6.00, 终点格里的面 [0.00, 6.00])"),
    "declared deck unreachable (declared 6.00, spans in the goal cell [0.00, 6.00])",
  );
  assertEquals(gloss("walk 断开→退回 core"), "walk broken → falls back to core");
  assertEquals(
    gloss("搜索碰边→整类窗口"),
    "search reaches the window edge → full window",
  );
  assertEquals(gloss("route ok"), "");
  assert(!hasCjk("walk"));
  // Unknown Chinese is kept, never dropped.
  assertEquals(unglossed("不连通 鑫"), "鑫");
  // Every phrase glosses to plain English.
  for (const [k, v] of Object.entries(GLOSSARY)) {
    assert(hasCjk(k) && !hasCjk(v), `${k} → ${v}`);
  }
});

/** Chinese string literals (quotes and template parts) of a TypeScript source, comments removed. */
function chineseLiterals(src: string): string[] {
  const code = src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const out: string[] = [];
  for (const m of code.matchAll(/"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
    const s = (m[1] ?? m[2]).replace(/\$\{[^}]*\}/g, " 0 ");
    if (hasCjk(s)) out.push(s);
  }
  return out;
}

async function* tsFiles(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) yield* tsFiles(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

Deno.test("gloss: every Chinese message and reason of the planner has a full gloss", async () => {
  const root = new URL("../src/plan", import.meta.url).pathname;
  const missing: string[] = [];
  let n = 0;
  for await (const f of tsFiles(root)) {
    // counters.ts and profile.ts describe each counter, sub-stage and switch in English, citing
    // the spec's section names in Chinese: descriptions, not planner messages.
    if (f.endsWith("/counters.ts") || f.endsWith("/profile.ts")) continue;
    for (const s of chineseLiterals(await Deno.readTextFile(f))) {
      n++;
      const left = unglossed(s);
      if (left) missing.push(`${f.slice(root.length + 1)}: ${s} (left: ${left})`);
    }
  }
  assert(n >= 40, `found only ${n} Chinese literals: the scan is broken`);
  assertEquals(missing, []);
});
