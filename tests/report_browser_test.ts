/**
 * The HTML report in real Chromium (Debian's `chromium`, installed by .ci/run), driven by
 * playwright-core: opened from a file:// URL with every network request blocked; every chart
 * drew (non-blank canvas pixels), the failure table sorts and filters, a drill-down opens with
 * its SVG, dark mode renders, no console errors, zero network requests. Screenshots go to
 * test-artifacts/ (light, dark). When Chromium is missing the test FAILS with the reason: it is
 * never skipped silently.
 */
import { chromium } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = `${ROOT}test-artifacts`;

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
      "(apt-get install -y chromium; .ci/run does this)";
  }
}

Deno.test({
  name: "report in Chromium: charts drawn, table sorts/filters, drill-down SVG, dark mode, offline",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const missing = await chromiumPresent();
    assert(missing === "", `Chromium is required for the browser test: ${missing}`);
    const dir = await Deno.makeTempDir({ prefix: "navscope_report_browser_" });
    const html = `${dir}/report.html`;
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

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    try {
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
      const t0 = performance.now();
      await page.goto(`file://${html}`);
      await page.waitForSelector("body[data-ready='1']", { timeout: 15000 });
      const firstRender = performance.now() - t0;

      // Every chart: a canvas with non-blank pixels.
      const canvases = await page.evaluate(INK) as Array<
        { id: string; w: number; h: number; ink: number }
      >;
      assertEquals(canvases.length, 5, JSON.stringify(canvases));
      for (const c of canvases) assert(c.w > 0 && c.ink > 500, `blank chart ${JSON.stringify(c)}`);

      // Sort by count (ascending after a click on a descending default), then by class.
      const col = async (i: number) =>
        await page.evaluate(
          `[...document.querySelectorAll("#failures tbody tr")].map((r) => r.children[${i}].innerText)`,
        ) as string[];
      const counts0 = (await col(4)).map(Number);
      assert(counts0.length >= 4, `rows ${counts0}`);
      assertEquals(counts0, [...counts0].sort((a, b) => b - a), "default: count descending");
      await page.click("#failures th[data-col='4']");
      const counts1 = (await col(4)).map(Number);
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
