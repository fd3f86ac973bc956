/**
 * OCLS occluder pack (spec 数据包 › OccluderPack): the public face. `decodeOccluderPack*` /
 * `encodeOccluderPack` read and write the container (pack.ts) of per-zone OCLZ scenes
 * (zone.ts, zone_encode.ts, stream.ts); `OccluderSceneBuilder` builds a scene from triangles
 * (build.ts); `buildOccluderIndex` is the BVH ray/segment index over a scene (occluder_index.ts,
 * bvh.ts, intersect.ts, geometry.ts); `dropBlocked` is the ledge-drop occluder test shared by the
 * bake and the planner (drop_blocked.ts).
 * @module
 */
export * from "./pack.ts";
export { OccluderSceneBuilder, smallestThree } from "./build.ts";
export { forEachOccluderTriangle, occluderWorldTriangles } from "./geometry.ts";
export { buildOccluderIndex, type OccluderIndex } from "./occluder_index.ts";
export * from "./drop_blocked.ts";
