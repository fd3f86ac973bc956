/**
 * The HTML report in real Chromium (Debian's `chromium`, installed by `deno task test`'s tests/provision.ts), driven by
 * playwright-core: opened from a file:// URL with every network request blocked.
 *
 * 1. A small report (the city_small fixture log): every chart drew (non-blank canvas pixels),
 *    the failure table sorts and filters, a drill-down opens with its SVG, dark mode renders.
 * 2. The demo's report (the five example batteries as the committed nightly baseline logs them,
 *    every world's pack and battery, a baseline with one leg removed and one extra failing leg):
 *    the verdict sits in the first 900 px and counts the new and fixed legs by leg id, and agrees
 *    with `navscope diff` on the same inputs; for every failure class the failing leg's picture
 *    exists, its viewport holds both endpoints or the gap pair, the legend lists every layer
 *    drawn and toggling a layer hides it; the wheel zooms, a drag pans, a hovered cell shows its
 *    spans; Chinese errors carry their gloss.
 * Both: no console errors, zero network requests. Screenshots go to test-artifacts/. When
 * Chromium is missing the test FAILS with the reason: it is never skipped silently.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = `${ROOT}test-artifacts`;
const WORLDS = ["city_small", "dungeon", "nav_test", "proto_level", "tower_big"];

/** Browser-side: every canvas with its count of non-transparent pixels. */
const INK = `[...document.querySelectorAll("canvas")].map((cv) => {
  const px = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
  let ink = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) ink++;
  return { id: cv.id, w: cv.width, h: cv.height, ink };
})`;

async function chromiumPresent(): Promise<string> {
  try {
    const st = await Deno.stat(CHROMIUM);
    if (!st.isFile && !st.isSymlink) return `${CHROMIUM} is not a file`;
    return "";
  } catch (e) {
    return `${CHROMIUM} not found (${(e as Error).message}): install Debian's chromium ` +
      "(apt-get install -y chromium fonts-noto-cjk; deno task test does this as root)";
  }
}

/** Opens `html` offline; collects console errors and network attempts. */
async function openOffline(
  browser: Browser,
  html: string,
): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  // Block everything but the report itself; count every attempt.
  await ctx.route("**/*", (route) => {
    const url = route.request().url();
    if (url === `file://${html}`) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const page = await ctx.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (q) => {
    if (q.url() !== `file://${html}`) requests.push(q.url());
  });
  await page.goto(`file://${html}`);
  await page.waitForSelector("body[data-ready='1']", { timeout: 15000 });
  return { page, errors, requests };
}

async function launch(): Promise<Browser> {
  const missing = await chromiumPresent();
  assert(missing === "", `Chromium is required for the browser test: ${missing}`);
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
}

Deno.test({
  name: "report in Chromium: charts drawn, table sorts/filters, drill-down SVG, dark mode, offline",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const browser = await launch();
    const dir = await Deno.makeTempDir({ prefix: "navscope_report_browser_" });
    const html = `${dir}/report.html`;
    try {
      const r = await captureOutput(() =>
        main([
          "report",
          `${ROOT}tests/fixtures/report/city_small.log`,
          "--out",
          html,
          "--pack",
          `${ROOT}examples/city_small/base.nav.gz`,
        ])
      );
      assertEquals(r.value, 0, r.err);
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const t0 = performance.now();
      const { page, errors, requests } = await openOffline(browser, html);
      const firstRender = performance.now() - t0;

      // Every chart: a canvas with non-blank pixels (three: tier stacks, scatter, stages; no
      // chart repeats a table).
      const canvases = await page.evaluate(INK) as Array<
        { id: string; w: number; h: number; ink: number }
      >;
      assertEquals(canvases.map((c) => c.id), ["chart-tiers", "chart-scatter", "chart-stages"]);
      for (const c of canvases) assert(c.w > 0 && c.ink > 500, `blank chart ${JSON.stringify(c)}`);
      // One stage × tier table.
      assertEquals(await page.locator("#stage-table table").count(), 1);

      // Sort by count (ascending after a click on a descending default), then by class.
      const col = async (i: number) =>
        await page.evaluate(
          `[...document.querySelectorAll("#failures tbody tr")].map((r) => r.children[${i}].innerText)`,
        ) as string[];
      const COUNT = 4;
      const counts0 = (await col(COUNT)).map(Number);
      assert(counts0.length >= 4, `rows ${counts0}`);
      assertEquals(counts0, [...counts0].sort((a, b) => b - a), "default: count descending");
      await page.click(`#failures th[data-col='${COUNT}']`);
      const counts1 = (await col(COUNT)).map(Number);
      assertEquals(counts1, [...counts1].sort((a, b) => a - b), "count ascending after a click");
      await page.click("#failures th[data-col='0']");
      const classes = await col(0);
      assertEquals(classes, [...classes].sort((a, b) => a.localeCompare(b)), "class ascending");
      assertEquals(
        await page.getAttribute("#failures th[data-col='0']", "aria-sort"),
        "ascending",
      );

      // Filter by class.
      await page.selectOption("#class-filter", "goal_outside_reach");
      const filtered = await col(0);
      assert(filtered.length >= 1, "a goal_outside_reach leg");
      assert(filtered.every((c) => c === "goal_outside_reach"), filtered.join());
      assert(filtered.length < classes.length, "the filter hides other classes");

      // Drill-down with its SVG (mesa_up replays with a window).
      await page.click("#failures tbody tr");
      await page.waitForSelector("#leg-dialog[open] .svgbox svg", { timeout: 5000 });
      const svg = await page.evaluate(`(() => {
        const s = document.querySelector("#leg-dialog .svgbox svg");
        return {
          w: s.getBoundingClientRect().width,
          image: s.querySelectorAll("image").length,
          layers: s.querySelectorAll("g[data-layer]").length,
          legend: s.querySelectorAll(".legend [data-legend-for]").length,
        };
      })()`) as { w: number; image: number; layers: number; legend: number };
      // The picture's raster layers are images; every layer has a legend entry (docs/pictures.md).
      assert(svg.w > 50 && svg.image >= 1 && svg.layers === svg.legend, JSON.stringify(svg));
      await page.screenshot({ path: `${ARTIFACTS}/report_drilldown.png` });
      await page.click("#leg-close");
      await page.selectOption("#class-filter", "");
      await page.evaluate("scrollTo(0, 0)");

      await page.screenshot({ path: `${ARTIFACTS}/report_light.png`, fullPage: true });

      // Dark mode: the page and the charts redraw with the dark palette.
      await page.emulateMedia({ colorScheme: "dark" });
      await page.waitForSelector("body[data-scheme='dark']", { timeout: 5000 });
      const bg = await page.evaluate("getComputedStyle(document.body).backgroundColor") as string;
      const [rr, gg, bb] = bg.match(/\d+/g)!.map(Number);
      assert(rr + gg + bb < 150, `dark background, got ${bg}`);
      const darkInk = await page.evaluate(INK) as Array<{ ink: number }>;
      assert(darkInk.every((c) => c.ink > 500), `dark charts ${JSON.stringify(darkInk)}`);
      await page.screenshot({ path: `${ARTIFACTS}/report_dark.png`, fullPage: true });

      assertEquals(errors, [], "console errors");
      assertEquals(requests, [], "network requests");
      await Deno.writeTextFile(
        `${ARTIFACTS}/report_browser.json`,
        JSON.stringify({ first_render_ms: Math.round(firstRender), canvases }, null, 2) + "\n",
      );
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** A drawn picture as the page sees it (map units, layers, legend). */
interface PictureFacts {
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  cell: number;
  mapW: number;
  mapH: number;
  layers: string[];
  legend: string[];
  /** Box of the gap pair (root `data-gap`) in map units, or null. */
  gap: [number, number, number, number] | null;
  /** `full` or `focus` (a crop over the pixel budget, with an overview). */
  crop: string;
  /** Focus crops: true when the overview's start and goal marks lie inside the overview. */
  overviewEnds: boolean;
  /** The final window `[x0, y0, nx, ny]` (root `data-window`) when the crop reaches beyond it. */
  window: number[] | null;
  /** False for a records picture (no window was built: the panel says "No window"). */
  windowed: boolean;
}

const PICTURE = `(() => {
  const s = document.querySelector("#leg-dialog .svgbox svg");
  if (!s) return null;
  const A = (k) => +s.getAttribute(k);
  // The gap pair, px (root data-gap: start x, y, goal x, y), as a box in map units.
  const gp = s.getAttribute("data-gap");
  let gb = null;
  if (gp) {
    const [ax, ay, bx, by] = gp.split(",").map(Number);
    const u = (x) => (x / 0.25 - A("data-x0")) * A("data-cell");
    const v = (y) => (A("data-ny") - (y / 0.25 - A("data-y0"))) * A("data-cell");
    gb = [Math.min(u(ax), u(bx)), Math.min(v(ay), v(by)), Math.max(u(ax), u(bx)), Math.max(v(ay), v(by))];
  }
  // The overview (focus crops): its frame, then the start and goal marks (reports/leg_svg.ts).
  let overviewEnds = false;
  const ov = s.querySelector('g.panel [data-layer="overview"]');
  if (ov) {
    const frame = ov.querySelector("rect:not(.overview-crop)");
    const marks = [...ov.querySelectorAll("circle")].slice(0, 2);
    const W = +frame.getAttribute("width"), H = +frame.getAttribute("height");
    overviewEnds = marks.length === 2 && marks.every((c) => {
      const x = +c.getAttribute("cx"), y = +c.getAttribute("cy");
      return x >= 0 && y >= 0 && x <= W && y <= H;
    });
  }
  return {
    crop: s.getAttribute("data-crop"), overviewEnds,
    x0: A("data-x0"), y0: A("data-y0"), nx: A("data-nx"), ny: A("data-ny"), cell: A("data-cell"),
    mapW: A("data-map-width"), mapH: A("data-map-height"),
    layers: [...new Set([...s.querySelectorAll("[data-layer]")].map((g) => g.dataset.layer))],
    legend: [...s.querySelectorAll(".legend [data-legend-for]")].map((g) => g.dataset.legendFor),
    gap: gb,
    window: s.getAttribute("data-window")?.split(",").map(Number) ?? null,
    windowed: !(s.querySelector("g.panel")?.textContent ?? "").includes("No window"),
  };
})()`;

/** px → map units of a picture. */
function mapPoint(p: PictureFacts, x: number, y: number): [number, number] {
  return [(x / 0.25 - p.x0) * p.cell, (p.ny - (y / 0.25 - p.y0)) * p.cell];
}

function inside(p: PictureFacts, q: [number, number]): boolean {
  return q[0] >= 0 && q[1] >= 0 && q[0] <= p.mapW && q[1] <= p.mapH;
}

Deno.test({
  name: "demo report in Chromium: verdict on the first screen, a picture per failure class, " +
    "layers toggle, zoom, pan, hover spans, offline",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const browser = await launch();
    const dir = await Deno.makeTempDir({ prefix: "navscope_report_demo_" });
    const html = `${dir}/report.html`, json = `${dir}/report.json`;
    try {
      // The current run: the five batteries as the committed baseline logs them. The baseline:
      // the same without one failing leg (new in the current run) and with one extra failing
      // leg (fixed in the current run).
      const lines = (await Deno.readTextFile(`${ROOT}examples/baseline/plans.log`)).split("\n")
        .filter((l) => l !== "");
      const fails = lines.filter((l) => l.includes("[ok=false]"));
      const dropped = fails.find((l) => l.includes("[leg=mesa_up]"))!;
      const extra = fails.find((l) => l.includes("[leg=island_start]"))!
        .replace(/\[start=\[([-\d.]+),/, (_m, x) => `[start=[${Number(x) + 1},`)
        .replace("[leg=island_start]", "[leg=island_start_moved]");
      assert(dropped && extra, "the fixture legs are in the baseline");
      const base = `${dir}/base.log`;
      await Deno.writeTextFile(
        base,
        [...lines.filter((l) => l !== dropped), extra].map((l) => l + "\n").join(""),
      );
      const packs = WORLDS.flatMap((w) => [
        "--pack",
        `${ROOT}examples/${w}/base.nav.gz`,
        "--battery",
        `${ROOT}examples/${w}/legs.json`,
      ]);
      const thresholds = `${ROOT}examples/baseline/thresholds.json`;
      const r = await captureOutput(() =>
        main([
          "report",
          `${ROOT}examples/baseline/plans.log`,
          "--out",
          html,
          "--json",
          json,
          ...packs,
          "--baseline",
          base,
          "--thresholds",
          thresholds,
          "--drill",
          "14",
        ])
      );
      assertEquals(r.value, 0, r.err);
      const data = JSON.parse(await Deno.readTextFile(json));

      // The report's verdict is diff's (and so nightly's: both call diffPaths).
      const d = await captureOutput(() =>
        main([
          "diff",
          base,
          `${ROOT}examples/baseline/plans.log`,
          "--thresholds",
          thresholds,
          "--json",
          `${dir}/diff.json`,
        ])
      );
      const diff = JSON.parse(await Deno.readTextFile(`${dir}/diff.json`));
      assertEquals(d.value, diff.verdict === "pass" ? 0 : 3);
      assertEquals(data.baseline.verdict, diff.verdict);
      assertEquals(data.baseline.regressions, diff.regressions);
      assertEquals(data.baseline.new_failing_legs, diff.new_failing_legs);
      assertEquals(data.baseline.fixed_legs, diff.fixed_legs);
      assertEquals(diff.new_failing_legs.length, 1);
      assertEquals(diff.fixed_legs.length, 1);

      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const { page, errors, requests } = await openOffline(browser, html);

      // The verdict: on the first screen, with the counts and the legs by id.
      const v = await page.evaluate(`(() => {
        const el = document.getElementById("verdict");
        const r = (q) => el.querySelector(q).getBoundingClientRect();
        return {
          top: el.getBoundingClientRect().top + scrollY,
          head: r(".verdict-head").bottom + scrollY,
          counts: r(".verdict-counts").bottom + scrollY,
          verdict: el.dataset.verdict,
          text: el.innerText,
          n: [...el.querySelectorAll("[data-count]")].map((c) => [c.dataset.count, c.querySelector("b").textContent]),
        };
      })()`) as {
        top: number;
        head: number;
        counts: number;
        verdict: string;
        text: string;
        n: string[][];
      };
      assert(v.top < 900 && v.head <= 900 && v.counts <= 900, `verdict at ${JSON.stringify(v)}`);
      assertEquals(v.verdict, diff.verdict);
      assertEquals(Object.fromEntries(v.n).new, "1");
      assertEquals(Object.fromEntries(v.n).fixed, "1");
      assert(v.text.includes("mesa_up") && v.text.includes("island_start_moved"), v.text);
      assert(/Worse than the baseline/.test(v.text), v.text);
      await page.screenshot({ path: `${ARTIFACTS}/report_demo_first_screen.png` });

      // Chinese errors keep their wording and carry the gloss beside them.
      const glossCount = await page.locator("#failures td.err .gloss").count();
      assert(glossCount > 0, "glossed errors in the failure table");
      // Leg ids in the failure table.
      const legIds = await page.evaluate(
        `[...document.querySelectorAll("#failures tbody tr")].map((r) => r.dataset.leg)`,
      ) as string[];
      assert(legIds.includes("slope_65_up"), legIds.join());

      // Every failure class of the run: its first leg's picture.
      type Leg = {
        id: number;
        class: string;
        leg: string;
        origin: string;
        start: [number, number];
        goal: [number, number];
      };
      const byClass = new Map<string, Leg>();
      for (const l of data.failures.legs as Leg[]) {
        if (l.origin !== "load" && !byClass.has(l.class)) byClass.set(l.class, l);
      }
      assert(byClass.size >= 5, `classes ${[...byClass.keys()]}`);
      const problems: string[] = [];
      let hovered = false, zoomed = false;
      for (const [cls, leg] of byClass) {
        await page.evaluate(`document.getElementById("leg-dialog").open &&
          document.getElementById("leg-dialog").close()`);
        await page.selectOption("#class-filter", "");
        await page.click(`#failures tbody tr[data-id="${leg.id}"]`);
        await page.waitForSelector("#leg-dialog[open]", { timeout: 5000 });
        // A replay that differs from the log says why.
        const dd = data.drilldowns[leg.id];
        if (dd?.differs) {
          const why = await page.locator("#leg-dialog .replay-differs li").count();
          assert(why > 0, `${cls}: the replay differs from the log without a reason`);
        }
        const p = await page.evaluate(PICTURE) as PictureFacts | null;
        if (!p) {
          problems.push(`${cls} (${leg.leg}): no picture (${dd?.why ?? "not replayed"})`);
          continue;
        }
        // The viewport holds both endpoints, or the gap pair; a focus crop (over the pixel
        // budget, drawn around what explains the failure) holds them in its overview.
        const ends = [mapPoint(p, ...leg.start), mapPoint(p, ...leg.goal)];
        const gapIn = p.gap !== null && p.gap[0] >= 0 && p.gap[1] >= 0 &&
          p.gap[2] <= p.mapW && p.gap[3] <= p.mapH;
        const focusOk = p.crop === "focus" && p.overviewEnds;
        if (!ends.every((q) => inside(p, q)) && !gapIn && !focusOk) {
          problems.push(`${cls} (${leg.leg}): neither both endpoints nor the gap pair in view`);
        }
        // The legend lists every layer drawn.
        const missing = p.layers.filter((id) => !p.legend.includes(id));
        if (missing.length) problems.push(`${cls}: layers without a legend entry: ${missing}`);
        // Toggling a layer hides it (and shows it again).
        const layer = p.layers.find((id) => id !== "scale" && id !== "overview")!;
        const shown = `(() => [...document.querySelectorAll('#leg-dialog [data-layer="${layer}"]')]
          .every((g) => getComputedStyle(g).display !== "none"))()`;
        assert(await page.evaluate(shown), `${cls}: layer ${layer} visible at first`);
        await page.click(`#leg-dialog .legend [data-legend-for="${layer}"]`);
        const hidden = await page.evaluate(`(() => [...document.querySelectorAll(
          '#leg-dialog [data-layer="${layer}"]')].every((g) => getComputedStyle(g).display === "none"))()`);
        if (!hidden) problems.push(`${cls}: clicking the legend entry of ${layer} did not hide it`);
        await page.click(`#leg-dialog .legend [data-legend-for="${layer}"]`);
        assert(await page.evaluate(shown), `${cls}: layer ${layer} shown again`);

        // Hover, wheel and drag on the first picture with spans drawn from a window (a records
        // picture's raw endpoint, e.g. snap_far's [0, 0], may lie where the pack has no record).
        if (!hovered && dd?.spans && p.windowed) {
          await page.waitForSelector("#leg-dialog svg[data-spans='ready']", { timeout: 10000 });
          await page.locator("#leg-dialog .svgbox").scrollIntoViewIfNeeded();
          // An endpoint with spans: on the map and inside the final window (the crop may reach
          // beyond the window to show a raw endpoint; nothing is known there).
          const inWindow = (q: [number, number]) => {
            if (!p.window) return true;
            const [wx, wy, wnx, wny] = p.window;
            const gx = p.x0 + Math.floor(q[0] / p.cell),
              gy = p.y0 + p.ny - 1 - Math.floor(q[1] / p.cell);
            return gx >= wx && gy >= wy && gx < wx + wnx && gy < wy + wny;
          };
          const [u, w] = ends.every((q) => inside(p, q))
            ? ends.find(inWindow) ?? [p.mapW / 2, p.mapH / 2]
            : [p.mapW / 2, p.mapH / 2];
          const at = await page.evaluate(`(() => {
            const z = document.querySelector("#leg-dialog .map-zoom");
            const s = z.ownerSVGElement.createSVGPoint();
            s.x = ${u}; s.y = ${w};
            const q = s.matrixTransform(z.getScreenCTM());
            return [q.x, q.y];
          })()`) as [number, number];
          await page.mouse.move(at[0], at[1]);
          const cellText = await page.getAttribute("#leg-dialog .hover", "data-cell");
          const gx = p.x0 + Math.floor(u / p.cell), gy = p.y0 + p.ny - 1 - Math.floor(w / p.cell);
          assertEquals(cellText, `${gx},${gy}`);
          const rows = await page.locator("#leg-dialog .hover table.spans tbody tr").count();
          const text = await page.innerText("#leg-dialog .hover");
          assert(rows >= 1 && /height m/.test(text) && /clearance/.test(text), text);
          hovered = true;
          await page.screenshot({ path: `${ARTIFACTS}/report_demo_hover.png` });
          // The wheel zooms in around the pointer; a drag pans.
          await page.mouse.wheel(0, -400);
          const zoom = Number(await page.getAttribute("#leg-dialog .svgbox svg", "data-zoom"));
          assert(zoom > 1.5, `zoom ${zoom}`);
          const t0 = await page.getAttribute("#leg-dialog .map-zoom", "transform");
          await page.mouse.down();
          await page.mouse.move(at[0] - 60, at[1] - 40, { steps: 4 });
          await page.mouse.up();
          const t1 = await page.getAttribute("#leg-dialog .map-zoom", "transform");
          assert(t0 !== t1, `drag pans: ${t0} → ${t1}`);
          zoomed = true;
          await page.screenshot({ path: `${ARTIFACTS}/report_demo_zoomed.png` });
        }
      }
      assert(hovered && zoomed, "a picture with hover spans was exercised");
      await Deno.writeTextFile(
        `${ARTIFACTS}/report_demo_pictures.json`,
        JSON.stringify({ classes: [...byClass.keys()], problems }, null, 2) + "\n",
      );
      assertEquals(problems, [], `pictures (${ARTIFACTS}/report_demo_pictures.json)`);
      assertEquals(errors, [], "console errors");
      assertEquals(requests, [], "network requests");
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
