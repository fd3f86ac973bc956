/**
 * BNVF fields sidecar (spec 旁包): the public face. `openSidecar` / `loadSidecarFile` open a
 * sidecar and run its validation checks, `readFieldsTile` / `readComponentGraphs` /
 * `readWallTable` / `readZoneFields` read one zone's sections, `decodeSidecar` /
 * `encodeSidecar` handle whole packs, `summarizeSidecar` feeds `navscope inspect`, and
 * `mergeFields` joins the sidecar's per-span fields onto decoded BGRD spans (merge.ts).
 *
 * Files: sidecar.ts (container, FCON/FZON, open and validate, whole-pack codec), fspn.ts (FSPN
 * per-span fields), fscc.ts (FSCC component graphs), fwal.ts (FWAL wall table), tables.ts (FLNK
 * links, FOPN open cells), constants.ts, types.ts, merge.ts.
 * @module
 */
export * from "./sidecar.ts";
export * from "./merge.ts";
