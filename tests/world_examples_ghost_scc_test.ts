/**
 * Census over every example world: every Ghost record of the FSPN `scc` column carries a valid
 * component of its region, 1 ≤ scc ≤ FSCC n_scc (spec 可达域 step 2: 「分量号为 0 或超出集合范围
 * 时报错」 — the planner keeps a region's Ghost spans in its span table). Fill records may keep 0.
 * Before the Ghost proxy went through Ghost cells: city_small 4 Ghost records with scc 0
 * (flags Ghost|Core|Walk), dungeon 4 (flags Ghost).
 */
import { assert, assertEquals } from "./assert.ts";
import { readMaybeGzip } from "../src/codec/mod.ts";
import { decodeMainPack } from "../src/pack/bnav/mod.ts";
import { decodeBgrdTile, parseBgrd } from "../src/pack/bgrd/section.ts";
import { allocSpanColumns, SpanFlag } from "../src/pack/grid_types.ts";
import { loadSidecarFile, readComponentGraphs, readFieldsTile } from "../src/pack/bnvf/sidecar.ts";

const WORLDS = ["city_small", "dungeon", "nav_test", "proto_level", "tower_big"];

Deno.test("examples: every Ghost record has a component of its region (scc in 1..n_scc)", async () => {
  const bad: string[] = [];
  let ghosts = 0;
  for (const w of WORLDS) {
    const main = new URL(`../examples/${w}/base.nav.gz`, import.meta.url).pathname;
    const bytes = await readMaybeGzip(main);
    const g = decodeMainPack(bytes).gridSection!;
    const section = parseBgrd(bytes.subarray(g.offset, g.offset + g.size));
    const sc = await loadSidecarFile(
      new URL(`../examples/${w}/base.fields.nav.gz`, import.meta.url).pathname,
      null,
    );
    const into = allocSpanColumns(0);
    section.zones.forEach((z, zi) => {
      const graphs = readComponentGraphs(sc, zi);
      const nScc = new Map<number, number>();
      graphs.rid.forEach((r, i) => nScc.set(r, graphs.nScc[i]));
      for (let t = 0; t < z.tiles.length; t++) {
        const s = decodeBgrdTile(section, zi, t, into);
        const f = readFieldsTile(sc, zi, t);
        assertEquals(f.n, s.n, `${w} zone ${zi} tile ${t}: FSPN records`);
        for (let r = 0; r < s.n; r++) {
          if ((s.flags[r] & SpanFlag.Ghost) === 0) continue;
          ghosts++;
          const c = f.scc[r], m = nScc.get(s.rid[r]) ?? 0;
          if (!(c >= 1 && c <= m)) {
            bad.push(`${w} zone ${zi} tile ${t} record ${r}: flags ${s.flags[r]} scc ${c}/${m}`);
          }
        }
      }
    });
  }
  assert(ghosts > 0, "the census found Ghost records");
  const tally = new Map<string, number>();
  for (const b of bad) {
    const k = b.replace(/ tile \d+ record \d+/, "");
    tally.set(k, (tally.get(k) ?? 0) + 1);
  }
  assertEquals(
    [...tally].map(([k, n]) => `${n} × ${k}`),
    [],
    `${bad.length} of ${ghosts} Ghost records without a valid component`,
  );
});
