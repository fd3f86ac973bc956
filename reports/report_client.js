// navscope report page script (inlined into the HTML by reports/report_page.ts). Reads the
// embedded JSON (#report-data, #chart-specs), draws the charts with the inlined chart.js, fills
// the verdict and the tables, wires sorting / filtering of the failure table and the drill-down
// dialog with its interactive picture (legend toggles layers, wheel zooms, drag pans, hover
// reads a cell's spans), and redraws the charts when the colour scheme changes. No network
// access of any kind; no library but chart.js.
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
  // A share over zero plans (null) is "n/a", never 0.0 % (issue 53).
  const pct = (v) => (v === null || v === undefined ? "n/a" : (v * 100).toFixed(1) + " %");
  const pt = (p) => (p ? num(p[0], 2) + ", " + num(p[1], 2) : "?");
  const G = data.glosses || {};
  // A Chinese text with its English gloss beside it (spec wording kept).
  const glossed = (t) =>
    G[t] ? `<span lang="zh">${esc(t)}</span> <span class="gloss">(${esc(G[t])})</span>` : esc(t);
  const legOf = (key) => (data.leg_ids && data.leg_ids[key]) || "";

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
    [
      "planner profile",
      (o.profiles || []).map((p) => `${p.profile} (${p.plans} plans)`).join(", ") || "-",
    ],
    ["pack build hash", o.pack_hashes.join(", ") || "-"],
    ["inputs", data.inputs.join(", ")],
    ["unparsed lines", o.unparsed_lines],
    ["unreadable inputs", o.file_problems.map((p) => p.file + ": " + p.error).join("; ") || "none"],
  ];
  // The bug-report bundle and its navigation runs (issue 35), when the logs came in one.
  if (data.runs) {
    facts.push([
      "navigation runs",
      `${data.runs.total} (${data.runs.failed} failed, ${data.runs.with_failed_legs} with a failed leg)`,
    ]);
  }
  for (const b of data.bundles || []) {
    facts.push([
      "bundle",
      `${b.product || b.label} ${b.version} · exported ${b.stamp || "?"} (local) · ${b.era}`,
    ]);
    facts.push([
      "bundle volumes",
      `${b.volumes_found.length} read` +
      (b.volumes_missing.length ? `; missing: ${b.volumes_missing.join(", ")}` : ""),
    ]);
    facts.push(["navigator logs", b.navigator_files.join(", ") || "none"]);
    facts.push([
      "zipline delivery (config)",
      b.ziplines === null ? "unknown" : b.ziplines ? "on" : "off",
    ]);
  }
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

  // One stage × final tier table: p50 and share of the group's summed total, sum / max on hover.
  const S = data.stages;
  (function stageMatrix() {
    const groups = [{ name: "all", plans: null, stages: S.table }].concat(
      S.per_tier.map((t) => ({ name: "tier " + t.tier, plans: t.plans, stages: t.stages })),
    );
    const names = S.table.map((r) => r.stage);
    let h = '<table id="stage-matrix"><thead><tr><th rowspan="2">stage</th>';
    for (const g of groups) {
      h += `<th colspan="2" class="n">${esc(g.name)}${
        g.plans !== null ? ` <span class="muted">(${esc(g.plans)})</span>` : ""
      }</th>`;
    }
    h += "</tr><tr>" + groups.map(() => '<th class="n">p50 ms</th><th class="n">share</th>')
      .join("") +
      "</tr></thead><tbody>";
    for (const name of names) {
      h += `<tr><th scope="row">${esc(name)}</th>`;
      for (const g of groups) {
        const r = g.stages.find((x) => x.stage === name);
        const tot = g.stages.find((x) => x.stage === "total");
        const share = r && tot && tot.sum_ms > 0 ? r.sum_ms / tot.sum_ms : null;
        const tip = r ? `sum ${num(r.sum_ms)} ms, max ${num(r.max_ms)} ms` : "";
        h += `<td class="n" title="${esc(tip)}">${r ? num(r.p50_ms) : "-"}</td>` +
          `<td class="n share" title="${esc(tip)}">${name === "total" ? "" : pct(share)}</td>`;
      }
      h += "</tr>";
    }
    $("stage-table").innerHTML = h + "</tbody></table>";
  })();
  $("other-share").textContent =
    `Share of "other" (total − the timed stages) in the summed total time: ${pct(S.other_share)}.`;

  // Failure table: sort, filter, drill-down.
  const F = data.failures.legs;
  const cols = [
    ["class", (l) => l.class, false],
    ["leg", (l) => l.leg || "", false],
    ["zone", (l) => l.zone, false],
    ["start → goal", (l) => pt(l.start) + " → " + pt(l.goal), false],
    ["count", (l) => l.count, true],
    ["last seen", (l) => l.last_seen || "", false],
    ["error", (l) => l.error, false],
  ];
  const COUNT_COL = 4;
  let sortCol = COUNT_COL, sortDir = -1;
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
  const cell = (c, l) => {
    if (c[0] === "error") return `<td class="err">${glossed(l.error)}</td>`;
    if (c[0] === "leg") return `<td class="leg">${l.leg ? `<code>${esc(l.leg)}</code>` : "-"}</td>`;
    if (c[0] === "last seen") {
      // Compact: month-day and time; the full first and last stamps on hover.
      const t = c[1](l);
      return `<td class="ts" title="${esc(`first ${l.first_seen || "-"}, last ${t || "-"}`)}">${
        esc(t ? t.slice(5, 19) : "-")
      }</td>`;
    }
    if (c[0] === "start → goal") {
      return `<td class="pt">${esc(pt(l.start))} →<br>${esc(pt(l.goal))}</td>`;
    }
    return `<td class="${c[2] ? "n" : ""}">${esc(c[1](l))}</td>`;
  };
  function renderFailures() {
    const cls = sel.value;
    const q = $("text-filter").value.trim().toLowerCase();
    const rows = F.filter((l) =>
      (!cls || l.class === cls) &&
      (!q ||
        (l.leg + " " + l.error + " " + (G[l.error] || "") + " " + l.zone + " " + l.key)
          .toLowerCase().includes(q))
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
      .map((l) => {
        const d = data.drilldowns[l.id];
        const pic = d && d.svg ? "yes" : "-";
        const warn = d && d.differs
          ? ' <span class="bad" title="the replay differs from the log">≠ log</span>'
          : "";
        return `<tr data-id="${l.id}" data-class="${esc(l.class)}" data-leg="${esc(l.leg)}">` +
          cols.map((c) => cell(c, l)).join("") + `<td>${pic}${warn}</td></tr>`;
      })
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

  // The replay against the log: never "ok" for a logged failure without saying why.
  function replayHtml(l, d) {
    if (d.outcome === "-") return "";
    let h = '<div class="replay' + (d.differs ? " replay-differs" : "") + '" data-differs="' +
      (d.differs ? "1" : "0") + '">';
    h +=
      `<p><b>Replayed:</b> <span class="${d.class === "ok" ? "good" : "bad"}">${
        esc(d.class || d.outcome)
      }</span>` + (d.message ? " — " + glossed(d.message) : "") + "</p>";
    if (d.differs) {
      h += `<p class="differs"><b>The replay differs from the log</b> (logged: <b>${
        esc(d.logged_class || l.class)
      }</b> — ${
        glossed(d.logged_message || l.error)
      }), so this picture does not show the logged failure. Why:</p>`;
    } else if (d.caveats && d.caveats.length) {
      h += "<p>Same class as the log; the replay may still differ in detail:</p>";
    } else {
      h += `<p class="muted">Same class as the log (${esc(d.logged_class || l.class)}).</p>`;
    }
    if (d.caveats && d.caveats.length) {
      h += "<ul>" + d.caveats.map((c) => `<li>${esc(c)}</li>`).join("") + "</ul>";
    }
    if (d.how) h += `<p class="muted small">${esc(d.how)}</p>`;
    return h + "</div>";
  }

  function openLeg(id) {
    const l = F[id];
    const d = data.drilldowns[id];
    // The picture first (what explains the failure), the leg's facts under it.
    let h = `<h3>${esc(l.class)} — ${l.leg ? `<code>${esc(l.leg)}</code> — ` : ""}${
      esc(l.zone)
    }</h3><p class="leg-error">${glossed(l.error)}</p>`;
    if (d) {
      h += replayHtml(l, d);
      h += d.svg
        ? '<div class="picture-tools"><button type="button" data-act="reset">Reset view</button>' +
          '<button type="button" data-act="in">Zoom in</button><button type="button" data-act="out">Zoom out</button>' +
          '<button type="button" data-act="all">All layers</button><span class="zoom muted"></span>' +
          '<span class="muted small">wheel: zoom · drag: pan · legend: hide / show a layer</span></div>' +
          '<div class="hover" aria-live="polite"><span class="muted">' +
          (d.spans
            ? "Hover a cell of the map for its spans."
            : "Hover read-out: the spans of this picture are over the report's hover budget.") +
          "</span></div>" + `<div class="svgbox">${d.svg}</div>`
        : `<p class="muted">No picture: ${esc(d.why || "")}</p>`;
    } else {
      h += `<p class="muted">No picture: ${
        esc(
          Object.keys(data.drilldowns).length
            ? "this leg was not among the legs replayed for drill-downs (see --drill)."
            : "run navscope report with --pack PACK to replay the leg and draw its window.",
        )
      }</p>`;
    }
    h += '<table class="kv"><tbody>' +
      [
        ["battery leg", l.leg ? esc(l.leg) : "-", "leg key", esc(l.key)],
        [
          "start → goal",
          esc(pt(l.start) + " → " + pt(l.goal)),
          "goal deck",
          esc(l.deck === null ? "-" : l.deck),
        ],
        [
          "failures",
          esc(l.count),
          "first / last seen",
          esc((l.first_seen || "-") + " / " + (l.last_seen || "-")),
        ],
        ["first example", esc(l.example), "origin", esc(l.origin)],
      ].map((r) =>
        `<tr><th>${esc(r[0])}</th><td>${r[1]}</td><th>${esc(r[2])}</th><td>${r[3]}</td></tr>`
      ).join("") + "</tbody></table>";
    $("leg-body").innerHTML = h;
    $("leg-dialog").showModal();
    const box = $("leg-body").querySelector(".svgbox");
    if (box) mountPicture($("leg-body"), box, d);
  }
  $("leg-close").addEventListener("click", () => $("leg-dialog").close());
  renderFailures();

  // ── The interactive picture ────────────────────────────────────────────────────────────────
  // Contract of reports/leg_svg.ts: map at the SVG origin, data-cell units per cell, y flipped;
  // data-x0/data-y0 the crop origin (global cells), data-nx/data-ny its size; every layer a
  // <g data-layer="ID" data-label="…">; the legend <g class="legend"> with one
  // [data-legend-for="ID"] entry per layer; map layers are the root's children, the panel
  // (legend, scales, overview) sits in <g class="panel">. The client wraps the map in a clipped,
  // transformed group so the wheel zooms and a drag pans the map while the legend stays put.
  let clipSeq = 0;
  const SVGNS = "http://www.w3.org/2000/svg";
  function mountPicture(root, box, d) {
    const svg = box.querySelector("svg");
    const A = (k) => +svg.getAttribute(k);
    const cellU = A("data-cell") || 4, nx = A("data-nx"), ny = A("data-ny");
    const x0 = A("data-x0"), y0 = A("data-y0");
    const mapW = A("data-map-width") || nx * cellU, mapH = A("data-map-height") || ny * cellU;
    // The final window (root data-window, global cells x0,y0,nx,ny: only when the crop reaches
    // beyond it); its outside cells have no spans.
    const win = (svg.getAttribute("data-window") || "").split(",").map(Number);
    const outsideWindow = (gx, gy) =>
      win.length === 4 &&
      (gx < win[0] || gy < win[1] || gx >= win[0] + win[2] || gy >= win[1] + win[3]);
    // Say plainly when an endpoint is not on the map (root data-start / data-goal, px).
    const off = [["start", "data-start"], ["goal", "data-goal"]].filter(([, k]) => {
      const v = svg.getAttribute(k);
      if (!v) return false;
      const [x, y] = v.split(",").map(Number);
      const u = (x / 0.25 - x0) * cellU, w = (ny - (y / 0.25 - y0)) * cellU;
      return !(u >= 0 && w >= 0 && u <= mapW && w <= mapH);
    }).map(([name, k]) => `the ${name} (${svg.getAttribute(k).replace(",", ", ")} px)`);
    if (off.length) {
      const note = document.createElement("p");
      note.className = "off-map muted";
      note.textContent = `Not on the map: ${off.join(" and ")} — outside the drawn crop` +
        (svg.getAttribute("data-crop") === "focus" ? " (see the overview)." : ".");
      box.parentNode.insertBefore(note, box);
    }
    svg.setAttribute("width", "100%");
    svg.removeAttribute("height");
    svg.style.height = "auto";
    // Wrap the map-level children in a clipped, zoomable group.
    const clipId = "navscope-clip-" + ++clipSeq;
    const defs = document.createElementNS(SVGNS, "defs");
    defs.innerHTML = `<clipPath id="${clipId}"><rect width="${mapW}" height="${mapH}"/></clipPath>`;
    const view = document.createElementNS(SVGNS, "g");
    view.setAttribute("clip-path", `url(#${clipId})`);
    view.setAttribute("class", "map-view");
    const zoomG = document.createElementNS(SVGNS, "g");
    zoomG.setAttribute("class", "map-zoom");
    view.appendChild(zoomG);
    for (const ch of [...svg.children]) {
      const tag = ch.tagName.toLowerCase();
      if (tag === "title" || tag === "defs" || tag === "style") continue;
      if (ch.classList.contains("panel") || ch.classList.contains("map-frame")) continue;
      zoomG.appendChild(ch);
    }
    const panel = svg.querySelector(":scope > g.panel");
    svg.insertBefore(defs, svg.firstChild);
    svg.insertBefore(view, panel || null);
    let k = 1, tx = 0, ty = 0;
    const zoomLabel = root.querySelector(".zoom");
    const apply = () => {
      zoomG.setAttribute("transform", `translate(${tx} ${ty}) scale(${k})`);
      if (zoomLabel) zoomLabel.textContent = `zoom ×${k.toFixed(k < 10 ? 1 : 0)}`;
      svg.dataset.zoom = String(k);
    };
    const clampPan = () => {
      tx = Math.min(0, Math.max(mapW - mapW * k, tx));
      ty = Math.min(0, Math.max(mapH - mapH * k, ty));
    };
    // Client point → SVG root units, and → the map's own units (inside the zoom group).
    const toRoot = (e) => {
      const p = svg.createSVGPoint();
      p.x = e.clientX;
      p.y = e.clientY;
      return p.matrixTransform(svg.getScreenCTM().inverse());
    };
    const inMap = (q) => q.x >= 0 && q.y >= 0 && q.x < mapW && q.y < mapH;
    const zoomAt = (f, q) => {
      const nk = Math.min(64, Math.max(1, k * f));
      tx = q.x - (q.x - tx) * (nk / k);
      ty = q.y - (q.y - ty) * (nk / k);
      k = nk;
      clampPan();
      apply();
    };
    svg.addEventListener("wheel", (e) => {
      const q = toRoot(e);
      if (!inMap(q)) return;
      e.preventDefault();
      zoomAt(Math.exp(-e.deltaY * 0.002), q);
    }, { passive: false });
    let drag = null;
    svg.addEventListener("pointerdown", (e) => {
      const q = toRoot(e);
      if (!inMap(q) || e.button !== 0) return;
      e.preventDefault(); // no text selection while dragging
      drag = { q, tx, ty, id: e.pointerId };
      svg.setPointerCapture(e.pointerId);
      svg.classList.add("dragging");
    });
    svg.addEventListener("pointerup", (e) => {
      if (drag && drag.id === e.pointerId) {
        drag = null;
        svg.classList.remove("dragging");
      }
    });
    // Hover read-out: the spans of the cell under the pointer.
    const out = root.querySelector(".hover");
    let spans = null;
    if (d.spans) {
      unpackSpans(d.spans).then((s) => {
        spans = s;
        svg.dataset.spans = "ready";
      }).catch((err) => {
        if (out) out.textContent = "Hover read-out unavailable: " + err;
      });
    }
    svg.addEventListener("pointermove", (e) => {
      const q = toRoot(e);
      if (drag) {
        tx = drag.tx + (q.x - drag.q.x);
        ty = drag.ty + (q.y - drag.q.y);
        clampPan();
        apply();
        return;
      }
      if (!out || !inMap(q)) return;
      const u = (q.x - tx) / k, v = (q.y - ty) / k;
      const cx = Math.floor(u / cellU), row = Math.floor(v / cellU);
      if (cx < 0 || row < 0 || cx >= nx || row >= ny) return;
      const cy = ny - 1 - row;
      const gx = x0 + cx, gy = y0 + cy;
      out.innerHTML = outsideWindow(gx, gy)
        ? hoverHtml(gx, gy, [], true, true)
        : hoverHtml(gx, gy, spans ? spans.cell(cx, cy) : null, !!d.spans, false);
      out.dataset.cell = `${x0 + cx},${y0 + cy}`;
    });
    // Layers toggle from the legend (click or Enter / Space on an entry).
    const entries = [...svg.querySelectorAll("[data-legend-for]")];
    const setLayer = (id, on) => {
      svg.querySelectorAll(`[data-layer="${CSS.escape(id)}"]`).forEach((g) => {
        g.style.display = on ? "" : "none";
      });
      entries.filter((en) => en.dataset.legendFor === id).forEach((en) => {
        en.classList.toggle("off", !on);
        en.setAttribute("aria-pressed", on ? "true" : "false");
      });
    };
    for (const en of entries) {
      en.setAttribute("role", "button");
      en.setAttribute("tabindex", "0");
      en.setAttribute("aria-pressed", "true");
      const toggle = () => setLayer(en.dataset.legendFor, en.classList.contains("off"));
      en.addEventListener("click", toggle);
      en.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          toggle();
        }
      });
    }
    root.querySelector(".picture-tools").addEventListener("click", (e) => {
      const act = e.target.closest("button") && e.target.closest("button").dataset.act;
      const mid = { x: mapW / 2, y: mapH / 2 };
      if (act === "reset") {
        k = 1;
        tx = ty = 0;
        apply();
      } else if (act === "in") zoomAt(2, mid);
      else if (act === "out") zoomAt(0.5, mid);
      else if (act === "all") entries.forEach((en) => setLayer(en.dataset.legendFor, true));
    });
    apply();
  }

  const FLAG_NAMES = [[1, "dead"], [2, "walk"], [4, "core"], [8, "ghost"]];
  function hoverHtml(gx, gy, list, have, outside) {
    const px = `${num(gx * 0.25, 2)}, ${num(gy * 0.25, 2)}`;
    let h = `<b>cell ${gx}, ${gy}</b> <span class="muted">(px ${px})</span> `;
    if (outside) return h + "— outside the final window (nothing known)";
    if (!have) return h + '<span class="muted">spans not embedded</span>';
    if (!list) return h + '<span class="muted">unpacking spans…</span>';
    if (!list.length) return h + "— no span";
    h += `— ${list.length} span${list.length > 1 ? "s" : ""}`;
    h += '<table class="spans"><thead><tr><th class="n">height m</th><th class="n">region</th>' +
      '<th>flags</th><th class="n">clearance px</th><th>flood</th></tr></thead><tbody>';
    for (const s of list) {
      const flags = FLAG_NAMES.filter((f) => s.flags & f[0]).map((f) => f[1]).join(" ") || "-";
      const fl = [s.flood & 1 ? "from start" : "", s.flood & 2 ? "to goal" : ""].filter(Boolean)
        .join(", ") || "-";
      h += `<tr><td class="n">${s.h.toFixed(2)}</td><td class="n">${
        s.region < 0 ? "other" : s.region
      }</td><td>${flags}</td><td class="n">${
        s.clearance === null ? "-" : s.clearance.toFixed(2)
      }</td><td>${fl}</td></tr>`;
    }
    return h + "</tbody></table>";
  }

  // reports/span_pack.ts layout, unpacked with the browser's own gzip (no request, no library).
  async function unpackSpans(p) {
    const bin = Uint8Array.from(atob(p.gz), (c) => c.charCodeAt(0));
    const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
    const buf = await new Response(stream).arrayBuffer();
    const S = p.spans, C = p.nx * p.ny;
    const dh = new Int32Array(buf, 0, S), dr = new Int32Array(buf, 4 * S, S);
    const count = new Uint16Array(buf, 8 * S, C), clr = new Uint16Array(buf, 8 * S + 2 * C, S);
    const bits = new Uint8Array(buf, 10 * S + 2 * C, S);
    const start = new Int32Array(C + 1), h = new Int32Array(S), region = new Int32Array(S);
    for (let c = 0; c < C; c++) start[c + 1] = start[c] + count[c];
    let ph = 0, pr = 0;
    for (let j = 0; j < S; j++) {
      ph += dh[j];
      pr += dr[j];
      h[j] = ph;
      region[j] = pr;
    }
    return {
      cell(cx, cy) {
        const c = cy * p.nx + cx, out = [];
        for (let j = start[c]; j < start[c + 1]; j++) {
          out.push({
            h: h[j] / 100,
            region: region[j],
            flags: bits[j] & 15,
            clearance: clr[j] ? (clr[j] - 1) / 100 : null,
            flood: bits[j] >> 4,
          });
        }
        return out;
      },
    };
  }

  // ── Verdict (first screen) and the baseline section ────────────────────────────────────────
  if (data.baseline) {
    const b = data.baseline;
    const over = b.metrics.filter((m) => m.verdict === "regression");
    const improved = b.metrics.filter((m) => m.verdict === "improved");
    const outcomeImproved = improved.filter((m) => !m.metric.startsWith("timing."));
    const nNew = b.new_failing_legs.length, nFixed = b.fixed_legs.length;
    // Which kind of metric is over: outcomes (failures, legs, tiers), timings, or others
    // (e.g. work counters), so "worse" says what got worse.
    const kind = (m) =>
      /^(failure_rate|failures|failing_legs|new_failing_legs|escalated_share|tier_share|success_rate)(\.|$)/
          .test(m.metric)
        ? "outcomes"
        : m.metric.startsWith("timing.")
        ? "timings"
        : "other metrics";
    const overBy = {};
    for (const m of over) overBy[kind(m)] = (overBy[kind(m)] || 0) + 1;
    let word, cls;
    if (b.verdict === "regression") {
      const kinds = Object.keys(overBy);
      word = "Worse than the baseline" +
        (kinds.length === 1 && kinds[0] !== "outcomes"
          ? `: ${kinds[0]} only, outcomes unchanged`
          : "");
      cls = "worse";
    } else if (nNew > 0 && nFixed > 0) {
      word = "Mixed: no metric over threshold";
      cls = "same";
    } else if (nFixed > 0 || outcomeImproved.length > 0) {
      word = "Better than the baseline";
      cls = "better";
    } else {
      word = "Same as the baseline";
      cls = "same";
    }
    const fmtVal = (m, v) =>
      v === null
        ? (m.unit === "rate" ? "n/a" : "-")
        : m.unit === "rate"
        ? (v * 100).toFixed(2) + " %"
        : num(v);
    const legList = (ls) =>
      ls.map((l) => {
        const id = legOf(l.leg);
        return `<li>${id ? `<code>${esc(id)}</code> ` : ""}<span class="muted">${
          esc(l.class)
        }</span>${id ? "" : ` <span class="muted small">${esc(l.leg)}</span>`}</li>`;
      }).join("");
    let v = `<div class="verdict-head"><span class="verdict-word">${esc(word)}</span> ` +
      `<span class="verdict-gate verdict-${esc(b.verdict)}">navscope diff: ${
        b.verdict === "pass" ? "PASS" : "REGRESSION"
      }</span></div>`;
    // A stats file carries no legs: new and fixed legs are unknown then, not zero.
    const legRow = b.metrics.find((m) => m.metric === "new_failing_legs");
    const legsKnown = !legRow || legRow.current !== null;
    const cnt = (n) => (legsKnown ? String(n) : "n/a");
    v += '<div class="verdict-counts">' +
      `<div class="vc ${nNew ? "bad" : ""}" data-count="new"><b>${cnt(nNew)}</b> new failing leg${
        nNew === 1 ? "" : "s"
      }</div>` +
      `<div class="vc ${nFixed ? "good" : ""}" data-count="fixed"><b>${cnt(nFixed)}</b> fixed leg${
        nFixed === 1 ? "" : "s"
      }</div>` +
      `<div class="vc ${over.length ? "bad" : ""}" data-count="over"><b>${over.length}</b> metric${
        over.length === 1 ? "" : "s"
      } over threshold</div>` +
      `<div class="vc" data-count="improved"><b>${improved.length}</b> improved</div></div>`;
    if (over.length) {
      v += `<p class="over-kinds">Over threshold: ${
        ["outcomes", "timings", "other metrics"].map((k) => `${k} ${overBy[k] || 0}`).join(" · ")
      }</p>`;
    }
    if (over.length) {
      v += '<ul class="over">' + over.map((m) =>
        `<li><code>${esc(m.metric)}</code> ${fmtVal(m, m.base)} → <b>${
          fmtVal(m, m.current)
        }</b> <span class="muted">(threshold ${esc(m.threshold)})</span></li>`
      ).join("") + "</ul>";
    }
    if (nNew) {
      v += `<div class="legs"><b>New failing:</b><ul>${legList(b.new_failing_legs)}</ul></div>`;
    }
    if (nFixed) v += `<div class="legs"><b>Fixed:</b><ul>${legList(b.fixed_legs)}</ul></div>`;
    if (b.changed_legs) {
      v +=
        `<p class="profiles">Planner profiles differ: base <code>${
          esc((b.profiles.base || []).join(", ") || "spec")
        }</code>, current <code>${
          esc((b.profiles.current || []).join(", ") || "spec")
        }</code>; ${b.changed_legs.length} leg${b.changed_legs.length === 1 ? "" : "s"} changed. ` +
        '<a href="#profile-changes">Which</a></p>';
    }
    v += `<p class="muted small">Base <code>${esc(b.base.source)}</code> (${esc(b.base.kind)}, ${
      esc(b.base.plans)
    } plans) vs current <code>${esc(b.current.source)}</code> (${
      esc(b.current.plans)
    } plans); thresholds ${esc(b.thresholds)}. <a href="#baseline">All metrics</a></p>`;
    const vEl = $("verdict");
    vEl.innerHTML = v;
    vEl.classList.add("verdict-" + cls);
    vEl.dataset.verdict = b.verdict;

    let h = "<table><thead><tr><th>metric</th><th class=n>base</th><th class=n>current</th>" +
      "<th class=n>Δ</th><th class=n>Δ %</th><th>threshold</th><th>verdict</th></tr></thead><tbody>";
    for (const m of b.metrics) {
      if (m.base === null && m.current === null) continue;
      h +=
        `<tr><td>${esc(m.metric)}</td><td class=n>${fmtVal(m, m.base)}</td><td class=n>${
          fmtVal(m, m.current)
        }</td>` +
        `<td class=n>${
          m.delta === null
            ? "-"
            : m.unit === "rate"
            ? (m.delta * 100).toFixed(2) + " %"
            : num(m.delta)
        }</td><td class=n>${num(m.delta_pct)}</td><td>${esc(m.threshold)}</td>` +
        `<td class="${esc(m.verdict)}">${esc(m.verdict)}</td></tr>`;
    }
    h += "</tbody></table>";
    if (b.changed_legs) {
      // Runs of two planner profiles (report --across-profiles): what the switches changed.
      const prof = (ps) => (ps && ps.length ? ps.join(", ") : "spec");
      const n = b.changed_legs.length;
      h += `<h3 id="profile-changes">Legs changed across profiles (${n})</h3>` +
        `<p>Base profile <code>${esc(prof(b.profiles && b.profiles.base))}</code>, current ` +
        `<code>${esc(prof(b.profiles && b.profiles.current))}</code>: the legs whose outcome ` +
        "(class, tier, point count, length) differs. docs/profiles.md names the change behind " +
        "each switch.</p>" +
        (n
          ? "<table><thead><tr><th>leg</th><th>base</th><th>current</th></tr></thead><tbody>" +
            b.changed_legs.map((l) =>
              `<tr><td><code>${esc(legOf(l.leg) || l.leg)}</code></td><td>${esc(l.base)}</td><td>${
                esc(l.current)
              }</td></tr>`
            ).join("") + "</tbody></table>"
          : "<p class=muted>none</p>");
    }
    h += `<h3>New failing legs (${nNew})</h3>` +
      (nNew ? `<ul>${legList(b.new_failing_legs)}</ul>` : "<p class=muted>none</p>");
    h += `<h3>Fixed legs (${nFixed})</h3>` +
      (nFixed ? `<ul>${legList(b.fixed_legs)}</ul>` : "<p class=muted>none</p>");
    $("baseline-body").innerHTML = h;
  }

  drawCharts();
  media.addEventListener("change", drawCharts);
  addEventListener("beforeprint", () => charts.forEach((c) => c.resize()));
  document.body.dataset.ready = "1";
})();
