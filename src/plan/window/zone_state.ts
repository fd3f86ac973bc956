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
import { decodeTileChecked, isOwned } from "./grid_access.ts";
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
  private boxes: Map<number, RegionBox> | null = null;
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
   * region has no record (选类: "按类号扫一遍全区的瓦 … 结果按区、按类缓存"). One scan fills the
   * boxes of every region, so each zone's tiles are scanned once.
   */
  regionBox(rid: number): RegionBox | null {
    if (!this.boxes) this.boxes = this.scanRegionBoxes();
    return this.boxes.get(rid) ?? null;
  }

  private scanRegionBoxes(): Map<number, RegionBox> {
    const out = new Map<number, RegionBox>();
    const z = this.section.zones[this.gridZone];
    for (let t = 0; t < z.tiles.length; t++) {
      const te = z.tiles[t];
      if (te.records === 0) continue;
      const cols = decodeTileChecked(this.section, this.gridZone, t, this.file);
      for (let i = 0; i < cols.n; i++) {
        const lx = cols.cell[i] % te.nx, ly = (cols.cell[i] / te.nx) | 0;
        if (!isOwned(te, lx, ly)) continue;
        const gx = te.gx0 + lx, gy = te.gy0 + ly, r = cols.rid[i];
        const b = out.get(r);
        if (!b) out.set(r, { x0: gx, y0: gy, x1: gx, y1: gy });
        else {
          if (gx < b.x0) b.x0 = gx;
          if (gx > b.x1) b.x1 = gx;
          if (gy < b.y0) b.y0 = gy;
          if (gy > b.y1) b.y1 = gy;
        }
      }
    }
    return out;
  }
}
