/**
 * The triangle-mesh planner (issue 14): polygon graph over a cleaned zone mesh, A* over
 * triangles (generation-1 costs), the corner-point funnel (note 003 steps (1)–(6)), and a
 * route's clearance on the voxel grid, so it can serve as a baseline beside the voxel planner.
 * @module
 */
export * from "./graph.ts";
export * from "./astar.ts";
export * from "./funnel.ts";
export * from "./clearance.ts";
export * from "./planner.ts";
export * from "./compare.ts";
export * from "./poly_graph.ts";
export * from "./poly_astar.ts";
export * from "./snap_index.ts";
