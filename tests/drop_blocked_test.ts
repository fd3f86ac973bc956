/**
 * dropBlocked (spec 台沿下落): the figure's three worked cases (take-off 5.0, landing 1.0), every
 * early-return branch, mirrored / raw-matrix / singular placements, and the tree-accelerated
 * check against the linear-scan reference on random scenes.
 */
import { assert, assertEquals } from "./assert.ts";
import { mulberry32 } from "./rng.ts";
import { OccluderSceneBuilder } from "../src/pack/ocls/build.ts";
import {
  decodeOccluderZone,
  encodeOccluderZone,
  type OccluderScene,
} from "../src/pack/ocls/pack.ts";
import { dropBlocked, dropRule, type WorldPoint } from "../src/pack/ocls/drop_blocked.ts";
import { buildOccluderIndex } from "../src/pack/ocls/occluder_index.ts";

/** Unit cube [0,1]³, corner index x + 2y + 4z, outward winding (top up, bottom down). */
const CUBE_V = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1];
const CUBE_I = [
  2,
  6,
  3,
  3,
  6,
  7, // top (+y)
  0,
  1,
  4,
  1,
  5,
  4, // bottom (−y)
  0,
  4,
  2,
  2,
  4,
  6, // x = 0
  1,
  3,
  5,
  3,
  7,
  5, // x = 1
  0,
  2,
  1,
  1,
  2,
  3, // z = 0
  4,
  5,
  6,
  5,
  7,
  6, // z = 1
];

type Box = [number, number, number, number, number, number]; // min xyz, max xyz

interface World {
  boxes?: Box[];
  mirrorLedge?: boolean;
  matrixBoxes?: Box[];
  singularBoxes?: Box[];
}

/** Floor at y = 1 (terrain, 16 m square), a ledge box x ∈ [−4, 0] up to y = 5, plus extras. */
function world(w: World = {}): OccluderScene {
  const b = new OccluderSceneBuilder("Z", { blockSamples: 3, cellWidth: 8 });
  const cube = b.addTemplate(CUBE_V, CUBE_I, -2);
  b.addBlock(-1, -1, Array(9).fill(1));
  if (w.mirrorLedge) b.addInstance(cube, [0, 1, -2], [0, 0, 0, 1], [-4, 4, 4]);
  else b.addInstance(cube, [-4, 1, -2], [0, 0, 0, 1], [4, 4, 4]);
  for (const x of w.boxes ?? []) {
    b.addInstance(cube, [x[0], x[1], x[2]], [0, 0, 0, 1], [x[3] - x[0], x[4] - x[1], x[5] - x[2]]);
  }
  for (const x of w.matrixBoxes ?? []) {
    b.addInstanceMatrix(cube, [x[0], x[1], x[2]], [
      x[3] - x[0],
      0,
      0,
      0,
      x[4] - x[1],
      0,
      0,
      0,
      x[5] - x[2],
    ]);
  }
  for (const x of w.singularBoxes ?? []) {
    b.addInstanceMatrix(cube, [x[0], x[1], x[2]], [x[3] - x[0], 0, 0, 0, 0, 0, 0, 0, x[5] - x[2]]);
  }
  // Through the codec, so the check runs on exactly what a pack would carry.
  return decodeOccluderZone(encodeOccluderZone(b.build()), "Z");
}

const TAKEOFF: WorldPoint = { x: -0.5, y: 5, z: 0 };
const LANDING: WorldPoint = { x: 1.5, y: 1, z: 0 };
const KERB: Box = [-0.2, 5, -2, 0, 5.25, 2]; // 0.25 m lip at the edge
const OVERHANG: Box = [1, 3, -1, 2, 3.5, 1]; // solid 3.0–3.5 above the landing
const RAIL: Box = [-0.1, 5, -2, 0, 6.1, 2]; // railing, top 6.1

function rule(s: OccluderScene, a = TAKEOFF, b = LANDING) {
  const r = dropRule(buildOccluderIndex(s), a, b);
  assertEquals(dropBlocked(s, a, b), r === "landing_overhead" || r === "section_crossed");
  return r;
}

Deno.test("worked case ①: a 0.25 m kerb below the section's lower edge 5.39 passes", () => {
  assertEquals(rule(world()), "clear");
  assertEquals(rule(world({ boxes: [KERB] })), "clear");
  // A 0.5 m wall (top 5.5 > 5.39) is in the way.
  assertEquals(rule(world({ boxes: [[-0.2, 5, -2, 0, 5.5, 2]] })), "section_crossed");
});

Deno.test("worked case ②: a solid over the landing (bottom 3.0 in 1.39–5.0) blocks, section skipped", () => {
  assertEquals(rule(world({ boxes: [OVERHANG] })), "landing_overhead");
  assertEquals(rule(world({ boxes: [OVERHANG, RAIL] })), "landing_overhead");
  // Only downward faces count: a platform whose underside is below 1.39 does not block
  // (its top at 1.2 is upward and becomes the landing ground instead).
  assertEquals(rule(world({ boxes: [[1, 0.5, -1, 2, 1.2, 1]] })), "clear");
  // An underside above the take-off height is the section's business, not step 3.
  assertEquals(rule(world({ boxes: [[1, 9, -1, 2, 10, 1]] })), "clear");
});

Deno.test("worked case ③: a railing with top 6.1 crosses the 5.39–7.1 section and blocks", () => {
  assertEquals(rule(world({ boxes: [RAIL] })), "section_crossed");
  // A beam entirely above 7.1 is outside the section.
  assertEquals(rule(world({ boxes: [[-0.1, 7.2, -2, 0, 7.5, 2]] })), "clear");
  // A beam at head height 6.5–7.0 blocks.
  assertEquals(rule(world({ boxes: [[0.5, 6.5, -2, 0.7, 7.0, 2]] })), "section_crossed");
});

Deno.test("early return: no upward face within y_b ± climb at the landing → pass", () => {
  const s = world({ boxes: [RAIL, OVERHANG] });
  assertEquals(rule(s, TAKEOFF, { x: 1.5, y: -3, z: 0 }), "no_landing_ground");
  assertEquals(rule(s, TAKEOFF, { x: 1.5, y: 1.5, z: 0 }), "no_landing_ground"); // 0.5 above floor
  assertEquals(rule(s, TAKEOFF, { x: 1.5, y: 1.35, z: 0 }), "landing_overhead"); // floor within 0.39
});

Deno.test("early return: no upward face within y_a ± climb at the take-off → pass", () => {
  // Take-off in mid-air at x = 2.5, with a wall in the way that step 5 would catch.
  const s = world({ boxes: [[1.9, 4, -2, 2.1, 8, 2]] });
  assertEquals(rule(s, { x: 2.5, y: 5, z: 0 }, LANDING), "no_takeoff_ground");
  assertEquals(rule(s, { x: -0.5, y: 4.5, z: 0 }, LANDING), "no_takeoff_ground"); // 0.5 below top
  assertEquals(rule(s, { x: -0.5, y: 4.7, z: 0 }, { x: 2.5, y: 1, z: 0 }), "section_crossed");
});

Deno.test("no occluders at all: every branch passes", () => {
  const empty = new OccluderSceneBuilder("Z").build();
  assertEquals(dropBlocked(empty, TAKEOFF, LANDING), false);
  assertEquals(dropRule(buildOccluderIndex(empty), TAKEOFF, LANDING), "no_landing_ground");
});

Deno.test("mirrored, raw-matrix and singular placements keep the facing right", () => {
  assertEquals(rule(world({ mirrorLedge: true })), "clear");
  assertEquals(rule(world({ mirrorLedge: true, boxes: [RAIL] })), "section_crossed");
  assertEquals(rule(world({ matrixBoxes: [OVERHANG] })), "landing_overhead");
  assertEquals(rule(world({ matrixBoxes: [RAIL] })), "section_crossed");
  // A box squashed flat at y = 3 (det 0): world-space path, its down face at 3.0 blocks.
  assertEquals(rule(world({ singularBoxes: [OVERHANG] })), "landing_overhead");
  assertEquals(rule(world({ singularBoxes: [[-0.3, 6, -2, 0, 6, 2]] })), "section_crossed");
});

Deno.test("custom climb / height change the section: 0.3 m kerb blocks with climb 0.25", () => {
  const s = world({ boxes: [[-0.2, 5, -2, 0, 5.3, 2]] });
  assertEquals(dropBlocked(s, TAKEOFF, LANDING), false);
  assertEquals(dropBlocked(s, TAKEOFF, LANDING, 0.25), true);
  const beam = world({ boxes: [[0.5, 6.5, -2, 0.7, 7.0, 2]] });
  assertEquals(dropBlocked(beam, TAKEOFF, LANDING), true);
  assertEquals(dropBlocked(beam, TAKEOFF, LANDING, 0.39, 1.0), false); // section 5.39–6.0
});

Deno.test("tree-accelerated dropRule equals the linear-scan reference; repeated calls identical", () => {
  const r = mulberry32(31337);
  const counts = new Map<string, number>();
  for (let trial = 0; trial < 10; trial++) {
    const boxes: Box[] = [];
    for (let k = 0; k < 30; k++) {
      const x = r() * 10 - 5, y = 1 + r() * 6, z = r() * 10 - 5;
      boxes.push([x, y, z, x + 0.1 + r() * 2, y + 0.05 + r(), z + 0.1 + r() * 2]);
    }
    const s = world({ boxes, matrixBoxes: boxes.slice(0, 3), singularBoxes: boxes.slice(3, 5) });
    const fast = buildOccluderIndex(s, true), slow = buildOccluderIndex(s, false);
    for (let q = 0; q < 150; q++) {
      const a = { x: r() * 10 - 5, y: 1 + r() * 7, z: r() * 10 - 5 };
      const b = { x: r() * 10 - 5, y: r() < 0.8 ? 1 + r() * 0.2 : r() * 4 - 1, z: r() * 10 - 5 };
      const got = dropRule(fast, a, b);
      assertEquals(got, dropRule(slow, a, b));
      assertEquals(dropRule(fast, a, b), got);
      counts.set(got, (counts.get(got) ?? 0) + 1);
    }
  }
  for (
    const k of [
      "no_landing_ground",
      "landing_overhead",
      "no_takeoff_ground",
      "section_crossed",
      "clear",
    ]
  ) {
    assert((counts.get(k) ?? 0) > 0, `rule ${k} never exercised: ${JSON.stringify([...counts])}`);
  }
});
