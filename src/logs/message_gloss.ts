/**
 * English glosses of the planner's Chinese messages and escalation reasons. The logs carry the
 * planner's error text verbatim (maaend-runlogs.md §2 "Planner error strings", "Tier notes",
 * "Warnings"); the report keeps that wording and shows the gloss beside it, so a reader without
 * Chinese (or without a CJK font) still sees what failed.
 *
 * A gloss is built phrase by phrase: the longest known phrase at each position is replaced by
 * its English (names from the spec glossary, spec/README.md "Glossary": region, span, reach
 * domain, declared deck, fields sidecar, …), everything else (numbers, ASCII words such as
 * `walk`, `core`, `navmesh`) is kept. Unknown Chinese text stays as it is, so a gloss never
 * hides a word; {@link unglossed} lists what is left.
 * @module
 */

/**
 * Phrase → English. Whole messages first where the word-by-word reading would be clumsy, then
 * the words they are made of. Sources: the planner's messages (maaend-runlogs.md §2 table), the
 * tier notes (reasons and the `→整类窗口` suffix), warnings, sidecar load errors and the route
 * expander's messages (§3).
 */
export const GLOSSARY: Readonly<Record<string, string>> = {
  // Planner errors (maaend-runlogs.md §2 "Planner error strings").
  "包里没有预烘格图段": "the pack has no grid section",
  "区没有预烘格图": "the zone has no baked grid",
  "旁包读不出这个区": "the fields sidecar cannot read this zone",
  "旁包里没有这个区": "the fields sidecar has no such zone",
  "起点不在网格附近": "start not near the mesh",
  "终点不在网格附近": "goal not near the mesh",
  "端点接不上可走层": "endpoint does not reach the walkable core",
  "疑似不连通": "probably disconnected",
  "预烘格图解不开": "the baked grid cannot be decoded",
  "预烘格图或旁包解不开": "the baked grid or the fields sidecar cannot be decoded",
  "起点附近无可走体素": "no walkable voxel near the start",
  "起点格无体素": "no voxel in the start cell",
  "终点附近没有声明的面": "no declared deck near the goal",
  "类内没有格图": "the region has no grid",
  "类过大": "region too large",
  "窗口过大": "window too large",
  "规划已取消": "planning cancelled",
  "路线规划已取消": "route planning cancelled",
  "起点种子格落在窗外": "the start's seed cell lies outside the window",
  "旁包留墙表没有这条边": "the fields sidecar's kept-wall table lacks this edge",
  "起点格没有与终点同类的面": "the start cell has no span in the goal's region",
  "旁包分量图里没有起点面所在的分量":
    "the fields sidecar's component graph lacks the start span's component",
  "旁包分量号越界": "fields sidecar component id out of range",
  "掩膜为空": "mask empty",
  "窗口里没有可吸附的格": "no cell in the window to snap to",
  "目标附近没有未封堵的声明面": "no unblocked declared deck near the goal",
  "没有未封堵的声明面": "no unblocked declared deck",
  "不连通": "disconnected",
  "目标面不可达": "declared deck unreachable",
  "声明": "declared",
  "终点格里的面": "spans in the goal cell",
  "从起点走不到终点": "goal not reachable from the start",
  "端点被禁行边隔开": "endpoints cut off by step bans",
  "端点在可走面上": "endpoints on walkable spans",
  "被禁行边隔开": "cut off by step bans",
  "在可走面上": "on walkable spans",
  "可达区距": "distance to the reach domain:",
  "路线失败": "route failed",
  "端点在禁区内": "endpoint inside a no-go zone",
  "禁区内": "inside a no-go zone",
  "在作者禁区": "in an author no-go zone",
  "禁区表读不通": "the no-go table cannot be read",
  "网格不连通": "mesh disconnected",
  "起点三角": "start triangle",
  "终点三角": "goal triangle",
  "之间没有走廊": "have no corridor between them",
  // Escalation reasons (tier notes) and their fallbacks.
  "端点离窗边不足": "endpoint too close to the window edge",
  "吸附距离碰边": "snap distance reaches the window edge",
  "接入链接不通": "endpoint access path blocked",
  "接入链碰边": "endpoint access path reaches the window edge",
  "掩膜内两端不连通": "endpoints disconnected inside the mask",
  "断开": "broken",
  "搜索碰边": "search reaches the window edge",
  "层不连通": "layers disconnected",
  "基线不通": "baseline blocked",
  "通道未接通": "channel not connected",
  "走廊碰边": "corridor reaches the window edge",
  "走廊内几何不通": "geometry pass blocked inside the corridor",
  "整类窗口": "full window",
  "退回格级": "falls back to cell level",
  "退回": "falls back to",
  "退到全图亏欠计价": "falls back to whole-window deficit pricing",
  "端点锚点过远,扩窗重跑": "endpoint anchor too far, window widened and rerun",
  "终线触界,扩窗重跑": "final line touches the border, window widened and rerun",
  "扩窗重跑": "window widened and rerun",
  // Warnings.
  "不可避立面": "unavoidable facade",
  "不可避穿墙": "unavoidable wall crossings",
  "离网连接": "off-mesh links",
  "条落不到面": "land on no span",
  "经台沿下落换类": "ledge-drop region hop",
  "步": "steps",
  // Fields sidecar load errors (maaend-runlogs.md §2 "Sidecar").
  "旁包读不到": "the fields sidecar cannot be read",
  "旁包不是配这份主包的": "the fields sidecar does not belong to this main pack",
  // Occluder pack of another world (issue 27 item 15; navscope's own message, no spec wording).
  "遮挡包不是这份主包的": "the occluder pack does not belong to this main pack",
  "旁包不是": "the fields sidecar is not",
  "旁包格式版本": "fields sidecar format version",
  "旁包判据版本不符": "fields sidecar rules version mismatch",
  "旁包段目录越界": "fields sidecar section directory out of bounds",
  "旁包段": "fields sidecar section",
  "旁包缺段": "the fields sidecar lacks section",
  "旁包的判据常数与运行期不符": "the fields sidecar's rule constants differ from the runtime's",
  "旁包区表残缺": "fields sidecar zone table truncated",
  "旁包没有区": "the fields sidecar has no zone",
  "旁包区": "fields sidecar zone",
  "的段范围越界": "section range out of bounds",
  "的瓦表越界": "tile table out of bounds",
  "的瓦载荷越界": "tile payload out of bounds",
  "的类数或瓦数与格图不符": "region or tile count differs from the grid",
  "瓦记录数与格图不符": "tile record count differs from the grid",
  "的分量图残缺": "component graph truncated",
  "的分量图解不开": "component graph cannot be decoded",
  "的边越界": "edge out of bounds",
  "的分量图有多余字节": "component graph has extra bytes",
  "的留墙表残缺": "kept-wall table truncated",
  "旁包": "fields sidecar",
  "不符": "mismatch",
  "越界": "out of bounds",
  "需要": "needs",
  // The route expander and the navigator (maaend-runlogs.md §1.3, §3).
  "规划结果没有可执行路径点": "the plan has no executable path points",
  "未找到 navmesh 区域": "navmesh zone not found",
  "目标与起点重合，但没有生成有效路线":
    "goal coincides with the start, but no valid route was made",
  "找不到当前区域的 navmesh": "no navmesh for the current zone",
  "目标附近探测超过": "the probe near the goal exceeded",
  "目标附近没有与起点连通的网格接近点":
    "no mesh approach point near the goal connected to the start",
  "没有与起点连通的网格接近点": "no mesh approach point connected to the start",
  "剩余盲走距离": "remaining blind-walk distance",
  "网格接近路线没有生成可执行路点": "the mesh approach route gave no executable waypoints",
  "盲走预算内找不到可走网格": "blind-walk budget: no walkable mesh found",
  "起点在": "start: within",
  "的指定目标面与起点不连通": ": declared deck disconnected from the start",
  "无法抵达指定目标面": "cannot reach the declared deck",
  "无法规划": "cannot plan",
  "起点恢复失败": "start recovery failed",
  "盲走兜底失败": "blind-walk fallback failed",
  "的规划结果没有可执行路点": ": the plan has no executable waypoints",
  "没有可执行路点": "no executable waypoints",
  "没有生成有效路线": "no valid route was made",
  "的坐标层级不存在": ": the coordinate tier does not exist",
  "坐标层级不存在": "the coordinate tier does not exist",
  "无法根据当前位置区域": "cannot, from the current zone",
  "推断": "infer the",
  "无法加载区域": "cannot load zone",
  "的 navmesh 数据": "navmesh data",
  "路线展开失败": "route expansion failed",
  "未返回具体原因": "no reason given",
  "个路点": "waypoint",
  "当前路点": "current waypoint",
  "层级": "tier",
  "加载失败": "load failed",
  "查询异常": "query exception",
  "缺少": "missing",
  "未知": "unknown",
  "需为": "must be",
  "预算": "budget",
  "超过": "exceeds",
  "上限": "limit",
  "区域": "zone",
  // Single words, last.
  "端点": "endpoints",
  "第": "no.",
  "起": "start",
  "终": "goal",
  "与": "and",
  "格": "cells",
  "无": "none",
  "类": "region",
  "瓦": "tile",
  "面": "span",
};

/** CJK punctuation → ASCII (with the spacing English wants). */
const PUNCT: Readonly<Record<string, string>> = {
  "，": ", ",
  "：": ": ",
  "（": " (",
  "）": ")",
  "；": "; ",
  "、": ", ",
  "。": ". ",
  "→": " → ",
};

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_ALL = /[\u3400-\u9fff\uf900-\ufaff]/g;

/** Phrases longest first, per first character (the greedy match tries the longest first). */
const BY_FIRST: Map<string, string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const p of Object.keys(GLOSSARY)) {
    const a = m.get(p[0]);
    if (a) a.push(p);
    else m.set(p[0], [p]);
  }
  for (const a of m.values()) a.sort((x, y) => y.length - x.length);
  return m;
})();

/** True when `s` has Chinese characters. */
export function hasCjk(s: string): boolean {
  return CJK.test(s);
}

/**
 * The English gloss of a message (see the module doc), or "" when `s` has no Chinese. Numbers
 * and ASCII words are kept in place; unknown Chinese stays as it is.
 */
export function gloss(s: string): string {
  if (!hasCjk(s)) return "";
  let out = "";
  const word = (w: string) => {
    if (out && !/[\s([]$/.test(out)) out += " ";
    out += w;
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    const cands = BY_FIRST.get(c);
    const hit = cands?.find((p) => s.startsWith(p, i));
    if (hit) {
      word(GLOSSARY[hit]);
      i += hit.length;
      // The next ASCII word or number gets its space.
      if (i < s.length && /[\w(\[]/.test(s[i])) out += " ";
      continue;
    }
    if (PUNCT[c] !== undefined) out += PUNCT[c];
    else out += c;
    i++;
  }
  return out.replace(/ {2,}/g, " ").replace(/ ([,:;)\]])/g, "$1").replace(/\( /g, "(").trim();
}

/** The Chinese characters a gloss of `s` leaves untranslated ("" when none). */
export function unglossed(s: string): string {
  return (gloss(s).match(CJK_ALL) ?? []).join("");
}
