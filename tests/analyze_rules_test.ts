/**
 * Classification: every class from fixture lines (navigator lines with the real planner's
 * Chinese strings, navscope plan lines with planner codes), the expander's deck-leg rule, and
 * rules files (override, extension, validation errors with JSON paths).
 */
import { assert, assertEquals, assertRejects, assertThrows } from "./assert.ts";
import { parseLogText } from "../src/logs/parser.ts";
import { FailureCollector } from "../src/analyze/log_collectors.ts";
import type { Failure } from "../src/analyze/log_collectors.ts";
import { EMPTY_FACTS, FAILURE_CLASSES } from "../src/analyze/classes.ts";
import type { FailureFacts } from "../src/analyze/classes.ts";
import {
  classifyFailure,
  compileRulesDocument,
  DEFAULT_RULES,
  loadRulesFile,
} from "../src/analyze/rules.ts";
import { NavscopeError } from "../src/errors.ts";
import { failuresLog } from "./fixtures/analyze/make_fixtures.ts";

const FIXTURE = new URL("./fixtures/analyze/failures.log", import.meta.url);

function failuresOf(text: string, file = "failures.log"): Failure[] {
  const { events } = parseLogText(text, file);
  const c = new FailureCollector();
  const out: Failure[] = [];
  for (const ev of events) out.push(...c.add(ev));
  out.push(...c.finish());
  return out;
}

function facts(f: Partial<FailureFacts>): FailureFacts {
  return { ...EMPTY_FACTS, ...f };
}

Deno.test("fixture log on disk equals a fresh generation", async () => {
  assertEquals(await Deno.readTextFile(FIXTURE), failuresLog().text);
});

Deno.test("every fixture failure gets its expected class", async () => {
  const { expect } = failuresLog();
  const got = failuresOf(await Deno.readTextFile(FIXTURE));
  const byLine = new Map(got.map((f) => [f.line, classifyFailure(f.facts).class]));
  assertEquals(got.length, expect.length, "one failure per expected leg");
  for (const e of expect) assertEquals(byLine.get(e.line), e.class, `line ${e.line}`);
  // Every required class is covered by at least one fixture line.
  const required = FAILURE_CLASSES.slice(0, 15);
  const seen = new Set(expect.map((e) => e.class));
  for (const c of required) assert(seen.has(c), `fixture lacks class ${c}`);
});

Deno.test("planner Chinese strings map to classes (no log parser involved)", () => {
  const cases: Array<[string, string]> = [
    ["从起点走不到终点 (端点被禁行边隔开, 可达区距 起 0.0px / 终 9.0px)", "goal_outside_reach"],
    ["起点种子格落在窗外", "seed_outside_window"],
    ["起点格没有与终点同类的面", "no_same_region_span"],
    ["端点接不上可走层 (起 10.0px / 终 0.0px)", "endpoint_far_from_core"],
    ["端点接不上可走层 (起 15.8px / 终 0.0px, 疑似不连通)", "endpoint_far_from_core"],
    ["起点不在网格附近", "snap_far_from_mesh"],
    ["旁包不是配这份主包的 (build_hash/fnv 不符)", "sidecar_unreadable"],
    ["旁包读不出这个区 (map02base): 旁包里没有这个区", "sidecar_unreadable"],
    ["旁包判据版本不符 (3 ≠ 4)", "rules_mismatch"],
    ["类过大 (25000×20000 格)", "region_too_large"],
    ["窗口过大 (9000×9000 格)", "region_too_large"],
    ["规划已取消", "cancelled"],
    ["路线规划已取消", "cancelled"],
    ["规划结果没有可执行路径点", "empty_route"],
    ["未找到 navmesh 区域: map09base", "zone_not_found"],
    ["map09base: zone not found or empty", "zone_not_found"],
    ["预烘格图解不开", "grid_decode_failed"],
    ["预烘格图或旁包解不开", "grid_decode_failed"],
    ["不连通", "route_disconnected"],
    ["目标面不可达 (声明 265.37, 终点格里的面 [263.12, 271.50])", "target_deck_unreachable"],
    ["终点附近没有声明的面 (deck=265.370000)", "target_deck_unreachable"],
    ["起点附近无可走体素 (gx=1,gy=2)", "no_walkable_voxel"],
    ["类内没有格图", "region_empty"],
    ["walk 掩膜为空", "walk_mask_empty"],
    ["剩余盲走距离 40.00px 超过 30.00px 上限", "blind_fallback_failed"],
    ["路线失败", "route_failed"],
    ["端点在禁区内", "no_go"],
    ["完全没见过的错误", "unclassified"],
  ];
  for (const [message, cls] of cases) {
    assertEquals(classifyFailure(facts({ message })).class, cls, message);
  }
});

Deno.test("planner codes map to classes; statuses too", () => {
  for (const c of FAILURE_CLASSES) {
    if (c === "unclassified" || c === "route_failed" || c === "blind_fallback_failed") continue;
    assertEquals(classifyFailure(facts({ code: c })).class, c, c);
  }
  assertEquals(classifyFailure(facts({ status: "zone_not_found" })).class, "zone_not_found");
  assertEquals(classifyFailure(facts({ status: "no_go" })).class, "no_go");
  assertEquals(classifyFailure(facts({ status: "unreachable" })).class, "unclassified");
});

Deno.test("deck-leg rule: gap → route_disconnected, no gap → target_deck_unreachable", () => {
  const msgs = ["不连通", "目标面不可达 (声明 1.00, 终点格里的面 无)", "起点种子格落在窗外", ""];
  for (const message of msgs) {
    assertEquals(
      classifyFailure(facts({ message, deckDeclared: true, gapPresent: true })).class,
      "route_disconnected",
      message,
    );
    assertEquals(
      classifyFailure(facts({ message, deckDeclared: true })).class,
      "target_deck_unreachable",
      message,
    );
  }
  // Without a declared deck the message decides.
  assertEquals(
    classifyFailure(facts({ message: "不连通", gapPresent: true })).class,
    "route_disconnected",
  );
  // no-go, cancellation and data failures are not hidden by the deck rule.
  assertEquals(classifyFailure(facts({ code: "no_go", deckDeclared: true })).class, "no_go");
  assertEquals(
    classifyFailure(facts({ message: "规划已取消", deckDeclared: true, gapPresent: true })).class,
    "cancelled",
  );
  assertEquals(
    classifyFailure(facts({ message: "旁包缺段 FSPN", deckDeclared: true })).class,
    "sidecar_unreadable",
  );
});

Deno.test("rules file: extend, override in place, disable, positions, replace", () => {
  const set = compileRulesDocument({
    version: 1,
    disable: ["route_failed.message"],
    rules: [
      { id: "mine", class: "flaky_sidecar", match: { message: "No such file", zone: "^map02" } },
      { id: "seed_outside_window.message", class: "seed_window", match: { message: "种子格" } },
    ],
  }, "r.json");
  const f = facts({ message: "旁包读不到 (x): No such file", zone: "map02base" });
  assertEquals(classifyFailure(f, set), { class: "flaky_sidecar", rule: "mine" });
  assertEquals(classifyFailure({ ...f, zone: "map01base" }, set).class, "sidecar_unreadable");
  assertEquals(classifyFailure(facts({ message: "起点种子格落在窗外" }), set).class, "seed_window");
  assertEquals(classifyFailure(facts({ message: "路线失败" }), set).class, "unclassified");
  const idx = set.rules.findIndex((r) => r.id === "seed_outside_window.message");
  // replaced in place: one new rule in front, one default disabled after it
  assertEquals(idx, 1 + DEFAULT_RULES.findIndex((r) => r.id === "seed_outside_window.message"));
  assertEquals(set.rules.length, DEFAULT_RULES.length);
  // before/after
  const set2 = compileRulesDocument({
    version: 1,
    rules: [{ id: "b", class: "bb", before: "deck_leg.gap", match: { deck: true, code: "q" } }],
  });
  const at = set2.rules.findIndex((r) => r.id === "b");
  assertEquals(set2.rules[at + 1].id, "deck_leg.gap");
  // replace mode uses only user rules
  const set3 = compileRulesDocument({
    version: 1,
    mode: "replace",
    rules: [{ id: "only", class: "only", match: { status: ["unreachable", "x"] } }],
  });
  assertEquals(set3.rules.length, 1);
  assertEquals(classifyFailure(facts({ message: "不连通" }), set3).class, "unclassified");
  assertEquals(classifyFailure(facts({ status: "unreachable" }), set3).class, "only");
});

Deno.test("rules file validation names the JSON path", () => {
  const cases: Array<[unknown, string]> = [
    [[], "$"],
    [{ version: 2 }, "$.version"],
    [{ version: 1, mode: "merge" }, "$.mode"],
    [{ version: 1, extra: 1 }, "$.extra"],
    [{ version: 1, disable: "x" }, "$.disable"],
    [{ version: 1, disable: ["no.such.rule"] }, "$.disable[0]"],
    [{ version: 1, rules: {} }, "$.rules"],
    [{ version: 1, rules: [5] }, "$.rules[0]"],
    [{ version: 1, rules: [{ id: "", class: "a", match: { code: "x" } }] }, "$.rules[0].id"],
    [
      { version: 1, rules: [{ id: "a", class: "Bad Class", match: { code: "x" } }] },
      "$.rules[0].class",
    ],
    [{ version: 1, rules: [{ id: "a", class: "a", match: {} }] }, "$.rules[0].match"],
    [
      { version: 1, rules: [{ id: "a", class: "a", match: { message: "(" } }] },
      "$.rules[0].match.message",
    ],
    [{ version: 1, rules: [{ id: "a", class: "a", match: { code: 3 } }] }, "$.rules[0].match.code"],
    [
      { version: 1, rules: [{ id: "a", class: "a", match: { code: [] } }] },
      "$.rules[0].match.code",
    ],
    [
      { version: 1, rules: [{ id: "a", class: "a", match: { deck: "yes" } }] },
      "$.rules[0].match.deck",
    ],
    [
      { version: 1, rules: [{ id: "a", class: "a", match: { colour: "x" } }] },
      "$.rules[0].match.colour",
    ],
    [
      { version: 1, rules: [{ id: "a", class: "a", before: "zz", match: { code: "x" } }] },
      "$.rules[0].before",
    ],
    [
      {
        version: 1,
        rules: [{ id: "a", class: "a", before: "x", after: "y", match: { code: "x" } }],
      },
      "$.rules[0]",
    ],
    [
      {
        version: 1,
        rules: [{ id: "a", class: "a", match: { code: "x" } }, {
          id: "a",
          class: "b",
          match: { code: "y" },
        }],
      },
      "$.rules[1].id",
    ],
  ];
  for (const [doc, path] of cases) {
    const e = assertThrows(
      () => compileRulesDocument(doc, "rules.json"),
      NavscopeError,
    ) as NavscopeError;
    assertEquals(e.code, "bad_value", JSON.stringify(doc));
    assertEquals(e.where.section, path, JSON.stringify(doc));
    assertEquals(e.where.file, "rules.json");
    assert(e.message.startsWith("rules.json: " + path), e.message);
  }
});

Deno.test("loadRulesFile: unreadable and malformed JSON are clear errors", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = (await assertRejects(loadRulesFile(`${dir}/none.json`))) as NavscopeError;
    assertEquals(missing.code, "io");
    await Deno.writeTextFile(`${dir}/bad.json`, "{ version: 1 ");
    const bad = (await assertRejects(loadRulesFile(`${dir}/bad.json`))) as NavscopeError;
    assertEquals(bad.code, "bad_value");
    assert(bad.message.includes("not valid JSON"), bad.message);
    await Deno.writeTextFile(`${dir}/ok.json`, JSON.stringify({ version: 1, rules: [] }));
    assertEquals((await loadRulesFile(`${dir}/ok.json`)).rules.length, DEFAULT_RULES.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
