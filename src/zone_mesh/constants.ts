/**
 * Constants of zone cleaning and snapping (spec 网格清洗, 吸附, 面属性与离网连接). Every value
 * is the article's, cited next to it; reconstructed ones carry the formulas.md entry number.
 * @module
 */
import { RUNTIME_CONSTANTS } from "../pack/bnvf/constants.ts";

/** Walkable whitelist: a triangle whose surface flags AND this mask is 0 is unwalkable (BSRF). */
export const WALKABLE_MASK: number = RUNTIME_CONSTANTS.kWalkableMask;

/** Raw components of at most this many triangles are "small" (isTraversableLink rule 3, islands). */
export const K_SMALL_COMPONENT_TRIS = 512;

/** isTraversableLink rule 4: closest edge pair must be within this many px (formulas.md #23). */
export const K_LINK_GAP_PX = 4;

/** Side of the snapping triangle buckets, px (网格清洗 › 槽位与邻接: 24 像素方格). */
export const K_SNAP_BUCKET_PX = 24;

/** First snapping radius, px (吸附 step 1). */
export const K_SNAP_RADIUS_PX = 8;

/** Fallback snapping radius when the first round finds nothing, px (吸附 step 4). */
export const K_SNAP_RADIUS_WIDE_PX = 16;

/** kBaseNavFloorBand: height band around a floor, m (formulas.md #64). */
export const K_FLOOR_BAND_M = 12;

/** Band around a declared start deck, m ([?] in formulas.md #64: the 2 m deck band). */
export const K_DECK_BAND_M = 2;

/** Old-pack weld: coordinates are rounded to this grid before welding, px (可走标记与顶点). */
export const K_WELD_GRID_PX = 0.05;

/** Old-pack weld: neighbours on one (x, y) within this height step chain together, m. */
export const K_WELD_DH_M = 3;
