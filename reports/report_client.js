// navscope report page script (inlined into the HTML by reports/report_page.ts). Reads the
// embedded JSON (#report-data, #chart-specs), draws the charts with the inlined chart.js, fills
// the tables, wires sorting / filtering of the failure table and the drill-down dialog, and
// redraws the charts when the colour scheme changes. No network access of any kind.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const specs = JSON.parse(document.getElementById("chart-specs").textContent);
  const $ = (id) => document.getElementById(id);
  const esc = (s) =>
    String(s).replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
    );
  const num = (v, d) => {
    if (v === null || v === undefined || Number.isNaN(v)) return "-";
    const a = Math.abs(v);
    const digits = d !== undefined ? d : a < 10 ? 2 : a < 1000 ? 1 : 0;
    return String(Number(v.toFixed(digits)));
  };
  const pct = (v) => (v === null || v === undefined ? "-" : (v * 100).toFixed(1) + " %");
  const pt = (p) => (p ? num(p[0], 2) + ", " + num(p[1], 2) : "?");

  const LIGHT = [
    "#2f6fd6",
    "#e8833a",
    "#2ca05a",
    "#9b59b6",
    "#d4a017",
    "#17a2b8",
    "#e05297",
    "#7f8c8d",
    "#8c564b",
    "#1abc9c",
  ];
  const DARK = [
    "#6ea1ff",
    "#ffa15c",
    "#4cc985",
    "#c38bff",
    "#f2c94c",
    "#4fd1e6",
    "#ff7ab8",
    "#aab4b8",
    "#c8937f",
    "#48e0c0",
  ];
  const media = matchMedia("(prefers-color-scheme: dark)");
  function theme() {
    const cs = getComputedStyle(document.documentElement);
    const v = (n) => cs.getPropertyValue(n).trim();
    return {
      pal: media.matches ? DARK : LIGHT,
      fg: v("--fg"),
      muted: v("--muted"),
      grid: v("--grid"),
      bad: v("--bad"),
    };
  }
  function resolve(x, t) {
    if (typeof x === "string" && x[0] === "@") {
      const k = x.slice(1);
      if (/^\d$/.test(k)) return t.pal[+k];
      return t[k] !== undefined ? t[k] : x;
    }
    if (Array.isArray(x)) return x.map((y) => resolve(y, t));
    if (x && typeof x === "object") {
      const o = {};
      for (const k of Object.keys(x)) o[k] = resolve(x[k], t);
      return o;
    }
    return x;
  }

  const charts = [];
  function drawCharts() {
    while (charts.length) charts.pop().destroy();
    const t = theme();
    Chart.defaults.color = t.fg;
    Chart.defaults.borderColor = t.grid;
    for (const s of specs) {
      const cv = $(s.id);
      if (!cv) continue;
      charts.push(new Chart(cv, resolve(s.config, t)));
    }
    document.body.dataset.charts = String(charts.length);
    document.body.dataset.scheme = media.matches ? "dark" : "light";
  }

  function table(head, rows, numeric) {
    let h = "<table><thead><tr>";
    head.forEach((x, i) => (h += `<th class="${numeric[i] ? "n" : ""}">${esc(x)}</th>`));
    h += "</tr></thead><tbody>";
    for (const r of rows) {
      h += "<tr>";
      r.forEach((x, i) => (h += `<td class="${numeric[i] ? "n" : ""}">${esc(x)}</td>`));
      h += "</tr>";
    }
    return h + "</tbody></table>";
  }

  // Overview cards and tables.
  const o = data.overview;
  const cards = [
    ["plans", o.plans],
    ["success rate", pct(o.success_rate)],
    ["failed plans", o.failed],
    ["pack-load failures", o.load_failures],
    ["distinct failing legs", o.distinct_failing_legs],
    ["zones", o.zones.length],
  ];
  $("cards").innerHTML = cards
    .map(([k, v]) =>
      `<div class="card"><div class="v">${esc(v)}</div><div class="k">${esc(k)}</div></div>`
    )
    .join("");
  const facts = [
    ["time range", o.time_range ? `${o.time_range.first} → ${o.time_range.last}` : "-"],
    ["planner version", o.versions.join(", ") || "-"],
    ["pack build hash", o.pack_hashes.join(", ") || "-"],
    ["inputs", data.inputs.join(", ")],
    ["unparsed lines", o.unparsed_lines],
    ["unreadable inputs", o.file_problems.map((p) => p.file + ": " + p.error).join("; ") || "none"],
  ];
  $("facts").innerHTML = table(["fact", "value"], facts, [false, false]);
  $("zones").innerHTML = table(
    ["zone", "plans", "ok", "failed"],
    o.zones.map((z) => [z.zone, z.plans, z.ok, z.failed]),
    [false, true, true, true],
  );
  $("classes").innerHTML = table(
    ["class", "failures", "distinct legs"],
    o.failures_by_class.map((c) => [c.class, c.count, c.legs]),
    [false, true, true],
  );

  // Tier tables.
  const T = data.tiers;
  $("tier-table").innerHTML = table(
    ["final tier", "plans", "total p50 ms", "total p90 ms", "total max ms", "other p50 ms"],
    T.total_ms.map((r) => [
      r.tier,
      r.count,
      num(r.total_ms.p50),
      num(r.total_ms.p90),
      num(r.total_ms.max),
      num(r.other_ms_p50),
    ]),
    [false, true, true, true, true, true],
  );
  $("bucket-table").innerHTML = table(
    ["final tier", "≤ 2.9 M", "2.9–3 M", "> 3 M", "unknown"],
    T.window_buckets.map((b) => [b.tier, b.le_2_9m, b.from_2_9m_to_3m, b.gt_3m, b.unknown]),
    [false, true, true, true, true],
  );
  $("tier0").textContent = `Finished at tier 0: ${
    pct(T.tier0_share)
  } (with a window ≤ 2.9 M cells: ${pct(T.tier0_small_share)}).`;

  // Stage tables.
  const S = data.stages;
  const stageTable = (rows) =>
    table(
      ["stage", "sum ms", "p50 ms", "max ms"],
      rows.map((r) => [r.stage, num(r.sum_ms), num(r.p50_ms), num(r.max_ms)]),
      [false, true, true, true],
    );
  let st = "<h3>All successful plans</h3>" + stageTable(S.table);
  for (const t of S.per_tier) {
    st += `<h3>Tier ${esc(t.tier)} (${esc(t.plans)} plans)</h3>` + stageTable(t.stages);
  }
  $("stage-tables").innerHTML = st;
  $("other-share").textContent =
    `Share of "other" (total − the six stages) in the summed total time: ${pct(S.other_share)}.`;

  // Failure table: sort, filter, drill-down.
  const F = data.failures.legs;
  const cols = [
    ["class", (l) => l.class, false],
    ["zone", (l) => l.zone, false],
    ["start", (l) => pt(l.start), false],
    ["goal", (l) => pt(l.goal), false],
    ["count", (l) => l.count, true],
    ["first seen", (l) => l.first_seen || "", false],
    ["last seen", (l) => l.last_seen || "", false],
    ["error", (l) => l.error, false],
  ];
  let sortCol = 4, sortDir = -1;
  const sel = $("class-filter");
  const classes = [...new Set(F.map((l) => l.class))].sort();
  sel.innerHTML = `<option value="">all classes (${F.length})</option>` +
    classes.map((c) => `<option value="${esc(c)}">${esc(c)}</option>`).join("");
  const thead = $("failures").querySelector("thead tr");
  thead.innerHTML = cols
    .map((c, i) =>
      `<th class="sortable${c[2] ? " n" : ""}" data-col="${i}" tabindex="0">${esc(c[0])}</th>`
    )
    .join("") + "<th>picture</th>";
  function renderFailures() {
    const cls = sel.value;
    const q = $("text-filter").value.trim().toLowerCase();
    const rows = F.filter((l) =>
      (!cls || l.class === cls) &&
      (!q || (l.error + " " + l.zone + " " + l.key).toLowerCase().includes(q))
    );
    const get = cols[sortCol][1];
    rows.sort((a, b) => {
      const x = get(a), y = get(b);
      const c = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
      return c * sortDir || a.id - b.id;
    });
    thead.querySelectorAll("th[data-col]").forEach((th) => {
      th.setAttribute(
        "aria-sort",
        +th.dataset.col === sortCol ? (sortDir > 0 ? "ascending" : "descending") : "none",
      );
    });
    $("failures").querySelector("tbody").innerHTML = rows
      .map((l) =>
        `<tr data-id="${l.id}" data-class="${esc(l.class)}">` +
        cols.map((c) =>
          `<td class="${c[2] ? "n" : c[0] === "error" ? "err" : ""}">${esc(c[1](l))}</td>`
        )
          .join("") +
        `<td>${data.drilldowns[l.id] && data.drilldowns[l.id].svg ? "yes" : "-"}</td></tr>`
      )
      .join("");
    $("failure-count").textContent = `${rows.length} of ${F.length} legs shown` +
      (data.failures.total_legs > F.length
        ? ` (${data.failures.total_legs} distinct failing legs in all)`
        : "");
  }
  thead.addEventListener("click", (e) => {
    const th = e.target.closest("th[data-col]");
    if (!th) return;
    const c = +th.dataset.col;
    if (c === sortCol) sortDir = -sortDir;
    else {
      sortCol = c;
      sortDir = cols[c][2] ? -1 : 1;
    }
    renderFailures();
  });
  sel.addEventListener("change", renderFailures);
  $("text-filter").addEventListener("input", renderFailures);
  $("failures").querySelector("tbody").addEventListener("click", (e) => {
    const tr = e.target.closest("tr[data-id]");
    if (tr) openLeg(+tr.dataset.id);
  });
  function openLeg(id) {
    const l = F[id];
    const d = data.drilldowns[id];
    let h = `<h3>${esc(l.class)} — ${esc(l.zone)}</h3><table><tbody>` +
      [
        ["leg", l.key],
        ["start / goal", pt(l.start) + " → " + pt(l.goal)],
        ["goal deck", l.deck === null ? "-" : l.deck],
        ["failures", l.count],
        ["first / last seen", (l.first_seen || "-") + " / " + (l.last_seen || "-")],
        ["error", l.error],
        ["first example", l.example],
      ].map((r) => `<tr><th>${esc(r[0])}</th><td>${esc(r[1])}</td></tr>`).join("") +
      "</tbody></table>";
    if (d) {
      h += `<p>Replayed: <b>${esc(d.outcome)}</b> ${esc(d.message || "")}</p>`;
      h += d.svg
        ? `<div class="svgbox">${d.svg}</div>`
        : `<p class="muted">No picture: ${esc(d.why || "")}</p>`;
    } else {
      h += `<p class="muted">No picture: ${
        esc(
          data.drill_note ||
            "run navscope report with --pack PACK to replay the leg and draw its window.",
        )
      }</p>`;
    }
    $("leg-body").innerHTML = h;
    $("leg-dialog").showModal();
  }
  $("leg-close").addEventListener("click", () => $("leg-dialog").close());
  renderFailures();

  // Baseline.
  if (data.baseline) {
    const b = data.baseline;
    let h = `<p>Verdict: <span class="verdict-${esc(b.verdict)}">${
      esc(b.verdict)
    }</span> — base <code>${esc(b.base.source)}</code> (${
      esc(b.base.plans)
    } plans) vs current <code>${esc(b.current.source)}</code> (${
      esc(b.current.plans)
    } plans); thresholds ${esc(b.thresholds)}.</p>`;
    h += "<table><thead><tr><th>metric</th><th class=n>base</th><th class=n>current</th>" +
      "<th class=n>Δ</th><th class=n>Δ %</th><th>threshold</th><th>verdict</th></tr></thead><tbody>";
    for (const m of b.metrics) {
      h +=
        `<tr><td>${esc(m.metric)}</td><td class=n>${num(m.base)}</td><td class=n>${
          num(m.current)
        }</td>` +
        `<td class=n>${num(m.delta)}</td><td class=n>${num(m.delta_pct)}</td><td>${
          esc(m.threshold)
        }</td>` +
        `<td class="${esc(m.verdict)}">${esc(m.verdict)}</td></tr>`;
    }
    h += "</tbody></table>";
    h +=
      `<p>New failing legs: ${b.new_failing_legs.length}; fixed legs: ${b.fixed_legs.length}.</p>`;
    $("baseline-body").innerHTML = h;
  }

  drawCharts();
  media.addEventListener("change", drawCharts);
  addEventListener("beforeprint", () => charts.forEach((c) => c.resize()));
  document.body.dataset.ready = "1";
})();
