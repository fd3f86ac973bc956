/**
 * Test helper: the pieces of a main pack and its sidecar that a ZoneState is built from, read
 * without an engine, so a test can build zone states with changed sidecar tables.
 * @module
 */
import { decodeMainPack } from "../src/pack/bnav/codec.ts";
import { readMaybeGzip } from "../src/codec/file.ts";
import { parseBgrd } from "../src/pack/bgrd/section.ts";
import { loadSidecarFile } from "../src/pack/bnvf/sidecar.ts";
import { sidecarExpectations } from "../src/pack/set/pack_set.ts";
import { ZoneState } from "../src/plan/window/zone_state.ts";
import type { SidecarPack } from "../src/pack/bnvf/sidecar.ts";

/** `dir/base.nav.gz` with `dir/base.fields.nav.gz`: `make(sidecar?)` builds the zone's state. */
export async function zoneFixture(dir: string, zone: string) {
  const file = dir + "base.nav.gz";
  const bytes = await readMaybeGzip(file);
  const load = decodeMainPack(bytes);
  const section = parseBgrd(load.pack.grid!);
  const side = await loadSidecarFile(
    dir + "base.fields.nav.gz",
    sidecarExpectations(load.header.buildHash, bytes, section),
  );
  const rec = load.pack.zones.find((z) => z.name === zone)!;
  const make = (sidecar: SidecarPack = side) =>
    new ZoneState(file, section, sidecar, load.pack, rec);
  return { section, side, rec, make };
}
