/**
 * A triage's report.html in real Chromium (issue 53), as tests/report_browser_test.ts opens the
 * report: `navscope triage` of the example bug-report bundle replayed on city_small's pack, then
 * every failing leg's drill-down opened offline. Each picture carries its title, the planner's
 * message (Chinese, drawn with a width: not an empty run of missing glyphs) and the replay's
 * verdict in its panel, a legend entry for exactly the layers it draws (the log's planned path
 * and observed track among them when the run has them), and a px scale bar. No console errors,
 * no network. When Chromium is missing the test fails with the reason, as the report's browser
 * test does (`deno task test` installs it).
 */
import { chromium } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = `${ROOT}test-artifacts`;

/** Browser-side: the open drill-down's picture, as the page lays it out. */
const PICTURE = `(() => {
  const s = document.querySelector("#leg-dialog .svgbox svg");
  const texts = [...s.querySelectorAll(".panel text")];
  const planner = texts.filter((t) => t.textContent.startsWith("Planner: "));
  return {
    layers: [...new Set([...s.querySelectorAll("g[data-layer]")].map((g) => g.dataset.layer))],
    legend: [...s.querySelectorAll(".legend [data-legend-for]")].map((g) => g.dataset.legendFor),
    words: texts.map((t) => t.textContent).join(" "),
    plannerWidth: planner.length ? planner[0].getBBox().width : 0,
    plannerText: planner.map((t) => t.textContent).join(""),
  };
})()`;

Deno.test({
  name: "triage report in Chromium: every drill-down picture has title, message, legend = layers",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    try {
      await Deno.stat(CHROMIUM);
    } catch (e) {
      throw new Error(
        `Chromium is required for the browser test: ${CHROMIUM} not found (${
          (e as Error).message
        }): apt-get install -y chromium fonts-noto-cjk (deno task test does this as root)`,
      );
    }
    const dir = await Deno.makeTempDir({ prefix: "navscope_triage_browser_" });
    const zips: string[] = [];
    for await (const e of Deno.readDir(`${ROOT}examples/bundle`)) {
      if (e.name.endsWith(".zip")) zips.push(`${ROOT}examples/bundle/${e.name}`);
    }
    const r = await captureOutput(() =>
      main([
        "triage",
        ...zips.sort(),
        "--pack",
        `${ROOT}examples/city_small/base.nav.gz`,
        "--out",
        dir,
      ])
    );
    assertEquals(r.value, 0, r.err);
    const html = `${dir}/report.html`;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    try {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const requests: string[] = [], errors: string[] = [];
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
      await page.goto(`file://${html}`);
      await page.waitForSelector("body[data-ready='1']", { timeout: 15000 });
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const rows = await page.locator("#failures tbody tr").count();
      assert(rows >= 1, "failing legs in the table");
      let drawn = 0, withLog = 0;
      for (let i = 0; i < rows; i++) {
        await page.locator("#failures tbody tr").nth(i).click();
        await page.waitForSelector("#leg-dialog[open]", { timeout: 5000 });
        if (await page.locator("#leg-dialog .svgbox svg").count() === 0) {
          await page.click("#leg-close");
          continue;
        }
        drawn++;
        const p = await page.evaluate(PICTURE) as {
          layers: string[];
          legend: string[];
          words: string;
          plannerWidth: number;
          plannerText: string;
        };
        assertEquals([...p.legend].sort(), [...p.layers].sort(), `row ${i}: legend = layers`);
        assert(p.layers.includes("scale"), `row ${i}: a scale bar`);
        assert(/ · map01base/.test(p.words), `row ${i}: a title naming the zone: ${p.words}`);
        assert(/Replay (reproduces|says|ed to)|Replayed to/.test(p.words), `row ${i}: ${p.words}`);
        // The message is drawn with a width of about a character per code point.
        assert(p.plannerText.length > 9, `row ${i}: the planner's message`);
        assert(p.plannerWidth > 4 * p.plannerText.length, `row ${i}: ${p.plannerWidth} px wide`);
        if (p.layers.some((l) => l.startsWith("track") || l.startsWith("logpath"))) withLog++;
        await page.locator("#leg-dialog").screenshot({
          path: `${ARTIFACTS}/triage_drilldown_${i + 1}.png`,
        });
        await page.click("#leg-close");
      }
      assert(drawn >= 1, "at least one picture");
      assert(withLog >= 1, "the log's planned path or track drawn on a replayed picture");
      assertEquals(errors, [], "console errors");
      assertEquals(requests, [], "network requests");
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
