/**
 * `report … --history FILE` (reports/report_history.ts): the thirty synthetic nights give two
 * trend charts, each with its change point marked on the first run after it (night 18's counter
 * step, night 22's flip), and the page says the flipped leg is "failing since run 22 (commit c22)".
 */
import { assert, assertEquals } from "./assert.ts";
import { join } from "node:path";
import { HistoryStore } from "../src/analyze/history.ts";
import { thirtyNights } from "../testing/history_gen.ts";
import { reportHistory } from "../reports/report_history.ts";
import { historyChartSpecs } from "../reports/report_charts.ts";
import { emptyPlanRecord, formatPlanLine } from "../src/logs/plan_line.ts";
import { main } from "../commands/main.ts";
import { captureOutput } from "../commands/support/terminal.ts";

Deno.test("report --history: both change points marked on their trends; failing since", async () => {
  const dir = await Deno.makeTempDir({ prefix: "navscope_report_history_" });
  try {
    const store = join(dir, "h.sqlite");
    const h = HistoryStore.open(store);
    for (const r of thirtyNights()) h.addRun(r);
    h.close();
    const hist = reportHistory(store);
    assertEquals(
      hist.trends.map((t) => [t.leg, t.metric, t.changes.map((c) => [c.index, c.run, c.commits])]),
      [
        ["synthetic/leg0002", "counter:c1", [[17, 18, "c17..c18"]]],
        ["synthetic/leg0004", "outcome", [[21, 22, "c21..c22"]]],
      ],
    );
    assertEquals(hist.failing, [
      { leg: "synthetic/leg0004", since: 22, commit: "c22", code: "disconnected" },
    ]);
    const specs = historyChartSpecs(hist);
    assertEquals(specs.length, 2);
    for (const [k, at] of [[0, 17], [1, 21]]) {
      const sets = (specs[k].config.data as { datasets: Array<{ data: Array<number | null> }> })
        .datasets;
      const marked = sets[1].data.flatMap((v, i) => (v === null ? [] : [i]));
      assertEquals(marked, [at]);
    }
    // The whole command: the section, its canvases and the failing-since line are on the page.
    const log = join(dir, "p.log");
    const r = { ...emptyPlanRecord("z", [1, 2], [3, 4]), version: "navscope/0.1.0", ok: true };
    await Deno.writeTextFile(log, formatPlanLine(r) + "\n");
    const out = join(dir, "r.html");
    const res = await captureOutput(() => main(["report", log, "--out", out, "--history", store]));
    assertEquals(res.value, 0, res.err);
    const html = await Deno.readTextFile(out);
    assert(html.includes('<section id="history">'), "history section");
    assert(html.includes('id="chart-history-0"') && html.includes('id="chart-history-1"'));
    assert(html.includes("failing since run 22 (commit c22)"), "failing since");
    const missing = await captureOutput(() =>
      main(["report", log, "--out", out, "--history", join(dir, "none.sqlite")])
    );
    assertEquals(missing.value, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
