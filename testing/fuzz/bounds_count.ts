/**
 * Counts, among the accepted class-c mutants of an external fuzz-harness run, those carrying a
 * value outside the plausibility bounds of docs/pack_validation.md (issue 55; docs/fuzz.md).
 *
 *   deno run -A testing/fuzz/bounds_count.ts OUT
 *
 * OUT is the harness's output directory, where each class-c mutant of target T (bnav, bnvf,
 * ocls, nogo) was kept as `OUT/T/cmut/<index>.bin` with its `<index>.json` (`note` = the mutated
 * field and value). Each mutant is decoded as the harness decodes it (main pack + BGRD + every
 * tile; sidecar; every occluder record; no-go table) with this checkout's bounds collected, not
 * thrown (`collectBoundViolations`), so a mutant of an older navscope is judged by these bounds.
 * Prints one line per out-of-bounds mutant, the counts by mutation, and a table per target.
 * @module
 */
import { NavscopeError } from "../../src/errors.ts";
import { collectBoundViolations } from "../../src/pack/bounds.ts";
import { decodeMainPack } from "../../src/pack/bnav/codec.ts";
import { decodeBgrdTile, parseBgrd } from "../../src/pack/bgrd/section.ts";
import { decodeSidecar } from "../../src/pack/bnvf/sidecar.ts";
import { decodeOccluderPackAll } from "../../src/pack/ocls/pack.ts";
import { parseNoGoTable } from "../../src/pack/nogo/table.ts";

const TARGETS = ["bnav", "bnvf", "ocls", "nogo"] as const;

function decode(target: (typeof TARGETS)[number], bytes: Uint8Array, file: string): void {
  if (target === "bnav") {
    const load = decodeMainPack(bytes, { file });
    if (!load.pack.grid) return;
    const g = parseBgrd(load.pack.grid, { file });
    g.zones.forEach((z, zi) => z.tiles.forEach((_, ti) => decodeBgrdTile(g, zi, ti)));
  } else if (target === "bnvf") decodeSidecar(bytes, null, { file });
  else if (target === "ocls") decodeOccluderPackAll(bytes, file);
  else parseNoGoTable(new TextDecoder().decode(bytes), file);
}

async function main(out: string): Promise<void> {
  const byNote = new Map<string, number>();
  const rows: string[] = [];
  for (const t of TARGETS) {
    const dir = `${out}/${t}/cmut`;
    let names: string[] = [];
    try {
      names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".bin"));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    let outside = 0;
    for (const n of names) {
      const bytes = await Deno.readFile(`${dir}/${n}`);
      const meta = JSON.parse(await Deno.readTextFile(`${dir}/${n.replace(/\.bin$/, ".json")}`));
      const { violations, error } = await collectBoundViolations(() =>
        Promise.resolve(decode(t, bytes, n))
      );
      const first = violations[0] ??
        (error instanceof NavscopeError && /plausible range/.test(error.message) ? error : null);
      if (!first) continue;
      outside++;
      const key = `${t} | ${String(meta.note).replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/g, "#")}`;
      byNote.set(key, (byNote.get(key) ?? 0) + 1);
      console.log(`${t} #${meta.index} ${meta.note}: ${first.message}`);
    }
    rows.push(`| ${t} | ${names.length} | ${outside} |`);
  }
  console.log("\nby mutation:");
  for (const [k, v] of [...byNote].sort()) console.log(`  ${v}\t${k}`);
  console.log("\n| target | class c | outside the bounds |\n| --- | --- | --- |");
  for (const r of rows) console.log(r);
}

if (import.meta.main) {
  if (Deno.args.length !== 1) {
    console.error("usage: deno run -A testing/fuzz/bounds_count.ts OUT");
    Deno.exit(2);
  }
  await main(Deno.args[0]);
}
