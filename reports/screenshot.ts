/**
 * Screenshot of a report page in headless Chromium (Debian's /usr/bin/chromium via
 * playwright-core), and the time to first render (navigation until the page script has drawn
 * every chart). `deno task report-screenshot` runs the demo's report through it into
 * reports/screenshot.png (the README's picture).
 *
 * Usage: `deno run -A reports/screenshot.ts REPORT.html OUT.png [--full]`
 * @module
 */
import { chromium } from "playwright-core";

/** Opens `html` offline, waits for the charts, writes `png`; resolves to the render time, ms. */
export async function screenshotReport(html: string, png: string, full = false): Promise<number> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const url = `file://${await Deno.realPath(html)}`;
    await page.route("**/*", (r) => (r.request().url() === url ? r.continue() : r.abort()));
    const t0 = performance.now();
    await page.goto(url);
    await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
    const ms = performance.now() - t0;
    await page.screenshot({ path: png, fullPage: full });
    return ms;
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  const [html, png] = Deno.args;
  const ms = await screenshotReport(html, png, Deno.args.includes("--full"));
  console.log(`${png}: first render of ${html} in ${ms.toFixed(0)} ms`);
}
