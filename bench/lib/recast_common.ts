/**
 * Shared by the Detour comparisons (bench/mesh_vs_detour.ts, bench/voxel_vs_recast.ts): the OBJ
 * reader and a Detour navmesh of a Recast demo world, generated in-process from the same OBJ the
 * example was baked from, with Recast's demo settings (cs 0.3, ch 0.2, agent 2 m tall, 0.6 m radius,
 * 0.9 m climb, 45° slope).
 * @module
 */
import { init, NavMeshQuery } from "@recast-navigation/core";
import { generateSoloNavMesh } from "@recast-navigation/generators";
import { fileURLToPath } from "node:url";

/** Path of a file in examples/. */
export const ex = (p: string) => fileURLToPath(new URL(`../examples/${p}`, import.meta.url));

/** Vertices and triangle indices of an OBJ (polygons fanned). */
export function parseObj(text: string): { positions: number[]; indices: number[] } {
  const positions: number[] = [], indices: number[] = [];
  for (const line of text.split("\n")) {
    const p = line.trim().split(/\s+/);
    if (p[0] === "v") positions.push(+p[1], +p[2], +p[3]);
    else if (p[0] === "f") {
      const v = p.slice(1).map((s) => {
        const i = parseInt(s.split("/")[0]);
        return i < 0 ? positions.length / 3 + i : i - 1;
      });
      for (let k = 1; k + 1 < v.length; k++) indices.push(v[0], v[k], v[k + 1]);
    }
  }
  return { positions, indices };
}

let ready = false;

/** A Detour query over world's first mesh, with the px ↔ OBJ transform of its manifest. */
export async function detourWorld(world: string): Promise<{
  query: NavMeshQuery;
  navMesh: { getMaxTiles(): number };
  zone: string;
  /** px per metre and px offset of the OBJ (`x_px = x·s + ox`, `y_px = z·s + oy`). */
  s: number;
  ox: number;
  oy: number;
}> {
  if (!ready) (await init(), (ready = true));
  const manifest = JSON.parse(await Deno.readTextFile(ex(`${world}/world.json`)));
  const zone = manifest.zones[0], mesh = zone.meshes[0];
  const obj = parseObj(await Deno.readTextFile(ex(`${world}/${mesh.file}`)));
  const gen = generateSoloNavMesh(obj.positions, obj.indices, {
    cs: 0.3,
    ch: 0.2,
    walkableSlopeAngle: 45,
    walkableHeight: 10,
    walkableClimb: 4,
    walkableRadius: 2,
  });
  if (!gen.success) throw new Error(`${world}: Detour navmesh: ${gen.error}`);
  return {
    query: new NavMeshQuery(gen.navMesh),
    navMesh: gen.navMesh,
    zone: zone.name,
    s: mesh.px_per_m,
    ox: mesh.offset_px[0],
    oy: mesh.offset_px[1],
  };
}
