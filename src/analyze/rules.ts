/**
 * Ordered classification rules: the first rule whose every condition holds names the class;
 * a failure no rule matches is `unclassified`.
 *
 * The default set covers navscope's own plan codes (a code equal to a class name, plus the
 * expander's codes from maaend-runlogs.md §3) and the real planner's Chinese error strings
 * (maaend-runlogs.md §2). Order matters and follows the expander (spec 失败的情形, 展开器的处理):
 *
 * 1. no-go failures first — the expander ends the leg as `route_no_go` before anything else;
 * 2. cancellation;
 * 3. data/configuration failures (zone, pack, sidecar, rules, grid decode) — they are not about
 *    the leg, so the deck-leg rule below must not hide them;
 * 4. **the deck-leg rule**: a leg that declared a goal deck is classified by the gap — both gap
 *    ends present → `route_disconnected`, otherwise `target_deck_unreachable` (also when the goal
 *    cell has no declared surface, so no gap could be located);
 * 5. the remaining planner strings and codes, most specific first;
 * 6. route status fallbacks.
 * @module
 */
import { NavscopeError } from "../errors.ts";
import { parseJson } from "../codec/json.ts";
import { readTextStrict } from "../codec/json_strict.ts";
import type { FailureFacts } from "./classes.ts";
import { FAILURE_CLASSES, UNCLASSIFIED } from "./classes.ts";
import {
  compileRunCauseRules,
  DEFAULT_RUN_CAUSE_RULES,
  type RunCauseRule,
} from "./run_cause_rules.ts";

/** Conditions of one rule; every condition given must hold (logical AND). */
export interface RuleMatch {
  /** Regular expression searched in the error text. */
  message?: RegExp;
  /** Exact codes (any of). */
  code?: readonly string[];
  /** Exact route statuses (any of). */
  status?: readonly string[];
  /** Regular expression searched in the navigator message. */
  event?: RegExp;
  /** Exact log levels (any of). */
  level?: readonly string[];
  /** Regular expression searched in the zone name. */
  zone?: RegExp;
  /** Required value of `deckDeclared`. */
  deck?: boolean;
  /** Required value of `gapPresent`. */
  gap?: boolean;
}

/** One compiled rule. */
export interface Rule {
  /** Stable id (user rules with the same id replace the default). */
  id: string;
  /** Class the rule assigns. */
  class: string;
  /** Conditions. An empty match matches everything. */
  match: RuleMatch;
  /** Why the rule exists (spec reference); shown by docs only. */
  note?: string;
}

/** An ordered, compiled rule set. */
export interface RuleSet {
  /** Rules in the order they are tried. */
  rules: readonly Rule[];
  /**
   * Run-cause rules (src/analyze/run_cause_rules.ts), when the rules file has `run_causes`;
   * absent: the default run-cause rules.
   */
  runCauses?: readonly RunCauseRule[];
}

/**
 * Classes whose code alone says too little: the planner's catch-all `route_failed` and the
 * blind fallback are refined by their message (rules 5–6), and no code names `unclassified`.
 */
const GENERIC_CLASSES: ReadonlySet<string> = new Set([
  "route_failed",
  "blind_fallback_failed",
  UNCLASSIFIED,
]);

function re(s: string): RegExp {
  return new RegExp(s);
}

/** The built-in rules, in the order they are tried (see the module comment). */
export const DEFAULT_RULES: readonly Rule[] = [
  // 1. no-go (spec 作者禁区: "报端点在禁区内,并置 no_go"; expander code route_no_go).
  { id: "no_go.code", class: "no_go", match: { code: ["no_go", "route_no_go", "NoGo"] } },
  { id: "no_go.status", class: "no_go", match: { status: ["no_go"] } },
  { id: "no_go.message", class: "no_go", match: { message: re("禁区内|在作者禁区") } },
  // 2. cancelled: planner `规划已取消`, expander `路线规划已取消`.
  { id: "cancelled.code", class: "cancelled", match: { code: ["cancelled"] } },
  { id: "cancelled.message", class: "cancelled", match: { message: re("规划已取消") } },
  // 3. data and configuration failures.
  {
    id: "zone_not_found.code",
    class: "zone_not_found",
    match: { code: ["zone_not_found", "zone_unresolved"] },
  },
  { id: "zone_not_found.status", class: "zone_not_found", match: { status: ["zone_not_found"] } },
  {
    id: "zone_not_found.message",
    class: "zone_not_found",
    match: {
      message: re(
        "未找到 navmesh 区域|zone not found or empty|未知 zone|区没有预烘格图|" +
          "找不到当前区域的 navmesh|推断 navmesh 区域",
      ),
    },
  },
  {
    id: "rules_mismatch.code",
    class: "rules_mismatch",
    match: { code: ["rules_mismatch", "constants_mismatch"] },
  },
  {
    id: "rules_mismatch.message",
    class: "rules_mismatch",
    match: { message: re("旁包判据版本不符|旁包的判据常数与运行期不符") },
  },
  {
    id: "grid_decode_failed.code",
    class: "grid_decode_failed",
    match: { code: ["grid_decode_failed"] },
  },
  {
    id: "grid_decode_failed.message",
    class: "grid_decode_failed",
    match: { message: re("预烘格图解不开|预烘格图或旁包解不开|包里没有预烘格图段") },
  },
  {
    id: "sidecar_unreadable.code",
    class: "sidecar_unreadable",
    match: { code: ["sidecar_unreadable"] },
  },
  // Every other FIELDS load/consistency message starts with 旁包 (maaend-runlogs.md §2).
  { id: "sidecar_unreadable.message", class: "sidecar_unreadable", match: { message: re("旁包") } },
  // A pack-load line whose message named no data class above.
  {
    id: "pack_load_failed.code",
    class: "pack_load_failed",
    match: { code: ["pack_load_failed", "navmesh_load_failed"] },
  },
  {
    id: "pack_load_failed.message",
    class: "pack_load_failed",
    match: { message: re("navmesh 加载失败|无法加载区域 .* 的 navmesh 数据|load navmesh failed") },
  },
  {
    id: "pack_load_failed.event",
    class: "pack_load_failed",
    match: { event: re("^navmesh_load_failed$") },
  },
  // 4. the expander's deck-leg rule (spec 展开器的处理).
  {
    id: "deck_leg.gap",
    class: "route_disconnected",
    match: { deck: true, gap: true },
    note: "declared deck, both gap ends located",
  },
  {
    id: "deck_leg.no_gap",
    class: "target_deck_unreachable",
    match: { deck: true },
    note: "declared deck, no gap (also: no declared surface in the goal cell)",
  },
  // 5. planner strings and codes.
  {
    id: "codes.direct",
    class: "$code",
    match: {
      // Codes of the earlier rules (no-go, cancelled, data) never reach this one.
      code: FAILURE_CLASSES.filter((c) => !GENERIC_CLASSES.has(c)),
    },
    note: "a planner code equal to a class name names that class",
  },
  {
    id: "endpoint_far_from_core.message",
    class: "endpoint_far_from_core",
    match: { message: re("端点接不上可走层") },
  },
  {
    id: "goal_outside_reach.message",
    class: "goal_outside_reach",
    match: { message: re("从起点走不到终点") },
  },
  {
    id: "seed_outside_window.message",
    class: "seed_outside_window",
    match: { message: re("起点种子格落在窗外") },
  },
  {
    id: "no_same_region_span.message",
    class: "no_same_region_span",
    match: { message: re("起点格没有与终点同类的面") },
  },
  {
    id: "snap_far_from_mesh.message",
    class: "snap_far_from_mesh",
    match: { message: re("[起终]点不在网格附近|盲走预算内找不到可走网格") },
  },
  {
    id: "region_too_large.message",
    class: "region_too_large",
    match: { message: re("类过大|窗口过大") },
  },
  {
    id: "target_deck_unreachable.message",
    class: "target_deck_unreachable",
    match: {
      message: re("目标面不可达|无法抵达指定目标面|没有未封堵的声明面|终点附近没有声明的面"),
    },
  },
  {
    id: "route_disconnected.message",
    class: "route_disconnected",
    match: { message: re("(?:^|与起点|：|: )\\s*不连通") },
  },
  {
    id: "no_walkable_voxel.message",
    class: "no_walkable_voxel",
    match: { message: re("起点附近无可走体素|起点格无体素") },
  },
  { id: "region_empty.message", class: "region_empty", match: { message: re("类内没有格图") } },
  {
    id: "walk_mask_empty.message",
    class: "walk_mask_empty",
    match: { message: re("walk 掩膜为空") },
  },
  {
    id: "empty_route.message",
    class: "empty_route",
    match: { message: re("没有可执行路径?点|没有生成有效路线|returned an empty path") },
  },
  {
    id: "empty_route.event",
    class: "empty_route",
    match: { event: re("NAVMESH planning returned an empty path") },
  },
  {
    id: "blind_fallback_failed.message",
    class: "blind_fallback_failed",
    match: { message: re("目标附近探测超过|没有与起点连通的网格接近点|剩余盲走距离|盲走兜底失败") },
  },
  {
    id: "unknown_target_tier.message",
    class: "unknown_target_tier",
    match: { message: re("坐标层级不存在|target_tier is unknown") },
  },
  { id: "route_failed.message", class: "route_failed", match: { message: re("^路线失败") } },
];

/** The default rule set. */
export const DEFAULT_RULE_SET: RuleSet = { rules: DEFAULT_RULES };

function matchOne(m: RuleMatch, f: FailureFacts): boolean {
  if (m.deck !== undefined && m.deck !== f.deckDeclared) return false;
  if (m.gap !== undefined && m.gap !== f.gapPresent) return false;
  if (m.code && !m.code.includes(f.code)) return false;
  if (m.status && !m.status.includes(f.status)) return false;
  if (m.level && !m.level.includes(f.level)) return false;
  if (m.message && !m.message.test(f.message)) return false;
  if (m.event && !m.event.test(f.event)) return false;
  if (m.zone && !m.zone.test(f.zone)) return false;
  return true;
}

/** Result of classifying one failure: the class and the id of the rule that decided it. */
export interface Verdict {
  /** Class name (`unclassified` when no rule matched). */
  class: string;
  /** Id of the deciding rule, or "" for the catch-all. */
  rule: string;
}

/**
 * Classifies one failure: the first matching rule wins. A rule whose class is `$code` assigns
 * the failure's own code (used for planner codes that already are class names).
 */
export function classifyFailure(facts: FailureFacts, set: RuleSet = DEFAULT_RULE_SET): Verdict {
  for (const r of set.rules) {
    if (matchOne(r.match, facts)) {
      return { class: r.class === "$code" ? facts.code : r.class, rule: r.id };
    }
  }
  return { class: UNCLASSIFIED, rule: "" };
}

// ---------------------------------------------------------------------------------------------
// User rules files.

/** The documented JSON shape of a rules file (see README "Classification rules file"). */
export interface RulesFileJson {
  /** Must be 1. */
  version: 1;
  /** `extend` (default): user rules are merged into the defaults; `replace`: only user rules. */
  mode?: "extend" | "replace";
  /** Default rule ids to drop. */
  disable?: string[];
  /** Run-cause rules (docs/run_causes.md), merged with the defaults. */
  run_causes?: Array<{ id: string; cause: string; match: Record<string, string | string[]> }>;
  /** User rules. */
  rules?: Array<{
    id: string;
    class: string;
    before?: string;
    after?: string;
    match: {
      message?: string;
      event?: string;
      zone?: string;
      code?: string | string[];
      status?: string | string[];
      level?: string | string[];
      deck?: boolean;
      gap?: boolean;
    };
  }>;
}

const CLASS_RE = /^[a-z][a-z0-9_]*$/;
const MATCH_KEYS = ["message", "event", "zone", "code", "status", "level", "deck", "gap"];

function bad(file: string, path: string, what: string, expected?: string): NavscopeError {
  return new NavscopeError("bad_value", what, { file, section: path }, expected);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkKeys(file: string, path: string, o: Record<string, unknown>, allowed: string[]) {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) {
      throw bad(file, `${path}.${k}`, `unknown key "${k}"`, `one of ${allowed.join(", ")}`);
    }
  }
}

function regexAt(file: string, path: string, v: unknown): RegExp {
  if (typeof v !== "string") {
    throw bad(file, path, `got ${typeof v}`, "a regular expression string");
  }
  try {
    return new RegExp(v);
  } catch (e) {
    throw bad(file, path, `invalid regular expression: ${(e as Error).message}`);
  }
}

function stringsAt(file: string, path: string, v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string")) return v;
  throw bad(file, path, `got ${JSON.stringify(v)}`, "a string or a non-empty array of strings");
}

function boolAt(file: string, path: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw bad(file, path, `got ${JSON.stringify(v)}`, "true or false");
  return v;
}

function compileMatch(file: string, path: string, v: unknown): RuleMatch {
  if (!isObj(v)) throw bad(file, path, `got ${JSON.stringify(v)}`, "an object of conditions");
  checkKeys(file, path, v, MATCH_KEYS);
  const m: RuleMatch = {};
  if (v.message !== undefined) m.message = regexAt(file, `${path}.message`, v.message);
  if (v.event !== undefined) m.event = regexAt(file, `${path}.event`, v.event);
  if (v.zone !== undefined) m.zone = regexAt(file, `${path}.zone`, v.zone);
  if (v.code !== undefined) m.code = stringsAt(file, `${path}.code`, v.code);
  if (v.status !== undefined) m.status = stringsAt(file, `${path}.status`, v.status);
  if (v.level !== undefined) m.level = stringsAt(file, `${path}.level`, v.level);
  if (v.deck !== undefined) m.deck = boolAt(file, `${path}.deck`, v.deck);
  if (v.gap !== undefined) m.gap = boolAt(file, `${path}.gap`, v.gap);
  if (Object.keys(m).length === 0) {
    throw bad(file, path, "empty match would catch every failure", "at least one condition");
  }
  return m;
}

interface UserRule {
  rule: Rule;
  before?: string;
  after?: string;
  path: string;
}

function compileUserRule(file: string, path: string, v: unknown): UserRule {
  if (!isObj(v)) throw bad(file, path, `got ${JSON.stringify(v)}`, "a rule object");
  checkKeys(file, path, v, ["id", "class", "match", "before", "after", "note"]);
  if (typeof v.id !== "string" || v.id === "") {
    throw bad(file, `${path}.id`, `got ${JSON.stringify(v.id)}`, "a non-empty string");
  }
  if (typeof v.class !== "string" || !CLASS_RE.test(v.class)) {
    throw bad(
      file,
      `${path}.class`,
      `got ${JSON.stringify(v.class)}`,
      "a class name [a-z][a-z0-9_]*",
    );
  }
  if (v.before !== undefined && v.after !== undefined) {
    throw bad(file, path, "both before and after given", "at most one of them");
  }
  for (const k of ["before", "after", "note"] as const) {
    if (v[k] !== undefined && typeof v[k] !== "string") {
      throw bad(file, `${path}.${k}`, `got ${JSON.stringify(v[k])}`, "a string");
    }
  }
  const rule: Rule = {
    id: v.id,
    class: v.class,
    match: compileMatch(file, `${path}.match`, v.match),
  };
  if (typeof v.note === "string") rule.note = v.note;
  return {
    rule,
    before: v.before as string | undefined,
    after: v.after as string | undefined,
    path,
  };
}

/**
 * Validates a parsed rules-file document and merges it with `base` (the defaults).
 *
 * Merge: in `extend` mode, ids in `disable` are removed; a user rule whose id equals an existing
 * rule replaces it in place; a new rule goes before/after the named rule, or — without a
 * position — before all defaults, so user rules win. In `replace` mode only user rules are used.
 * Errors are `bad_value` NavscopeErrors whose section is the JSON path (`$.rules[2].match.code`).
 */
export function compileRulesDocument(
  doc: unknown,
  file = "<rules>",
  base: readonly Rule[] = DEFAULT_RULES,
): RuleSet {
  if (!isObj(doc)) throw bad(file, "$", "rules file is not a JSON object", '{"version":1,…}');
  checkKeys(file, "$", doc, [
    "version",
    "mode",
    "disable",
    "rules",
    "run_causes",
    "$schema",
    "comment",
  ]);
  if (doc.version !== 1) {
    throw bad(file, "$.version", `got ${JSON.stringify(doc.version)}`, "1");
  }
  const mode = doc.mode ?? "extend";
  if (mode !== "extend" && mode !== "replace") {
    throw bad(file, "$.mode", `got ${JSON.stringify(doc.mode)}`, '"extend" or "replace"');
  }
  const disable = doc.disable === undefined ? [] : doc.disable;
  if (!Array.isArray(disable) || !disable.every((x) => typeof x === "string")) {
    throw bad(file, "$.disable", `got ${JSON.stringify(doc.disable)}`, "an array of rule ids");
  }
  const rawRules = doc.rules === undefined ? [] : doc.rules;
  if (!Array.isArray(rawRules)) {
    throw bad(file, "$.rules", `got ${JSON.stringify(doc.rules)}`, "an array of rules");
  }
  const user = rawRules.map((r, i) => compileUserRule(file, `$.rules[${i}]`, r));
  const seen = new Set<string>();
  for (const u of user) {
    if (seen.has(u.rule.id)) throw bad(file, `${u.path}.id`, `duplicate rule id "${u.rule.id}"`);
    seen.add(u.rule.id);
  }
  let rules: Rule[] = mode === "replace" ? [] : [...base];
  // `disable` may also name default run-cause rules (docs/run_causes.md).
  const causeIds = new Set(DEFAULT_RUN_CAUSE_RULES.map((r) => r.id));
  const offCauses = disable.filter((id) => causeIds.has(id) && !rules.some((r) => r.id === id));
  disable.forEach((id, i) => {
    if (offCauses.includes(id)) return;
    if (mode === "extend" && !rules.some((r) => r.id === id)) {
      throw bad(file, `$.disable[${i}]`, `no default rule "${id}"`, "an id of a default rule");
    }
    rules = rules.filter((r) => r.id !== id);
  });
  const front: Rule[] = [];
  for (const u of user) {
    const at = rules.findIndex((r) => r.id === u.rule.id);
    if (at >= 0) {
      rules[at] = u.rule;
      continue;
    }
    const anchor = u.before ?? u.after;
    if (anchor === undefined) {
      front.push(u.rule);
      continue;
    }
    const ai = rules.findIndex((r) => r.id === anchor);
    if (ai < 0) {
      const key = u.before !== undefined ? "before" : "after";
      throw bad(
        file,
        `${u.path}.${key}`,
        `no rule "${anchor}"`,
        "the id of an earlier or default rule",
      );
    }
    rules.splice(u.before !== undefined ? ai : ai + 1, 0, u.rule);
  }
  const out: RuleSet = { rules: [...front, ...rules] };
  // Run causes (docs/run_causes.md): always merged with the default run-cause rules.
  if (doc.run_causes !== undefined || offCauses.length > 0) {
    out.runCauses = compileRunCauseRules(doc.run_causes, file)
      .filter((r) => !offCauses.includes(r.id) || !DEFAULT_RUN_CAUSE_RULES.includes(r));
  }
  return out;
}

/** Reads, parses and compiles a rules file (JSON). Syntax errors name the file. */
export async function loadRulesFile(path: string): Promise<RuleSet> {
  const doc = parseJson(await readTextStrict(path), { file: path }, "rules file is not valid JSON");
  return compileRulesDocument(doc, path);
}
