/**
 * Layer 6 — world: the world manifest (zones, meshes, surfaces, off-mesh links, occluders,
 * author no-go zones) and OBJ import into zone geometry.
 * @module
 */
export * from "./manifest.ts";
export * from "./obj.ts";
