import { assert, assertEquals, assertThrows } from "./assert.ts";
import { NavscopeError } from "../src/errors.ts";
import { mulberry32 } from "./rng.ts";
import {
  componentDag,
  csrFromEdges,
  regionComponents,
  regionSpanGraph,
  tarjanScc,
} from "../src/bake/components.ts";
import { labelRegions } from "../src/bake/regions.ts";
import { stepBans } from "../src/bake/step_bans.ts";
import { riseOk } from "../src/grid/rise_ok.ts";
import { spanGridFromColumns } from "../src/grid/span_grid.ts";

function closure(n: number, adj: (u: number) => number[]): Uint8Array[] {
  const r: Uint8Array[] = [];
  for (let s = 0; s < n; s++) {
    const seen = new Uint8Array(n);
    seen[s] = 1;
    const q = [s];
    while (q.length) for (const v of adj(q.pop()!)) if (!seen[v]) (seen[v] = 1, q.push(v));
    r.push(seen);
  }
  return r;
}

Deno.test("Tarjan SCC equals mutual reachability on random graphs; ids by lowest node", () => {
  const rnd = mulberry32(41);
  for (let it = 0; it < 60; it++) {
    const n = 1 + Math.floor(rnd() * 25), m = Math.floor(rnd() * n * 2);
    const src: number[] = [], dst: number[] = [];
    for (let e = 0; e < m; e++) src.push(Math.floor(rnd() * n)), dst.push(Math.floor(rnd() * n));
    const g = csrFromEdges(n, src, dst);
    const { comp, count } = tarjanScc(g);
    const reach = closure(n, (u) => Array.from(g.adj.subarray(g.start[u], g.start[u + 1])));
    for (let u = 0; u < n; u++) {
      for (let v = 0; v < n; v++) {
        assertEquals(comp[u] === comp[v], reach[u][v] === 1 && reach[v][u] === 1);
      }
    }
    // Numbering: first appearance in node order is 1, 2, 3, …
    let seen = 0;
    for (let v = 0; v < n; v++) if (comp[v] > seen) assertEquals(comp[v], ++seen);
    assertEquals(seen, count);
    // DAG: sorted, distinct, exactly the inter-component edges, acyclic.
    const dag = componentDag(g, comp);
    const want = new Set<string>();
    for (let e = 0; e < m; e++) {
      if (comp[src[e]] !== comp[dst[e]]) want.add(`${comp[src[e]]},${comp[dst[e]]}`);
    }
    const got = Array.from(dag.src, (s, i) => `${s},${dag.dst[i]}`);
    assertEquals(new Set(got), want);
    assertEquals(got.length, want.size);
    for (let i = 1; i < dag.src.length; i++) {
      assert(
        dag.src[i - 1] < dag.src[i] ||
          (dag.src[i - 1] === dag.src[i] && dag.dst[i - 1] < dag.dst[i]),
      );
    }
  }
});

Deno.test("Tarjan SCC is iterative: a 200 000-node cycle is one component", () => {
  const n = 200000;
  const src = Int32Array.from({ length: n }, (_, i) => i);
  const dst = Int32Array.from({ length: n }, (_, i) => (i + 1) % n);
  const { count } = tarjanScc(csrFromEdges(n, src, dst));
  assertEquals(count, 1);
});

Deno.test("region components equal brute-force RiseOk reachability on random small regions", () => {
  const rnd = mulberry32(8);
  for (let it = 0; it < 25; it++) {
    const nx = 7, ny = 6, cols: number[][] = [];
    for (let c = 0; c < nx * ny; c++) {
      const k = rnd() < 0.15 ? 0 : rnd() < 0.8 ? 1 : 2;
      cols.push(Array.from({ length: k }, (_, i) => i * 4 + Math.floor(rnd() * 8) * 0.4));
    }
    const g = spanGridFromColumns(nx, ny, cols);
    const { rid, count } = labelRegions(g);
    const rc = regionComponents(g, rid, count);
    for (let r = 1; r <= count; r++) {
      const { nodes } = regionSpanGraph(g, rid, r);
      // Brute force over all span pairs in 8-neighbour cells of the same region.
      const adj = (k: number) => {
        const s = nodes[k], x = g.cell[s] % nx, y = Math.floor(g.cell[s] / nx), out: number[] = [];
        nodes.forEach((t, kt) => {
          const tx = g.cell[t] % nx, ty = Math.floor(g.cell[t] / nx);
          const dx = tx - x, dy = ty - y;
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== 1) return;
          if (riseOk(g, x, y, g.h[s], dx, dy, g.h[t])) out.push(kt);
        });
        return out;
      };
      const reach = closure(nodes.length, adj);
      for (let a = 0; a < nodes.length; a++) {
        for (let b = 0; b < nodes.length; b++) {
          const same = rc.scc[nodes[a]] === rc.scc[nodes[b]];
          assertEquals(same, reach[a][b] === 1 && reach[b][a] === 1, `it ${it} r ${r}`);
        }
      }
      // Component DAG edges agree with reachability: a → b implies b never reaches a.
      const dag = rc.dag[r - 1];
      for (let e = 0; e < dag.src.length; e++) {
        const a = nodes.findIndex((s) => rc.scc[s] === dag.src[e]);
        const b = nodes.findIndex((s) => rc.scc[s] === dag.dst[e]);
        assert(reach[a][b] === 1 && reach[b][a] === 0);
      }
      assertEquals(Math.max(...Array.from(nodes, (s) => rc.scc[s])), rc.count[r - 1]);
    }
  }
});

Deno.test("components: a ledge splits a region into an upper and a lower component", () => {
  // 2.5 m step: one region (≤ 3), but only down is allowed (1.25 < 2.5).
  const g = spanGridFromColumns(4, 1, [[2.5], [2.5], [0], [0]]);
  const { rid, count } = labelRegions(g);
  assertEquals(count, 1);
  const rc = regionComponents(g, rid, count);
  assertEquals(Array.from(rc.scc), [1, 1, 2, 2]);
  assertEquals([Array.from(rc.dag[0].src), Array.from(rc.dag[0].dst)], [[1], [2]]);
});

Deno.test("step bans: 1 m stairs ban the way up only; bumps and flat ground ban nothing", () => {
  const stairs = spanGridFromColumns(4, 1, [[0], [1], [2], [3]]);
  const { rid } = labelRegions(stairs);
  const b = stepBans(stairs, rid);
  // Direction 0 is +x: bit 0 forbids c → c+1 (up), bit 1 forbids c+1 → c (down).
  assertEquals(Array.from(b), [0b01, 0b01, 0b01, 0]);
  const flat = spanGridFromColumns(3, 3, Array.from({ length: 9 }, () => [0]));
  assert(stepBans(flat, labelRegions(flat).rid).every((v) => v === 0));
  const bump = spanGridFromColumns(7, 1, [[0], [0], [0], [1], [1], [0], [0]]);
  const bb = stepBans(bump, labelRegions(bump).rid);
  assertEquals(bb[2] & 1, 0); // up onto the bump from column 2: allowed (rule 8)
  // Step partner only within the same region: a 20 m deck above is ignored.
  const deck = spanGridFromColumns(2, 1, [[0, 20], [0.4]]);
  const dr = labelRegions(deck).rid;
  assertEquals(Array.from(stepBans(deck, dr)), [0, 0, 0]);
});

Deno.test("region components: a span outside 1..count is a NavscopeError", () => {
  const g = spanGridFromColumns(2, 1, [[0], [0]]);
  const e = assertThrows(() => regionComponents(g, Uint32Array.of(1, 0), 1), NavscopeError);
  assert(e.message.includes("span 1 has region id 0"));
});
