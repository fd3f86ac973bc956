/**
 * The self-contained HTML report page: chart.js (npm `chart.js`, pinned in deno.json) inlined,
 * the CSS (reports/report.css) and the page script (reports/report_client.js) inlined, all data
 * embedded as JSON, and a Content-Security-Policy that forbids every network request (only
 * inline scripts/styles and `data:` images), so the file opens offline from `file://`.
 * @module
 */
import type { ReportData } from "./report_data.ts";
import { chartSpecs } from "./report_charts.ts";
import { counterTableHtml, otherTableHtml } from "./report_costs.ts";
import { runsSectionHtml } from "./report_runs.ts";
import { contradictionsHtml, sourceHtml } from "./report_replay.ts";

/** The chart.js build inlined into the page (the UMD bundle of the pinned npm package). */
export async function chartJsSource(): Promise<string> {
  // import.meta.resolve installs the pinned package into node_modules/ (nodeModulesDir auto)
  // and gives its ESM entry, dist/chart.js; the UMD bundle sits beside it.
  const entry = import.meta.resolve("chart.js");
  return await Deno.readTextFile(new URL("./chart.umd.min.js", entry));
}

async function local(name: string): Promise<string> {
  return await Deno.readTextFile(new URL(`./${name}`, import.meta.url));
}

/** JSON safe inside a <script> element. */
export function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(
    /\u2029/g,
    "\\u2029",
  );
}

function esc(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "img-src data:; font-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'";

/** Builds the page. `title` goes into <title> and the heading. */
export async function reportHtml(d: ReportData, title = "navscope report"): Promise<string> {
  const [chartJs, css, client] = await Promise.all([
    chartJsSource(),
    local("report.css"),
    local("report_client.js"),
  ]);
  const specs = chartSpecs(d);
  const canvas = (section: string) =>
    specs.filter((s) => s.section === section).map((s) =>
      `<figure><h3>${
        esc(s.title)
      }</h3><div class="chart"><canvas id="${s.id}" role="img" aria-label="${
        esc(s.title)
      }"></canvas></div></figure>`
    ).join("\n");
  const history = d.history
    ? `<section id="history"><h2>History (${d.history.runs} runs of ${esc(d.history.store)})</h2>
${canvas("history") || '<p class="muted">No change points in the stored runs.</p>'}
${
      d.history.failing.length
        ? `<ul class="failing-since">${
          d.history.failing.map((f) =>
            `<li>${esc(f.leg)} (${esc(f.code)}): failing since run ${f.since} (commit ${
              esc(f.commit || "?")
            })</li>`
          ).join("")
        }</ul>`
        : ""
    }
</section>`
    : "";
  const notes = d.notes.map((n) => `<p class="note">${esc(n)}</p>`).join("\n");
  const baseline = d.baseline
    ? `<section id="baseline"><h2>Against the baseline (navscope diff)</h2><div id="baseline-body"></div></section>`
    : "";
  // The verdict is the first thing under the heading (the first screen answers "better or
  // worse?"); without --baseline it says how to get one.
  const verdict = d.baseline
    ? `<div id="verdict" class="verdict" role="status"></div>`
    : `<div id="verdict" class="verdict verdict-none" role="status"><b>No baseline.</b> ` +
      `<span class="muted">Run navscope report with --baseline BASE [--thresholds FILE] to see whether this run is better or worse (the same comparison as navscope diff and nightly).</span></div>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title>
<style>${css}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p class="muted">${esc(String(d.overview.plans))} plans from ${
    esc(d.inputs.join(", "))
  } — built by navscope report; self-contained, works offline.</p>
<nav><a href="#overview">Overview</a><a href="#tiers">Tiers</a><a href="#stages">Stage timings</a><a href="#failure-section">Failures</a>${
    d.failed_runs ? '<a href="#runs-section">Failed runs</a>' : ""
  }${d.baseline ? '<a href="#baseline">Baseline</a>' : ""}${
    d.history ? '<a href="#history">History</a>' : ""
  }</nav>
</header>
<main>
<section id="overview"><h2>Overview</h2>
${verdict}
<div class="cards" id="cards"></div>
<div class="grid2"><div><h3>Failures by class</h3><div id="classes"></div></div>
<div><h3>Run</h3><div id="facts"></div><h3>Zones</h3><div id="zones"></div></div></div>

</section>
<section id="tiers"><h2>Tier distribution</h2>
${sourceHtml(d.stats_source)}
<p id="tier0"></p>
<div class="grid2">${canvas("tiers")}</div>
<div class="grid2"><div><h3>Total time per final tier</h3><div id="tier-table"></div></div>
<div><h3>Window area by final tier (cells)</h3><div id="bucket-table"></div></div></div>
</section>
<section id="stages"><h2>Per-stage timings</h2>
${sourceHtml(d.stats_source)}
<p id="other-share"></p>
<h3>Stage × final tier (successful plans)</h3>
<p class="muted">p50 ms of each stage and its share of the group's summed total time; hover a cell for the sum and the maximum.</p>
<div id="stage-table" class="scroll"></div>
<h3 id="other-heading">What “other” is made of</h3>
${otherTableHtml(d)}
${canvas("stages")}
<details id="counters"><summary>Work counters (sum, p50, p90, max over all plans and per final tier)</summary>
${counterTableHtml(d)}
</details>
</section>
<section id="failure-section"><h2>Failures: distinct failing legs</h2>
<div class="controls"><label>Class <select id="class-filter"></select></label>
<label>Filter <input id="text-filter" type="search" placeholder="leg id, error text, zone, endpoints"></label>
<span id="failure-count" class="muted"></span></div>
<p class="muted">Click a column head to sort, a row to open its drill-down${
    Object.keys(d.drilldowns).length
      ? " (the replayed leg's picture: click a legend entry to hide or show its layer, the mouse wheel zooms, drag pans, hover a cell for its spans)"
      : ""
  }.</p>
<table id="failures"><thead><tr></tr></thead><tbody></tbody></table>
</section>
${runsSectionHtml(d.failed_runs)}
${contradictionsHtml(d.stats_source)}
${baseline}
${history}
<section id="notes-section"><h2>How this page was built</h2>
${notes || '<p class="muted">Every figure counts every plan of the inputs.</p>'}
</section>
</main>
<dialog id="leg-dialog"><div id="leg-body"></div><p><button id="leg-close" type="button">Close</button></p></dialog>
<script id="report-data" type="application/json">${scriptJson(d)}</script>
<script id="chart-specs" type="application/json">${scriptJson(specs)}</script>
<script>${chartJs.replace(/<\/script/gi, "<\\/script")}</script>
<script>${client.replace(/<\/script/gi, "<\\/script")}</script>
</body>
</html>
`;
}
