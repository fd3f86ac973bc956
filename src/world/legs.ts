/**
 * The leg battery of a generated world: {@link generatedLegs} builds it from the world's
 * landmarks, so every landmark and every failure case of the specification is exercised by at
 * least one leg. The file format itself (types, parser, writer) is src/legs/format.ts, re-exported
 * here for the callers that know it by this path.
 * @module
 */
import type { LandmarkSet, Point3 } from "./landmarks.ts";
import type { Leg, LegOutcome } from "../legs/format.ts";

export * from "../legs/format.ts";

/** Builds the leg battery of a generated world from its landmarks. */
export function generatedLegs(m: LandmarkSet, zone: string, tier?: string): Leg[] {
  const legs: Leg[] = [];
  const xy = (p: Point3): [number, number] => [p[0], p[1]];
  const add = (
    id: string,
    a: Point3,
    b: Point3,
    expected: LegOutcome,
    landmarks: string[],
    note: string,
    extra: Partial<Leg> = {},
  ) => legs.push({ id, zone, start: xy(a), goal: xy(b), ...extra, expected, landmarks, note });
  const P = (n: string, k?: string) => m.point(n, k);

  // Streets, plaza, capped window.
  add(
    "street_long_capped",
    P("street_grid", "sw"),
    P("street_grid", "nw"),
    "ok",
    ["street_grid"],
    "480-px leg along the west street: the region box exceeds kLocalMaxCells, so the window is capped",
  );
  add("street_diagonal_capped", P("street_grid", "sw"), P("street_grid", "ne"), "ok", [
    "street_grid",
  ], "corner to corner over the street grid (capped window)");
  add(
    "plaza_cross",
    P("plaza", "west"),
    P("plaza", "east"),
    "ok",
    ["plaza"],
    "across the open plaza",
  );
  add(
    "kerb_up",
    P("kerb", "street"),
    P("kerb", "walk"),
    "ok",
    ["kerb"],
    "0.2 m kerb: a step ≤ kStepUp",
    { goal_deck_y: 0.2 },
  );
  for (const b of ["bump_100", "bump_125", "dip_075"]) {
    add(
      `${b}_cross`,
      P(b, "before"),
      P(b, "after"),
      "ok",
      [b],
      "bump/dip within kBumpUp over ≤ 3 cells: passable (RiseOk rules 8/9)",
    );
  }
  // Slopes: ≤ 0.5 m per cell is climbable. On the steeper ramps RiseOk alone still finds
  // diagonal steps of ≤ 0.5 m, so the bake's component graph (RiseOk only, spec 垂直可达判据 ›
  // 分量) puts the terrace in the start's component and the goal is in the reach domain; the
  // search also obeys the re-judged step bans (旁包 steps2), which stop it half-way up the ramp:
  // the baseline fails in the last tier and the gap lies on the ramp (断开处的定位).
  for (const deg of [30, 44, 55, 65, 75]) {
    const up = deg <= 55;
    add(
      `slope_${deg}_up`,
      P(`slope_${deg}`, "bottom"),
      P(`slope_${deg}`, "top"),
      up ? "ok" : "route_disconnected",
      [`slope_${deg}`],
      up
        ? "climbable ramp (≤ 0.5 m per cell)"
        : "ramp too steep to climb: in the reach domain (RiseOk finds ≤ 0.5-m diagonal steps), but step bans stop the search on the ramp: disconnected, with the gap on the ramp",
    );
    add(`slope_${deg}_down`, P(`slope_${deg}`, "top"), P(`slope_${deg}`, "bottom"), "ok", [
      `slope_${deg}`,
    ], "every ramp can be walked down");
  }
  // Building.
  add(
    "building_enter",
    P("building_a", "outside"),
    P("building_a", "inside"),
    "ok",
    ["building_a"],
    "through the door in the south facade (goal on the ground floor under three stacked floors)",
    { goal_floor_y: 0, goal_deck_y: 0 },
  );
  add(
    "facade_along",
    P("facade_a", "south"),
    P("facade_a", "north"),
    "ok",
    ["facade_a"],
    "along a 12-m facade",
  );
  add(
    "stairs_05_up",
    P("stairs_05", "bottom"),
    P("stairs_05", "floor2"),
    "ok",
    ["stairs_05"],
    "0.5-m risers are walkable up",
    { goal_deck_y: 4 },
  );
  add(
    "stairs_10_up",
    P("stairs_10", "bottom"),
    P("stairs_10", "floor3"),
    "goal_outside_reach",
    ["stairs_10"],
    "1.0-m risers cannot be climbed; floor 3 is the declared deck, in the same region but outside the reach domain: the goal anchor is the nearest reachable span near the deck, far away (the route expander classes this deck leg target_deck_unreachable)",
    { start_deck_y: 4, goal_deck_y: 8 },
  );
  add(
    "stairs_10_down",
    P("stairs_10", "floor3"),
    P("stairs_10", "bottom"),
    "ok",
    ["stairs_10"],
    "1.0-m risers can be walked down",
    { start_deck_y: 8, goal_deck_y: 4 },
  );
  add(
    "balcony_out",
    P("stairs_05", "floor2"),
    P("balcony"),
    "ok",
    ["balcony"],
    "floor 2 → balcony through the door",
    { start_deck_y: 4, goal_deck_y: 4 },
  );
  add(
    "balcony_drop",
    P("balcony"),
    P("balcony", "below"),
    "ok",
    ["balcony"],
    "4-m ledge drop off the balcony",
    { start_deck_y: 4, goal_deck_y: 0 },
  );
  add(
    "roof_drop",
    P("roof_a"),
    P("roof_a", "below"),
    "ok",
    ["roof_a"],
    "12-m drop from the flat roof (no occluder)",
    { start_deck_y: 12, goal_deck_y: 0 },
  );
  add(
    "arcade_walk",
    P("arcade", "west"),
    P("arcade", "east"),
    "ok",
    ["arcade"],
    "under the arcade cover (two spans per column)",
    { start_deck_y: 0.2, goal_deck_y: 0.2 },
  );
  add(
    "arcade_roof_deck",
    P("arcade", "west"),
    P("arcade", "roof"),
    "goal_outside_reach",
    ["arcade"],
    "declared deck on the arcade cover: the pillar facades put it in the sidewalk's region, " +
      "but nothing climbs onto it (facade steps are banned), so it is outside the reach domain " +
      "(the route expander classes this deck leg target_deck_unreachable)",
    { start_deck_y: 0.2, goal_deck_y: 3.7 },
  );
  // River.
  add("footbridge_cross", P("footbridge", "south"), P("footbridge", "north"), "ok", [
    "footbridge",
    "north_lot",
  ], "over the narrow footbridge (water is not walkable)");
  const disc = P("footbridge", "disc");
  add(
    "footbridge_disc_closed",
    P("footbridge", "south"),
    P("footbridge", "north"),
    "route_disconnected",
    ["footbridge"],
    "a runtime no-go disc closes the only passage",
    { no_go_discs: [{ x: disc[0], y: disc[1], r: 3 }] },
  );
  add(
    "footbridge_disc_deck",
    P("footbridge", "south"),
    P("footbridge", "north"),
    "target_deck_unreachable",
    ["footbridge"],
    "as footbridge_disc_closed with a declared goal deck on the far bank: the baseline fails in the final tier, so the planner reports 目标面不可达 with the goal cell's surfaces (两段搜索 › 基线)",
    { goal_deck_y: P("footbridge", "north")[2], no_go_discs: [{ x: disc[0], y: disc[1], r: 3 }] },
  );
  add(
    "footbridge_disc_region_too_large",
    P("footbridge", "south"),
    P("footbridge", "north"),
    "route_disconnected",
    ["footbridge"],
    "as footbridge_disc_closed with kMaxCells = 1 M: the capped tier fails, and since the region rectangle is over kMaxCells the full window is not tried and the capped verdict stands (spec 椭圆档位 step 6)",
    { no_go_discs: [{ x: disc[0], y: disc[1], r: 3 }], overrides: { max_cells: 1_000_000 } },
  );
  add("river_bank_down", P("river_bank", "top"), P("river_bank", "edge"), "ok", [
    "river_bank",
    "river",
  ], "down the bank to the water edge");
  add(
    "nogo_base_goal",
    P("footbridge", "south"),
    P("nogo_base"),
    "no_go",
    ["nogo_base"],
    "goal inside an author no-go polygon",
  );
  add(
    "nogo_disc_start",
    P("footbridge", "south"),
    P("plaza"),
    "ok",
    ["footbridge"],
    "start inside a runtime no-go disc: planned as usual, its anchor moves out of the disc (spec 端点在虚拟禁区内: 端点落在虚拟禁区里时照常规划)",
    { no_go_discs: [{ x: P("footbridge", "south")[0], y: P("footbridge", "south")[1], r: 2 }] },
  );
  // Ledges.
  const lt = "ledge_terrace";
  add("ledge_stairs_up", P(lt, "stairs_bottom"), P(lt), "ok", [lt], "up the terrace stairs", {
    goal_deck_y: 6,
  });
  // Which rims the route drops over is the topology pass's choice (拓扑层): each rim is a kept
  // boundary edge, so the clearance is 0 on it and below 1.75 px beside it, and the channel
  // crosses a rim only where a medial axis does — here the east rim. The route drops where the
  // channel lets it and FallGate does not block; elsewhere it takes the stairs.
  const drop = (name: string, kind: "jump" | "blocked" | "off-channel") =>
    add(
      `${name}_drop`,
      P(name, "top"),
      P(name, "below"),
      "ok",
      [name, lt],
      kind === "jump"
        ? "the drop is allowed (the 0.25-m kerb is below the 0.39-m climb) and the channel crosses this rim: the route jumps (short)"
        : kind === "blocked"
        ? "the drop is blocked by an occluder: the route detours (over the stairs, or to the east rim's drop)"
        : "RiseOk and FallGate allow this drop (the baseline takes it), but no medial axis crosses the west rim, so the channel does not either: the topology pass keeps to the channel over the stairs",
      {
        start_deck_y: 6,
        goal_deck_y: 0,
        checks: kind === "jump" ? { max_length_px: 12 } : { min_length_px: 20 },
      },
    );
  drop("ledge_plain", "off-channel");
  drop("ledge_railing", "blocked");
  drop("ledge_overhang", "blocked");
  drop("ledge_kerb", "jump");
  add(
    "mesa_hop",
    P("mesa"),
    P("mesa", "below"),
    "ok",
    ["mesa"],
    "mesa and yard are separate regions joined only by a drop: ledge-drop region hop",
    { start_deck_y: 8 },
  );
  add(
    "mesa_up",
    P("mesa", "below"),
    P("mesa"),
    "goal_outside_reach",
    ["mesa"],
    "the mesa top is > 8 px from the yard's reach domain",
  );
  add(
    "mesa_deck_from_yard",
    [P("mesa", "below")[0] + 2, P("mesa")[1] - 25, P("mesa", "below")[2]],
    P("mesa"),
    "no_same_region_span",
    ["mesa"],
    "start on the yard with a declared start deck (snapped by the deck key, 起点所在的面 step 1), goal deck on the mesa: the region is the mesa's and the seed cell holds no span of it, so every window fails to build (建窗 step 10)",
    { start_deck_y: 0, goal_deck_y: 8 },
  );
  add(
    "mesa_up_deck",
    P("mesa", "below"),
    P("mesa"),
    "goal_outside_reach",
    ["mesa"],
    "declared goal deck on the mesa: the region changes to the mesa's; the start snaps onto the mesa (起点所在的面 step 2) but the raw start is 10 px from its reach domain (the route expander would class this failed deck leg without a gap as target_deck_unreachable: 失败的情形 › 展开器的处理)",
    { goal_deck_y: 8 },
  );
  add(
    "link_oneway_up",
    P("plateau_oneway", "away"),
    P("plateau_oneway"),
    "goal_outside_reach",
    ["plateau_oneway"],
    "one-way off-mesh link up onto the plateau: the plateau is another region than the ground (the link joins two regions); 种子与离网连接 keeps only links whose both landing spans are in the leg's region, so the plateau is outside the reach domain and no ledge drops into it: goal_outside_reach (golden routes, README)",
  );
  add("link_oneway_back", P("plateau_oneway"), P("plateau_oneway", "away"), "goal_outside_reach", [
    "plateau_oneway",
  ], "the one-way link cannot be used back; the moat leaves no ground to drop onto");
  add(
    "plateau_region_too_large",
    P("plateau_oneway"),
    P("plateau_oneway", "away"),
    "region_too_large",
    ["plateau_oneway"],
    "as link_oneway_back with kMaxCells = 10 000: the plateau's region is small, so its first window is the full-region window, which is over this leg's kMaxCells (窗口分档 › 椭圆档位 step 2)",
    { overrides: { max_cells: 10_000 } },
  );
  add(
    "link_twoway_up",
    P("plateau_twoway", "away"),
    P("plateau_twoway"),
    "goal_outside_reach",
    ["plateau_twoway"],
    "two-way link up: the plateau is another region than the ground (the link joins two regions); 种子与离网连接 keeps only links whose both landing spans are in the leg's region, so the plateau is outside the reach domain and no ledge drops into it: goal_outside_reach (golden routes, README)",
  );
  add(
    "link_twoway_back",
    P("plateau_twoway"),
    P("plateau_twoway", "away"),
    "goal_outside_reach",
    ["plateau_twoway"],
    "two-way link down: the ground is another region than the plateau, so the link is not kept (种子与离网连接); the moat leaves no ledge to drop into the ground's region",
  );
  add(
    "link_ledge_up",
    P("ledge_link", "away"),
    P("ledge_link"),
    "ok",
    ["ledge_link"],
    "ground → 2-m slab in the ground's own region (step ≤ kClimb) that RiseOk cannot climb (> kStepUp, > kBumpUp): both landing spans of the one-way ladder link are in the leg's region, so 种子与离网连接 keeps it and the route goes up the link, the only way onto the slab",
  );
  add(
    "link_ledge_down",
    P("ledge_link"),
    P("ledge_link", "below"),
    "ok",
    ["ledge_link"],
    "2-m slab → ground in the same region: RiseOk drops down freely, so the route steps off the east rim (the one-way link is not needed and cannot be used down)",
  );
  add("beam_far_from_core", P("thin_beam"), P("street_grid", "sw"), "endpoint_far_from_core", [
    "thin_beam",
  ], "start snaps onto the 0.1-px beam, > 8 px from any core cell");
  // Defects.
  for (const c of ["crack_050", "crack_075", "crack_100", "seam_gap", "seam_step"]) {
    add(
      `${c}_cross`,
      P(c, "west"),
      P(c, "east"),
      "ok",
      [c],
      "across a crack/seam between mesh pieces (pieces also meet at y < 10)",
    );
  }
  add("hole_single_cross", P("hole_single", "west"), P("hole_single", "east"), "ok", [
    "hole_single",
  ], "across single-cell holes");
  add("hole_field_cross", P("hole_field", "west"), P("hole_field", "east"), "ok", [
    "hole_field",
    "hole_mid",
  ], "across the hole field");
  add(
    "hole_large_cross",
    P("hole_large", "west"),
    P("hole_large", "east"),
    "ok",
    ["hole_large"],
    "around a hole too large to fill",
  );
  add("island_start", P("islands", "on_island"), P("islands", "lot"), "goal_outside_reach", [
    "islands",
  ], "start on a tiny island: the lot is outside its reach domain");
  add(
    "bridge_over",
    P("bridge", "west"),
    P("bridge", "east"),
    "ok",
    ["bridge"],
    "lot to lot (over the bridge or along the street)",
  );
  add(
    "bridge_up_deck",
    P("bridge", "street"),
    P("bridge", "deck"),
    "ok",
    ["bridge"],
    "street → deck by the ramps (declared deck above the street)",
    { goal_deck_y: 6 },
  );
  add(
    "bridge_under",
    P("bridge", "deck"),
    P("bridge", "under"),
    "ok",
    ["bridge", "street_inner"],
    "deck → street below in the same columns",
    { start_deck_y: 6, goal_deck_y: 0 },
  );
  add(
    "bridge_beside_deck",
    P("bridge", "street"),
    P("bridge", "beside"),
    "ok",
    ["bridge"],
    "declared deck 6 m near the goal but not in its cell: the goal anchor is the nearest usable span within 2 m of the deck (掩膜与吸附锚点, no radius), 4.25 px away — within the 8-px judgement, so the route ends on the deck",
    { goal_deck_y: 6 },
  );
  {
    const deck = P("bridge", "deck");
    add(
      "bridge_deck_ramps_closed",
      P("bridge", "under"),
      [deck[0], deck[1] + 0.5, deck[2]], // not the start's cell (same-cell anchors return the deck span)
      "target_deck_unreachable",
      ["bridge"],
      "runtime discs close both ramps: from the street under the deck to the deck above it; the baseline fails in the final tier, and the two sides of the gap overlap in plan view (the deck's columns hold the street), so the gap distance is 0 (断开处的定位)",
      {
        start_floor_y: 0,
        goal_deck_y: 6,
        no_go_discs: [{ x: deck[0] - 16, y: deck[1], r: 4 }, { x: deck[0] + 16, y: deck[1], r: 4 }],
      },
    );
  }
  add(
    "high_deck_up",
    P("high_deck", "stairs_bottom"),
    P("high_deck", "free"),
    "ok",
    ["high_deck"],
    "32 risers of 0.5 m up to the 16-m deck",
    { goal_deck_y: 16 },
  );
  add(
    "nogo_floor_deck",
    P("high_deck", "stairs_bottom"),
    P("nogo_floor", "deck"),
    "no_go",
    ["nogo_floor"],
    "goal on the deck inside the floor-limited no-go polygon",
    { goal_deck_y: 16, goal_floor_y: 16 },
  );
  add(
    "nogo_floor_ground",
    P("high_deck", "stairs_bottom"),
    P("nogo_floor", "ground"),
    "ok",
    ["nogo_floor", "high_deck"],
    "same x, y on the ground 16 m below: outside the ±12 m band",
    { goal_floor_y: 0, goal_deck_y: 0 },
  );
  // Failures that need no special geometry.
  add(
    "snap_far",
    P("empty_lot"),
    P("plaza"),
    "snap_far_from_mesh",
    ["empty_lot"],
    "no triangle within 16 px of the start",
  );
  add(
    "cancelled",
    P("plaza", "west"),
    P("plaza", "east"),
    "cancelled",
    ["plaza"],
    "cancelled before the first window tier",
    { overrides: { cancel_before_tier: 0 } },
  );
  const s = P("plaza", "west");
  add(
    "seed_outside_window",
    s,
    P("plaza", "east"),
    "seed_outside_window",
    ["plaza"],
    "the forced window excludes the start's seed cell",
    { overrides: { window: [Math.floor(s[0] * 4) + 64, Math.floor(s[1] * 4) - 256, 512, 512] } },
  );
  if (tier) {
    legs.push({
      id: "tier_deck",
      zone: tier,
      start: [5, 5],
      goal: [25, 25],
      start_deck_y: 16,
      goal_deck_y: 16,
      expected: "zone_not_found",
      landmarks: ["high_deck"],
      note:
        "a leg in the tier zone's own px frame: a tier zone has no grid of its own (区没有预烘格图); the caller projects a tier leg into its parent zone through the affine before planning",
    });
  }
  return legs;
}
