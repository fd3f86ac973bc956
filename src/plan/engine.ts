/**
 * The planner engine (spec 引擎装载; 前置检查与选类 items 1–4): loads the main pack (whole, with its
 * build_hash check), the grid section, the paired fields sidecar (all six checks), the author
 * no-go table and the occluder pack path; any load failure makes every plan return the same
 * error. Zones are cleaned on first use and kept in an LRU cache of two (evicted before a new one
 * is built). `plan`, `warm` and `regionsNear` share one lock: plans on one engine run one at a
 * time, in call order.
 * @module
 */

import { NavscopeError } from "../errors.ts";
import { readMaybeGzip } from "../codec/file.ts";
import { kCS } from "../grid/constants.ts";
import { type BgrdSection, parseBgrd } from "../pack/bgrd/section.ts";
import { decodeMainPack } from "../pack/bnav/codec.ts";
import { checkParsedGridZones } from "../pack/bnav/grid_zones.ts";
import type { MainPack, OffMeshLink } from "../pack/bnav/types.ts";
import { loadSidecarFile, type SidecarPack } from "../pack/bnvf/sidecar.ts";
import { SpanFlag } from "../pack/grid_types.ts";
import { emptyNoGoTable, loadNoGoTable, type NoGoTable } from "../pack/nogo/table.ts";
import { sidecarExpectations } from "../pack/set/pack_set.ts";
import { checkNoGoAgainstPack } from "../pack/set/binding.ts";
import { pairSidecars, sidecarStatus } from "../pack/set/pairing.ts";
import { PlanContext } from "./context.ts";
import { addCounters } from "./counters.ts";
import { decodeTileChecked, isOwned, tilesMeeting } from "./window/grid_access.ts";
import { runPrechecks } from "./prechecks/prechecks.ts";
import { polylineLength, runTiers } from "./tier_loop.ts";
import { PlanFailure, type PlanRequest, type PlanResult, type Pt } from "./types.ts";
import { ZoneState } from "./window/zone_state.ts";
import {
  kPictureBudget,
  type LegPicture,
  legPicture,
  type PictureZoneLink,
} from "./diagnostics/picture.ts";
import { recordsCrop, recordsPicture } from "./diagnostics/records_picture.ts";
import { type HopCandidate, hopCandidates } from "./region_hop.ts";
import { fallGateCaches, windowFallGate } from "./window/fall_gate_setup.ts";
import type { PlanSetup } from "./prechecks/prechecks.ts";
import type { OccluderScene } from "../pack/ocls/types.ts";
import { boxAround, decodePatch } from "./window/grid_patch.ts";
import { cellOf, kPickRadius, pickStartRec } from "./prechecks/region_pick.ts";
import { checkOccluderPack } from "../pack/set/occluder_binding.ts";
import { kMaxDecodeWorkers, TileDecodePool } from "./window/tile_decode.ts";
import { PlanTiles } from "./window/plan_tiles.ts";
import type { WindowGate } from "./window/window_gate.ts";
import { zoneRange } from "../pack/bnvf/tables.ts";
import { type PlanProfile, SPEC_PROFILE, SwitchProbe } from "./profile.ts";

/** Options of {@link openEngine}. */
export interface EngineOptions {
  /**
   * Author no-go table path. Default: the table paired with the main pack (`base.nogo.json`
   * beside it) when it exists; a path given here must exist.
   */
  noGoTable?: string;
  /**
   * Tile-decode workers (1–4; default 1 = in-process). Results never depend on it (tiles are
   * assembled in directory order). Call {@link Engine.close} to stop them.
   */
  workers?: number;
  /** Profile of plans whose request names none (default `spec`; src/plan/profile.ts). */
  profile?: PlanProfile;
  /**
   * The process-wide window gate of a replay worker (src/plan/window/window_gate.ts): large
   * windows wait for it and the plan holding it gives it back when it ends. Default: none.
   */
  windowGate?: WindowGate;
  /**
   * Called after every window build, inside its timed stage (instrumentation; routes never
   * depend on it). `tests/ab_test.ts` injects a known slowdown into one side of an A/B run with
   * it (a busy-wait), through the A/B driver's preload (docs/gate.md "Injecting a slowdown").
   */
  afterWindowBuild?: () => void;
}

/** Options of one plan. */
export interface PlanCallOptions {
  /** Cancellation, checked before every tier. */
  signal?: AbortSignal;
  /** Attach the final window's picture (`result.picture`, for `plan --svg` and reports). */
  picture?: boolean;
  /** The picture's pixel budget, cells (default kPictureBudget = 400 000). */
  pictureBudget?: number;
  /**
   * Probe the profile's switches (src/plan/profile.ts SwitchProbe): `result.switchesTouched`
   * lists the switches that are on and whose turning off alone could change this plan. Only
   * reads; the plan is the same.
   */
  probeSwitches?: boolean;
}

/** Facts about a loaded engine. */
export interface EngineInfo {
  /** Main pack path. */
  mainPack: string;
  /** build_hash of the main pack (hex). */
  buildHash: string;
  /** Sidecar path ("" when none was found). */
  sidecar: string;
  /** No-go table path ("" when none). */
  noGoTable: string;
  /** Occluder pack path ("" when none). */
  occluder: string;
  /** The load error every plan returns, or null when usable. */
  error: string | null;
  /**
   * What the engine loaded but cannot use, in words: an occluder pack that does not decode (plans
   * run without occluders and say so in their warnings). `inspect` reports the same.
   */
  warnings: string[];
  /** Zones of the main pack. */
  zones: string[];
}

/** Opens an engine on a main pack. Never throws for bad packs: the error is every plan's result. */
export async function openEngine(mainPackPath: string, opts: EngineOptions = {}): Promise<Engine> {
  const e = new Engine(mainPackPath, opts);
  await e.load();
  return e;
}

/** The planner engine. */
export class Engine {
  private pack: MainPack | null = null;
  private section: BgrdSection | null = null;
  private sidecar: SidecarPack | null = null;
  private noGo: NoGoTable = emptyNoGoTable();
  private error: PlanFailure | null = null;
  private readonly cache = new Map<string, ZoneState>();
  private lock: Promise<unknown> = Promise.resolve();
  private closed = false;
  private pool: TileDecodePool | null = null;
  /** Occluder scenes by zone (decoded and checked at load). */
  private scenes = new Map<string, OccluderScene>();
  /** Set when the occluder pack given does not decode (every plan carries it). */
  private occluderWarning: string | null = null;
  /** Load facts. */
  readonly info: EngineInfo;

  constructor(readonly mainPackPath: string, readonly opts: EngineOptions = {}) {
    this.info = {
      mainPack: mainPackPath,
      buildHash: "",
      sidecar: "",
      noGoTable: "",
      occluder: "",
      error: null,
      warnings: [],
      zones: [],
    };
  }

  /** Loads the pack set (引擎装载). Called once by {@link openEngine}. */
  async load(): Promise<void> {
    try {
      const bytes = await readMaybeGzip(this.mainPackPath, { magic: ["BNAV"] });
      const load = decodeMainPack(bytes, { file: this.mainPackPath });
      this.pack = load.pack;
      this.info.buildHash = load.header.buildHash.toString(16).padStart(16, "0");
      this.info.zones = load.pack.zones.map((z) => z.name);
      if (!load.pack.grid) throw new PlanFailure("grid_decode_failed", "包里没有预烘格图段");
      try {
        this.section = parseBgrd(load.pack.grid, { file: this.mainPackPath });
        checkParsedGridZones(this.section, load.pack.zones, { file: this.mainPackPath });
      } catch (e) {
        throw new PlanFailure("grid_decode_failed", `预烘格图解不开 (${msg(e)})`);
      }
      const paths = pairSidecars(this.mainPackPath);
      const status = await sidecarStatus(paths);
      const fields = status.fields ?? paths.fields[0];
      this.info.sidecar = status.fields ?? "";
      try {
        this.sidecar = await loadSidecarFile(
          fields,
          sidecarExpectations(
            load.header.buildHash,
            bytes,
            this.section,
            load.pack,
            this.mainPackPath,
          ),
        );
      } catch (e) {
        const code = e instanceof NavscopeError && /判据/.test(e.message)
          ? "rules_mismatch"
          : "sidecar_unreadable";
        throw new PlanFailure(code, `旁包读不到 (${fields}): ${msg(e)}`);
      }
      this.info.occluder = status.occluder ?? "";
      if (this.info.occluder) await this.loadOccluders(this.info.occluder, load.pack);
      const nogo = this.opts.noGoTable ?? status.nogo ?? null;
      if (nogo !== null) {
        try {
          this.noGo = await loadNoGoTable(nogo);
          // A table that names none of this pack's zones (or draws only outside them) is
          // another world's: refused like an unreadable one (src/pack/set/binding.ts).
          checkNoGoAgainstPack(
            this.noGo,
            load.pack.zones.map((z) => ({ name: z.name, width: z.width, height: z.height })),
          );
          this.info.noGoTable = nogo;
        } catch (e) {
          // A wrong table would open what the author closed: the engine stops (引擎装载 3).
          throw new PlanFailure("pack_load_failed", `禁区表读不通 (${nogo}): ${msg(e)}`);
        }
      }
    } catch (e) {
      this.error = e instanceof PlanFailure
        ? e
        : new PlanFailure("pack_load_failed", `navmesh 加载失败: ${msg(e)}`);
      this.info.error = this.error.message;
    }
  }

  /**
   * Decodes every scene of the occluder pack and checks it belongs to this main pack
   * (src/pack/set/occluder_binding.ts, issue 27): another world's pack stops the engine; one that
   * does not decode leaves plans without occluders (spec: 读不到时台沿下落一律放行) and every plan
   * says so in its warnings.
   */
  private async loadOccluders(path: string, pack: MainPack): Promise<void> {
    let bytes: Uint8Array;
    try {
      bytes = await readMaybeGzip(path, { magic: ["OCLS"] });
    } catch (e) {
      this.occluderWarning = `occluders_unreadable: ${path}: ${msg(e)}; ledge drops allowed`;
      this.info.warnings.push(this.occluderWarning);
      return;
    }
    const c = checkOccluderPack(bytes, path, pack);
    if (!c.usable) {
      throw new PlanFailure("pack_load_failed", `遮挡包不是这份主包的 (${path}): ${c.message}`);
    }
    this.scenes = c.scenes;
    if (c.status === "invalid") {
      this.occluderWarning = `occluders_unreadable: ${path}: ${c.message}`;
      this.info.warnings.push(this.occluderWarning);
    }
  }

  /** Plans one leg. Plans on one engine are serialised. */
  plan(req: PlanRequest, opts: PlanCallOptions = {}): Promise<PlanResult> {
    return this.serial(async () => {
      try {
        return await this.planGated(req, opts);
      } finally {
        this.opts.windowGate?.leave();
      }
    });
  }

  /** {@link plan} inside the engine's lock; the window gate, when taken, is held to its end. */
  private async planGated(req: PlanRequest, opts: PlanCallOptions): Promise<PlanResult> {
    const probe = opts.probeSwitches ? new SwitchProbe() : null;
    const ctx = new PlanContext(opts.signal, probe);
    const profile = req.profile ?? this.opts.profile ?? SPEC_PROFILE;
    const res = await this.planLocked(withProfile(req, profile, probe), ctx);
    res.profile = profile.name;
    if (probe) res.switchesTouched = probe.list();
    if (opts.picture) {
      const budget = opts.pictureBudget ?? kPictureBudget;
      res.picture = ctx.window
        ? legPicture(ctx.window, res, req, this.noGo, ctx.anchors, budget, this.zoneLinks(req))
        : this.recordsPicture(req, res, budget);
    }
    return res;
  }

  /** The zone's off-mesh links (sidecar FLNK) for the picture; empty when unknown. */
  private zoneLinks(req: PlanRequest): PictureZoneLink[] {
    let zs: ZoneState;
    try {
      zs = this.zone(req.zone);
    } catch {
      return [];
    }
    const t = zs.sidecar.links;
    if (!t) return [];
    const [first, end] = zoneRange(t.index, zs.zoneId), out: PictureZoneLink[] = [];
    for (let i = first; i < end; i++) {
      out.push({
        ax: t.gx[2 * i],
        ay: t.gy[2 * i],
        bx: t.gx[2 * i + 1],
        by: t.gy[2 * i + 1],
        twoWay: t.bidirectional[i] !== 0,
      });
    }
    return out;
  }

  /**
   * The picture of a plan that built no window (pre-check or window-building failures): the
   * pack's records around the failing endpoint (src/plan/diagnostics/picture.ts recordsPicture).
   */
  private recordsPicture(req: PlanRequest, res: PlanResult, budget: number): LegPicture {
    const crop = recordsCrop(res, req, this.noGo, budget);
    const box = (r: [number, number, number, number]) => ({
      x0: r[0],
      y0: r[1],
      nx: r[2],
      ny: r[3],
    });
    let patch = null, overview = null;
    try {
      if (!this.error) {
        const zs = this.zone(req.zone);
        patch = decodePatch(zs, box(crop.rect));
        // The overview decodes the whole area of interest: only when it stays moderate.
        const [, , inx, iny] = crop.interest;
        if (crop.kind === "focus" && inx * iny <= 4 * kPictureBudget * 4) {
          // The overview holds the crop too (a crop squared on one endpoint may reach past it).
          const [cx, cy, cnx, cny] = crop.rect, [ix, iy] = crop.interest;
          const x0 = Math.min(cx, ix), y0 = Math.min(cy, iy);
          const rect: [number, number, number, number] = [
            x0,
            y0,
            Math.max(cx + cnx, ix + inx) - x0,
            Math.max(cy + cny, iy + iny) - y0,
          ];
          overview = { patch: decodePatch(zs, box(rect)), rect };
        }
      }
    } catch {
      // Unknown zone or unreadable tiles: the picture shows the endpoints and says so.
    }
    const why = this.error
      ? `No window: the pack did not load (${this.error.message}), no records to draw`
      : null;
    return recordsPicture(patch, crop, overview, res, req, this.noGo, budget, why);
  }

  /** Loads and cleans a zone ahead of its first plan. */
  warm(zone: string): Promise<void> {
    return this.serial(() => {
      if (this.error) throw new Error(this.error.message);
      this.zone(zone);
    });
  }

  /**
   * regionsNear (spec regionsNear): for each point, the region ids of the non-Fill records whose
   * cell centre lies within kSnapRadius = 8 px. Empty = cannot tell (no grid, unknown zone, no
   * records around). Tiles are decoded once per call.
   */
  regionsNear(zone: string, points: readonly Pt[]): Promise<number[][]> {
    return this.serial(() => {
      if (this.error || !this.section) return points.map(() => []);
      const z = this.section.zones.findIndex((e) => e.name === zone);
      if (z < 0) return points.map(() => []);
      let zs: ZoneState;
      try {
        zs = this.zone(zone);
      } catch {
        return points.map(() => []);
      }
      const sets = points.map(() => new Set<number>());
      const byTile = new Map<number, number[]>();
      points.forEach(([x, y], i) => {
        for (const t of tilesMeeting(zs.section, z, boxAround(cellOf(x), cellOf(y), kPickRadius))) {
          const l = byTile.get(t) ?? [];
          l.push(i);
          byTile.set(t, l);
        }
      });
      for (const [t, who] of [...byTile.entries()].sort((a, b) => a[0] - b[0])) {
        const te = zs.section.zones[z].tiles[t];
        if (te.records === 0) continue;
        const cols = decodeTileChecked(zs.section, z, t, zs.file);
        for (let i = 0; i < cols.n; i++) {
          if (cols.flags[i] & SpanFlag.Fill) continue;
          const lx = cols.cell[i] % te.nx, ly = (cols.cell[i] / te.nx) | 0;
          if (!isOwned(te, lx, ly)) continue;
          const cx = (te.gx0 + lx + 0.5) * kCS, cy = (te.gy0 + ly + 0.5) * kCS;
          for (const k of who) {
            const dx = cx - points[k][0], dy = cy - points[k][1];
            if (Math.sqrt(dx * dx + dy * dy) <= 8) sets[k].add(cols.rid[i]);
          }
        }
      }
      return sets.map((s) => [...s].sort((a, b) => a - b));
    });
  }

  /**
   * The zone as the engine keeps it (cleaned mesh, snap buckets, grid and sidecar views), loaded
   * through the same LRU cache and lock as a plan; for the triangle-mesh planner and tools.
   * Throws the load error, or a {@link PlanFailure} `zone_not_found`.
   */
  zoneState(name: string): Promise<ZoneState> {
    return this.serial(() => {
      if (this.error) throw this.error;
      return this.zone(name);
    });
  }

  /** The main pack's BOML off-mesh links (pack-global end triangles), or null. */
  offMeshLinks(): readonly OffMeshLink[] | null {
    return this.pack?.offMeshLinks ?? null;
  }

  /** The author no-go table in force (empty when none). */
  noGoTable(): NoGoTable {
    return this.noGo;
  }

  /** Releases the caches and stops the decode workers; later calls fail. */
  close(): void {
    this.closed = true;
    this.cache.clear();
    this.pool?.close();
    this.pool = null;
  }

  /** The tile-decode pool (started on first use), or null for in-process decoding. */
  private decodePool(): TileDecodePool | null {
    const n = Math.min(kMaxDecodeWorkers, Math.floor(this.opts.workers ?? 1));
    if (n <= 1 || !this.section || !this.sidecar) return null;
    this.pool ??= new TileDecodePool(n, this.section.bytes, this.mainPackPath, this.sidecar);
    return this.pool;
  }

  private serial<T>(f: () => T | Promise<T>): Promise<T> {
    const run = this.lock.then(() => {
      if (this.closed) throw new Error("engine is closed");
      return f();
    });
    this.lock = run.catch(() => {});
    return run;
  }

  /** Zone cache, LRU of two (items 2–4 of the pre-checks fail here). */
  private zone(name: string): ZoneState {
    const hit = this.cache.get(name);
    if (hit) {
      this.cache.delete(name);
      this.cache.set(name, hit);
      return hit;
    }
    const rec = this.pack!.zones.find((z) => z.name === name);
    if (!rec || !this.section!.zones.some((z) => z.name === name)) {
      throw new PlanFailure("zone_not_found", `区没有预烘格图 (${name})`);
    }
    while (this.cache.size >= 2) this.cache.delete(this.cache.keys().next().value!);
    const zs = new ZoneState(this.mainPackPath, this.section!, this.sidecar!, this.pack!, rec);
    this.cache.set(name, zs);
    return zs;
  }

  /**
   * 台沿下落换类: after a goal-outside-reach verdict whose gap is on the goal side only (start
   * within 8 px, goal not sealed), without a declared goal deck, in an outermost plan: try up to
   * three ledges into the goal's region, each as two extra plans, and stitch the first pair that
   * both succeed. Cancellation is checked before every try.
   */
  private async tryRegionHop(
    e: unknown,
    ctx: PlanContext,
    zs: ZoneState,
    setup: PlanSetup,
    req: PlanRequest,
    occ: OccluderScene | null,
    tiles: PlanTiles,
  ): Promise<PlanResult | null> {
    if (!(e instanceof PlanFailure) || e.code !== "goal_outside_reach") return null;
    const x = e.extra;
    if (x.sealed || !(x.startReach! <= 8) || !(x.goalReach! > 8)) return null;
    if (req.goalDeckY !== null && req.goalDeckY !== undefined) return null;
    const win = ctx.window;
    if (!win) return null;
    // The goal's tile was decoded by the core-anchor gate: read it from the plan's tiles.
    const goalBox = boxAround(cellOf(req.goal[0]), cellOf(req.goal[1]), kPickRadius);
    const patch = decodePatch(zs, goalBox, tiles);
    const g = pickStartRec(patch, cellOf(req.goal[0]), cellOf(req.goal[1]), setup.goalSnap.h);
    if (!g || g.rid === setup.region) return null;
    const gate = windowFallGate(zs, occ, win, fallGateCaches());
    const cands = hopCandidates(zs, win, g.rid, setup.start, setup.goal, gate);
    for (const c of cands) {
      if (ctx.signal?.aborted) throw new PlanFailure("cancelled", "规划已取消");
      // The nested plans' work is this plan's (their times are the region_hop sub-stage).
      const front = await this.planLocked(
        {
          zone: req.zone,
          start: req.start,
          goal: c.takeoff,
          startFloorY: req.startFloorY,
          goalFloorY: null,
          startDeckY: req.startDeckY,
          goalDeckY: c.takeoffH,
          noGoDiscs: req.noGoDiscs,
          overrides: req.overrides,
          profile: req.profile,
        },
        new PlanContext(ctx.signal, ctx.probe),
        true,
      );
      addCounters(ctx.counters, front.debug.counters);
      if (!front.ok) continue;
      const back = await this.planLocked(
        {
          zone: req.zone,
          start: c.landing,
          goal: req.goal,
          startFloorY: null,
          goalFloorY: req.goalFloorY,
          startDeckY: c.landingH,
          goalDeckY: null,
          noGoDiscs: req.noGoDiscs,
          overrides: req.overrides,
          profile: req.profile,
        },
        new PlanContext(ctx.signal, ctx.probe),
        true,
      );
      addCounters(ctx.counters, back.debug.counters);
      if (!back.ok) continue;
      return stitchHop(ctx, front, back, c);
    }
    return null;
  }

  private async planLocked(
    req: PlanRequest,
    ctx: PlanContext,
    nested = false,
  ): Promise<PlanResult> {
    checkRequest(req);
    try {
      const zs = ctx.sub("zone", () => {
        if (this.error) throw this.error;
        // Occluders given but unreadable: the plan runs without them and says so (issue 27).
        if (this.occluderWarning) ctx.warn(this.occluderWarning);
        return this.zone(req.zone);
      });
      // The tiles this plan decodes, shared by the pre-checks and the windows (plan_tiles.ts).
      const tiles = new PlanTiles(zs, ctx);
      const sw = req.profile!.switches;
      // #5566: the reference build has no author no-go table.
      const noGo = sw.authorNoGo ? this.noGo : emptyNoGoTable();
      const setup = runPrechecks(ctx, zs, req, noGo, tiles);
      // Colliders for ledge drops (spec 台沿下落); a missing or unreadable pack lets drops pass.
      const occ = this.scenes.get(zs.name) ?? null;
      let tr;
      try {
        const pool = ctx.sub("decode_pool", () => this.decodePool());
        ctx.afterWindowBuild = this.opts.afterWindowBuild ?? null;
        tr = await runTiers(ctx, zs, setup, req, noGo, pool, occ, tiles, this.opts.windowGate);
      } catch (e) {
        // #6227: the region hop (off in the reference profile).
        const hop = nested || !sw.regionHop ? null : await ctx.subAsync(
          "region_hop",
          () => this.tryRegionHop(e, ctx, zs, setup, req, occ, tiles),
        );
        if (hop) {
          // Without #6227 the first failure would stand.
          ctx.probe?.touch("regionHop");
          // The total closes after the region_hop frame (stitchHop finished it inside the frame,
          // which left the frame's tail outside the total: Σ sub-stages > other under load).
          ctx.finish();
          return hop;
        }
        throw e;
      }
      const post = tr.route.post;
      const points = post.points;
      const clearance = post.clearance;
      const heights = post.heights;
      const debug = ctx.finish();
      return {
        ok: true,
        error: "",
        message: "",
        points,
        clearance,
        heights,
        waypoints: post.waypoints,
        drops: post.drops,
        length: polylineLength(points),
        noGo: false,
        warnings: [...debug.warnings],
        debug,
      };
    } catch (e) {
      if (!(e instanceof PlanFailure)) throw e;
      if (e.extra.gap) ctx.debug.gap = e.extra.gap;
      const debug = ctx.finish();
      return {
        ok: false,
        error: e.code,
        message: e.message,
        points: [],
        clearance: [],
        heights: [],
        waypoints: [],
        drops: [],
        length: 0,
        noGo: e.extra.noGo === true,
        // A failed plan returns no warnings: those recorded before the failure stay in
        // debug.warnings (RecastPlanResult's warnings vs debug.warnings, maaend-runlogs.md: the
        // navigator logs warnings on success only; every failed row of both oracle sets has empty
        // warnings and its recorded ones in debug_warnings).
        warnings: [],
        debug,
      };
    }
  }
}

/** The warning of a plan that hopped regions off a ledge (台沿下落换类). */
export const kHopWarning = "经台沿下落换类";

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The request as the profile plans it, with the profile attached (every stage reads its switches
 * from `req.profile`): without #6205 the start deck is dropped, without #5576 the runtime discs.
 * The region hop's inner plans keep their decks (they are built after this).
 */
function withProfile(
  req: PlanRequest,
  profile: PlanProfile,
  probe: SwitchProbe | null = null,
): PlanRequest {
  const sw = profile.switches;
  const out: PlanRequest = { ...req, profile };
  if (!sw.startDeck) out.startDeckY = null;
  else if (req.startDeckY !== null && req.startDeckY !== undefined) probe?.touch("startDeck");
  if (!sw.runtimeDiscs) out.noGoDiscs = [];
  else if (req.noGoDiscs?.length) probe?.touch("runtimeDiscs");
  return out;
}

/** A request with a non-finite coordinate or height is refused, never planned. */
function checkRequest(req: PlanRequest): void {
  const bad = (what: string) => {
    throw new NavscopeError("bad_value", `plan request: ${what}`, {}, "finite numbers");
  };
  for (const [k, p] of [["start", req.start], ["goal", req.goal]] as const) {
    if (!Array.isArray(p) || p.length !== 2 || !p.every(Number.isFinite)) bad(`${k} is ${p}`);
  }
  for (const k of ["startFloorY", "goalFloorY", "startDeckY", "goalDeckY"] as const) {
    const v = req[k];
    if (v !== undefined && v !== null && !Number.isFinite(v)) bad(`${k} is ${v}`);
  }
  for (const d of req.noGoDiscs ?? []) {
    if (![d.x, d.y, d.r].every(Number.isFinite) || d.r < 0) bad(`no-go disc ${JSON.stringify(d)}`);
  }
}

/**
 * Stitches the two plans of a hop: the front ends at the ledge, the back starts at the landing;
 * one drop at the back's first point with the landing height; points and drops concatenated;
 * clearance, heights and waypoints too (any missing → cleared), the landing a waypoint; length
 * plus the ledge → landing step; warnings merged plus the hop warning.
 */
function stitchHop(ctx: PlanContext, a: PlanResult, b: PlanResult, c: HopCandidate): PlanResult {
  const n = a.points.length;
  const points = [...a.points, ...b.points];
  const full = <T>(x: T[], y: T[], nx: number, ny: number) =>
    x.length === nx && y.length === ny ? [...x, ...y] : [];
  // A one-point part has no waypoints to give (they exclude the start): not a missing column.
  const has = (r: PlanResult) => r.waypoints.length > 0 || r.points.length === 1;
  const waypoints = has(a) && has(b)
    ? [...new Set([...a.waypoints, n, ...b.waypoints.map((i) => i + n)])].sort((p, q) => p - q)
    : [];
  const warnings = [...new Set([...a.warnings, ...b.warnings, kHopWarning])];
  const dx = b.points[0][0] - a.points[n - 1][0], dy = b.points[0][1] - a.points[n - 1][1];
  const debug = ctx.finish();
  debug.warnings = warnings;
  return {
    ok: true,
    error: "",
    message: "",
    points,
    clearance: full(a.clearance, b.clearance, n, b.points.length),
    heights: full(a.heights, b.heights, n, b.points.length),
    waypoints,
    drops: [
      ...a.drops,
      { index: n, fromH: c.takeoffH, toH: c.landingH },
      ...b.drops.map((d) => ({ ...d, index: d.index + n })),
    ],
    length: a.length + Math.sqrt(dx * dx + dy * dy) + b.length,
    noGo: false,
    warnings,
    debug,
  };
}
