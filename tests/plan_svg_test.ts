/**
 * `plan --svg`: the window picture of a plan (src/plan/diagnostics/picture.ts) drawn by reports/leg_svg.ts —
 * a successful leg shows every stage's polyline and its waypoints; a disconnected leg shows the
 * gap markers with the gap distance; the background is an embedded PNG of the crop.
 */
import { assert, assertEquals } from "./assert.ts";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";
import { openEngine } from "../src/plan/engine.ts";
import { legSvg } from "../reports/leg_svg.ts";
import { QUICK } from "./tiers.ts";

const PACK = new URL("./fixtures/oracle/city_small/base.nav.gz", import.meta.url).pathname;

Deno.test("plan --svg: a route with its stages", async () => {
  const engine = await openEngine(PACK);
  const ok = await engine.plan({ zone: "map01base", start: [24, 40], goal: [66, 12] }, {
    picture: true,
  });
  assert(ok.ok && ok.picture !== undefined);
  const pic = ok.picture!;
  assertEquals(pic.cells.length, pic.nx * pic.ny);
  const svg = legSvg(pic, "plaza");
  for (const cls of ["topo", "taut", "pulled", "asm", "final"]) {
    assert(svg.includes(`class="${cls}"`), cls);
  }
  assert(svg.includes("data:image/png;base64,"), "background");
  assertEquals((svg.match(/fill="none" stroke="#d22"/g) ?? []).length, ok.waypoints.length);
  engine.close();
});

// A full-window failing leg (seconds): the full suite only (tests/tiers.ts).
Deno.test({ name: "plan --svg: a gap across a closing disc", ignore: QUICK }, async () => {
  const engine = await openEngine(PACK);
  const cut = await engine.plan({
    zone: "map01base",
    start: [364.75, 85],
    goal: [364.75, 150],
    noGoDiscs: [{ x: 364.75, y: 115, r: 3 }],
  }, { picture: true });
  assertEquals(cut.error, "route_disconnected");
  const s2 = legSvg(cut.picture!, "cut");
  assertEquals((s2.match(/class="gap"/g) ?? []).length, 3);
  assert(s2.includes(`gap ${cut.debug.gap!.distance.toFixed(2)} px`));
  assert(s2.includes('class="nogo"'), "the disc is drawn");
  engine.close();
});

Deno.test("plan --svg through the CLI writes the file, also for a leg without a window", async () => {
  const dir = await Deno.makeTempDir();
  const r = await captureOutput(() =>
    main([
      "plan",
      PACK,
      "--zone",
      "map01base",
      "--from",
      "24,40",
      "--to",
      "66,12",
      "--svg",
      `${dir}/a.svg`,
    ])
  );
  assertEquals(r.value, 0);
  assert((await Deno.readTextFile(`${dir}/a.svg`)).startsWith("<svg"));
  // A pre-check failure builds no window: the picture is drawn from the pack's records around
  // the failing endpoint and says so (issue 28: every failing leg gets a picture).
  const f = await captureOutput(() =>
    main([
      "plan",
      PACK,
      "--zone",
      "map01base",
      "--from",
      "440,215",
      "--to",
      "45,28",
      "--svg",
      `${dir}/b.svg`,
    ])
  );
  assertEquals(f.value, 0);
  const b = await Deno.readTextFile(`${dir}/b.svg`);
  assert(b.startsWith("<svg") && b.includes("No window"), "picture without a window");
  assert(f.err.includes(`wrote the picture to ${dir}/b.svg`), "says where it wrote");
  await Deno.remove(dir, { recursive: true });
});
