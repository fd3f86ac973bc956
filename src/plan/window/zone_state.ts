/**
 * One zone as the engine keeps it between plans (spec 引擎装载, 网格清洗, 选类 › region boxes): the
 * cleaned zone mesh and its snap buckets, the zone's grid directory and sidecar entries, the
 * zone's off-mesh links, and the per-region bounding boxes (cached per zone and region).
 * The engine holds two of these at a time, least recently used out (LRU 2).
 * @module
 */

import { NavscopeError } from "../../errors.ts";
import {
  buildDriveBuckets,
  buildTriangleBuckets,
  type DriveBuckets,
  type TriangleBuckets,
} from "../../zone_mesh/snap.ts";
import { cleanZone, type ZoneClean } from "../../zone_mesh/zone_clean.ts";
import { buildRefDriveIndex, type RefDriveIndex } from "../../zone_mesh/drive_index.ts";
import type { BgrdSection } from "../../pack/bgrd/section.ts";
import type { MainPack, ZoneRecord } from "../../pack/bnav/types.ts";
import { readComponentGraphs, readWallTable, type SidecarPack } from "../../pack/bnvf/sidecar.ts";
import type { ComponentGraphs, WallTable } from "../../pack/bnvf/types.ts";
import { bgrdTileRegionsChecked, decodeTileChecked, ownedBox } from "./grid_access.ts";
import { allocSpanColumns, type SpanColumns } from "../../pack/grid_types.ts";
import { PlanFailure } from "../types.ts";
import { type WallEdgeIndex, wallEdgeIndex } from "../../grid/wall_edges.ts";

/** A region's cell bounding box, global cells, inclusive. */
export interface RegionBox {
  /** First column. */
  x0: number;
  /** First row. */
  y0: number;
  /** Last column. */
  x1: number;
  /** Last row. */
  y1: number;
}

/** What the engine keeps per zone. */
export class ZoneState {
  /** Zone name. */
  readonly name: string;
  /** Zone record of the main pack. */
  readonly record: ZoneRecord;
  /** Cleaned zone mesh. */
  readonly mesh: ZoneClean;
  /** Snap buckets over the walkable triangles. */
  readonly buckets: TriangleBuckets;
  /** Index of the zone in the BGRD directory. */
  readonly gridZone: number;
  /** Index of the zone in the sidecar's FZON. */
  readonly fieldsZone: number;
  /** Zone number used by the sidecar's FLNK / FOPN zone index (the zone id). */
  readonly zoneId: number;
  private graphs: ComponentGraphs | null = null;
  private walls: WallTable | null = null;
  private wallEdges: WallEdgeIndex | null = null;
  private boxes: Map<number, RegionBox | null> | null = null;
  /** Per tile its region dictionary (null: a v2 tile, none without decoding), read once. */
  private tileDicts: (Uint32Array | null)[] | null = null;
  /** Per decoded tile its per-region boxes (regionBox). */
  private readonly tileBoxes = new Map<number, Int32Array>();
  /** The columns the region boxes' tiles decode into, reused. */
  private boxCols: SpanColumns | null = null;
  /** Region id → slot in a tile's boxes (regionBox's work array, zero between tiles). */
  private slotOf: Int32Array | null = null;
  private drive: DriveBuckets | null = null;
  private refDrive: RefDriveIndex | null = null;

  constructor(
    readonly file: string,
    readonly section: BgrdSection,
    readonly sidecar: SidecarPack,
    pack: MainPack,
    record: ZoneRecord,
  ) {
    this.name = record.name;
    this.record = record;
    this.zoneId = record.id;
    this.gridZone = section.zones.findIndex((z) => z.name === record.name);
    if (this.gridZone < 0) {
      throw new PlanFailure("zone_not_found", `区没有预烘格图 (${record.name})`);
    }
    const lo = record.firstTriangle, n = record.triangleCount;
    if (n === 0) throw new PlanFailure("zone_not_found", `${record.name}: zone not found or empty`);
    try {
      this.mesh = cleanZone({
        name: record.name,
        zoneId: record.id,
        firstTri: lo,
        vertices: pack.vertices,
        triangles: pack.triangles.vertices.subarray(3 * lo, 3 * (lo + n)),
        neighbours: pack.triangles.neighbours.subarray(3 * lo, 3 * (lo + n)),
        surfaceFlags: pack.surfaces?.flags.subarray(lo, lo + n),
        links: pack.links,
        file,
      });
    } catch (e) {
      if (e instanceof NavscopeError) throw new PlanFailure("zone_not_found", e.message);
      throw e;
    }
    this.buckets = buildTriangleBuckets(this.mesh);
    const fz = sidecar.zoneByName.get(record.name);
    if (fz === undefined) {
      throw new PlanFailure(
        "sidecar_unreadable",
        `旁包读不出这个区 (${record.name}): 旁包里没有这个区`,
      );
    }
    this.fieldsZone = fz;
  }

  /**
   * Buckets over every triangle of the cleaned zone mesh, walkable or not, built once: the
   * waypoints' drivability asks whether a sample lies on "区网格的三角形" (spec 路点 step 2,
   * formulas.md #138), any zone triangle — dungeon random2 rnd_074 drops waypoint 8 only so.
   * Finer than the snap buckets (snap.ts buildDriveBuckets).
   */
  driveBuckets(): DriveBuckets {
    if (!this.drive) this.drive = buildDriveBuckets(this.mesh);
    return this.drive;
  }

  /**
   * The reference build's waypoint sampling index over every triangle of the cleaned zone mesh
   * (formulas.md #138 "Ref differs"; zone_mesh/drive_index.ts), built once, on first use by a plan
   * under the switch `waypointSampleGeometry` off (or probing it).
   */
  refDriveIndex(): RefDriveIndex {
    if (!this.refDrive) this.refDrive = buildRefDriveIndex(this.mesh);
    return this.refDrive;
  }

  /** The zone's component DAGs (FSCC), decoded once. */
  componentGraphs(): ComponentGraphs {
    if (!this.graphs) this.graphs = readComponentGraphs(this.sidecar, this.fieldsZone);
    return this.graphs;
  }

  /** The zone's boundary-edge keep table (FWAL), decoded once. */
  wallTable(): WallTable {
    if (!this.walls) this.walls = readWallTable(this.sidecar, this.fieldsZone);
    return this.walls;
  }

  /**
   * The zone mesh's boundary triangles bucketed by position, built once: a window collects its
   * wall edges (建窗 step 6) from the triangles near it, not from a scan of the whole mesh.
   */
  wallIndex(): WallEdgeIndex {
    if (!this.wallEdges) {
      const m = this.mesh;
      this.wallEdges = wallEdgeIndex(
        { verts: m.vertices, tris: m.tris, walkable: m.walkable },
        m.boundary,
      );
    }
    return this.wallEdges;
  }

  /**
   * The bounding box of region `rid` over the owned records of every tile, or null when the
   * region has no record (选类: "按类号扫一遍全区的瓦 … 结果按区、按类缓存"). Cached per region.
   * Only the tiles whose region dictionary holds `rid` can add to it, and of those only the ones
   * whose owned rectangle reaches outside the box found so far: they are taken from the outer
   * ring of the candidates inward, so on a region that spans the zone the inner tiles are never
   * decoded (docs/search_speed.md, region pick). A tile is decoded at most once per zone state:
   * its per-region boxes are kept (a few integers per region in the tile).
   */
  regionBox(rid: number): RegionBox | null {
    const boxes = this.boxes ??= new Map();
    let b = boxes.get(rid);
    if (b === undefined) boxes.set(rid, b = this.scanRegionBox(rid));
    return b;
  }

  private scanRegionBox(rid: number): RegionBox | null {
    const z = this.section.zones[this.gridZone];
    const dicts = this.tileDicts ??= z.tiles.map((_, t) =>
      bgrdTileRegionsChecked(this.section, this.gridZone, t, this.file)
    );
    const cand: number[] = [];
    let ux0 = Infinity, uy0 = Infinity, ux1 = -Infinity, uy1 = -Infinity;
    for (let t = 0; t < z.tiles.length; t++) {
      const d = dicts[t];
      if (z.tiles[t].records === 0 || (d !== null && !d.includes(rid))) continue;
      const o = ownedBox(z.tiles[t]);
      cand.push(t);
      ux0 = Math.min(ux0, o.x0), uy0 = Math.min(uy0, o.y0);
      ux1 = Math.max(ux1, o.x1), uy1 = Math.max(uy1, o.y1);
    }
    // Outer ring first: how far a tile's owned rectangle lies inside the candidates' union.
    const depth = (t: number) => {
      const o = ownedBox(z.tiles[t]);
      return Math.min(o.x0 - ux0, ux1 - o.x1, o.y0 - uy0, uy1 - o.y1);
    };
    const key = new Map(cand.map((t) => [t, depth(t)]));
    cand.sort((a, b) => key.get(a)! - key.get(b)! || a - b);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const t of cand) {
      const o = ownedBox(z.tiles[t]);
      if (o.x0 >= x0 && o.x1 <= x1 && o.y0 >= y0 && o.y1 <= y1) continue; // adds nothing
      const tb = this.tileRegionBoxes(t);
      for (let k = 0; k < tb.length; k += 5) {
        if (tb[k] !== rid) continue;
        x0 = Math.min(x0, tb[k + 1]), y0 = Math.min(y0, tb[k + 2]);
        x1 = Math.max(x1, tb[k + 3]), y1 = Math.max(y1, tb[k + 4]);
      }
    }
    return x0 === Infinity ? null : { x0, y0, x1, y1 };
  }

  /**
   * Tile t's per-region boxes of its owned records, `[rid, x0, y0, x1, y1]` per region present,
   * global cells; decoded (and checked) once.
   */
  private tileRegionBoxes(t: number): Int32Array {
    const cached = this.tileBoxes.get(t);
    if (cached) return cached;
    const z = this.section.zones[this.gridZone], te = z.tiles[t];
    this.boxCols ??= allocSpanColumns(0);
    const cols = decodeTileChecked(this.section, this.gridZone, t, this.file, this.boxCols);
    // Slots by region id (the id guard keeps every id in 1..global_regions): slot + 1, 0 = none.
    const slotOf = this.slotOf ??= new Int32Array(z.globalRegions + 1);
    const acc: number[] = [];
    const cell = cols.cell, rid = cols.rid, tnx = te.nx;
    const px0 = te.px0, px1 = te.px1, py0 = te.py0, py1 = te.py1;
    for (let i = 0; i < cols.n; i++) {
      const c = cell[i], ly = (c / tnx) | 0, lx = c - ly * tnx;
      if (lx < px0 || lx > px1 || ly < py0 || ly > py1) continue; // isOwned
      const gx = te.gx0 + lx, gy = te.gy0 + ly, r = rid[i];
      let k = slotOf[r] - 1;
      if (k < 0) {
        k = acc.length;
        slotOf[r] = k + 1;
        acc.push(r, gx, gy, gx, gy);
        continue;
      }
      if (gx < acc[k + 1]) acc[k + 1] = gx;
      if (gy < acc[k + 2]) acc[k + 2] = gy;
      if (gx > acc[k + 3]) acc[k + 3] = gx;
      if (gy > acc[k + 4]) acc[k + 4] = gy;
    }
    for (let k = 0; k < acc.length; k += 5) slotOf[acc[k]] = 0;
    const out = Int32Array.from(acc);
    this.tileBoxes.set(t, out);
    return out;
  }
}
