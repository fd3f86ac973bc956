/**
 * Layer 3 — mesh: zone cleaning (walkable marks, weld, CCW, slot adjacency, disconnect rules,
 * components, islands, boundary bits), the link table view, 24-px triangle buckets and snapping
 * (spec 网格清洗, 吸附). Shared by the baker and the planner.
 * @module
 */
export * from "./constants.ts";
export * from "./geom.ts";
export { countRoots, setSizes, UnionFind } from "../util/union_find.ts";
export * from "./adjacency.ts";
export * from "./links.ts";
export * from "./vertices.ts";
export * from "./zone_clean.ts";
export * from "./snap.ts";
export * from "./records.ts";
export * from "./link_ends.ts";
