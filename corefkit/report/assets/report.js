/* corefkit report: tabs, the document list, the error list and the plots' links into the
   browser (browser.js). Everything the page needs is in it: it makes no request. */
"use strict";
var CK = window.CK || (window.CK = {});
(function () {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const CAT_COLOURS = ["#c0392b", "#8e44ad", "#d35400", "#a5662b", "#7f8c8d", "#2471a3", "#1e8449", "#117a65", "#b7950b", "#6c3483", "#943126", "#1a5276"];
  CK.catColour = (c) => CAT_COLOURS[c % CAT_COLOURS.length];
  CK.index = JSON.parse(document.getElementById("report-index").textContent);
  const I = CK.index;
  const state = { sort: null, desc: false, errPage: 0, opened: false };

  function showTab(name) {
    for (const b of document.querySelectorAll("nav.tabs button")) b.classList.toggle("on", b.dataset.tab === name);
    for (const s of document.querySelectorAll("section.tab")) s.hidden = s.id !== "tab-" + name;
    if (name === "documents" && !state.opened && I.docs.length) { state.opened = true; CK.open(0); }
    if (name === "errors") errorTable();
  }
  CK.showTab = showTab;

  function fmt(v) { return v === null || v === undefined ? "–" : (100 * v).toFixed(1); }

  // [title, value, system, percent]: a system's column carries its index in I.colours (the
  // token column before it must not shift the colours); other columns are shown as they are,
  // or as a percentage when the fourth field is true
  function docColumns() {
    if (I.kind === "agree") {
      return [["tokens", (d) => d.t, null], ["mentions", (d) => d.m, null, true], ["CoNLL", (d) => d.c, null, true], ["disagree", (d) => d.x, null]];
    }
    if (I.kind === "compare") {
      return [["tokens", (d) => d.t, null]].concat(I.sides.slice(1).map((s, k) => [s, (d) => d.f[k], k]));
    }
    return [["tokens", (d) => d.t, null], ["mentions", (d) => d.m, null], ["entities", (d) => d.e, null]];
  }

  function docTable() {
    const cols = docColumns(), filter = document.getElementById("docfilter").value.toLowerCase();
    let rows = I.docs.map((d, n) => ({ d, n })).filter(({ d }) => !filter || d.n.toLowerCase().includes(filter));
    if (state.sort !== null) {
      const get = state.sort < 0 ? (x) => x.d.n : (x) => cols[state.sort][1](x.d);
      rows.sort((a, b) => { const x = get(a), y = get(b); return (x < y ? -1 : x > y ? 1 : 0) * (state.desc ? -1 : 1); });
    }
    const head = `<tr><th class="l" data-sort="-1">document</th>${cols.map(([name, , sys], c) =>
      `<th data-sort="${c}" title="${esc(name)}"${sys === null ? "" : ` class="sys" data-sys="${sys + 1}"`}>${sys === null ? esc(name) : `<span class="swatch" style="background:${I.colours[sys % I.colours.length]}"></span><span class="sysname">${esc(name)}</span>`}</th>`).join("")}</tr>`;
    const body = rows.map(({ d, n }) => `<tr class="doc${CK.viewer.n === n ? " on" : ""}" data-doc="${n}"><td class="l" title="${esc(d.n)}">${esc(d.n)}</td>${cols.map(([, get, sys, pct]) => `<td${sys === null ? "" : ` data-sys="${sys + 1}"`}>${sys === null && !pct ? get(d) : fmt(get(d))}</td>`).join("")}</tr>`);
    document.getElementById("doctable").innerHTML = head + body.join("");
  }

  CK.markDocument = function (n) {
    for (const tr of document.querySelectorAll("#doctable tr.doc")) tr.classList.toggle("on", +tr.dataset.doc === n);
  };

  function openDocument(n, opts) {
    state.opened = true;
    showTab("documents");
    CK.open(n, opts);
  }

  function errorRows() {
    const sys = +document.getElementById("errsys").value, cat = document.getElementById("errcat").value;
    const text = document.getElementById("errtext").value.toLowerCase();
    const keep = (e) => (!sys || e[1] === sys) && (cat === "" || e[2] === +cat) &&
      (!text || e[4].toLowerCase().includes(text) || I.docs[e[0]].n.toLowerCase().includes(text));
    return I.errors.map((e, n) => n).filter((n) => keep(I.errors[n]));
  }

  function errorTable() {
    const box = document.getElementById("errtable");
    if (!box) return;
    const rows = errorRows(), size = 100, pages = Math.max(1, Math.ceil(rows.length / size));
    state.errPage = Math.min(state.errPage, pages - 1);
    const shown = rows.slice(state.errPage * size, (state.errPage + 1) * size);
    const who = (e) => (I.kind === "agree" ? esc(CK.pairName(e[1] - 1)) : `<span class="swatch" style="background:${I.colours[e[1] - 1]}"></span>${esc(I.sides[e[1]])}`);
    box.innerHTML = `<tr><th class="l">${I.kind === "agree" ? "annotators" : "system"}</th><th class="l">category</th><th class="l">document</th><th class="l">file:line</th><th class="l">mentions</th></tr>` +
      shown.map((n) => [n, I.errors[n]]).map(([n, e]) => `<tr data-err="${n}"><td class="l">${who(e)}</td>` +
        `<td class="l"><span class="cat" style="background:${CK.catColour(e[2])}">${esc(I.categories[e[2]][1])}</span></td><td class="l">${esc(I.docs[e[0]].n)}</td>` +
        `<td class="l mono">${esc(I.files[e[6]])}${e[3] === null ? "" : ":" + e[3]}</td><td class="txt">${esc(e[4])}</td></tr>`).join("");
    document.getElementById("errpager").innerHTML = `${rows.length} ${I.kind === "agree" ? "disagreements" : "errors"} · ` +
      `<button class="small" data-errpage="${state.errPage - 1}"${state.errPage ? "" : " disabled"}>‹</button> page ${state.errPage + 1} of ${pages} ` +
      `<button class="small" data-errpage="${state.errPage + 1}"${state.errPage + 1 < pages ? "" : " disabled"}>›</button>`;
  }

  function errorControls() {
    const cat = document.getElementById("errcat");
    if (!cat) return;
    cat.innerHTML = '<option value="">every category</option>' + I.categories.map(([, title], c) => `<option value="${c}">${esc(title)}</option>`).join("");
    document.getElementById("errsys").innerHTML = I.kind === "agree"
      ? '<option value="0">every pair</option>' + I.pairs.map((_, p) => `<option value="${p + 1}">${esc(CK.pairName(p))}</option>`).join("")
      : '<option value="0">every system</option>' + I.sides.slice(1).map((s, k) => `<option value="${k + 1}">${esc(s)}</option>`).join("");
    for (const id of ["errsys", "errcat", "errtext"]) document.getElementById(id).addEventListener("input", () => { state.errPage = 0; errorTable(); });
    document.getElementById("errtable").addEventListener("click", (ev) => {
      const tr = ev.target.closest("tr[data-err]");
      if (!tr) return;
      const e = I.errors[+tr.dataset.err];
      openDocument(e[0], { system: e[1], error: e[5] });
    });
    document.getElementById("errpager").addEventListener("click", (ev) => {
      const p = ev.target.dataset.errpage;
      if (p !== undefined && !ev.target.disabled) { state.errPage = +p; errorTable(); }
    });
  }

  function metricSwitch() {
    const sel = document.getElementById("distmetric");
    if (!sel) return;
    const show = () => { for (const f of document.querySelectorAll("figure[data-metric]")) f.hidden = f.dataset.metric !== sel.value; };
    sel.addEventListener("change", show);
    show();
  }

  function plotLinks() {
    document.addEventListener("click", (ev) => {
      const pt = ev.target.closest("circle.pt[data-doc]");
      if (!pt) return;
      const group = pt.closest("g[data-sys]");
      openDocument(+pt.dataset.doc, group ? { system: +group.dataset.sys } : {});
    });
  }

  function browserControls() {
    const sys = document.getElementById("sys");
    if (sys) sys.innerHTML = I.kind === "agree"
      ? '<option value="0">every annotator</option>' + I.pairs.map((_, p) => `<option value="${p + 1}">${esc(CK.pairName(p))}</option>`).join("")
      : I.sides.slice(1).map((s, k) => `<option value="${k + 1}">${esc(s)}</option>`).join("");
    document.getElementById("docfilter").addEventListener("input", docTable);
    document.getElementById("doctable").addEventListener("click", (ev) => {
      const th = ev.target.closest("th[data-sort]");
      if (th) { const c = +th.dataset.sort; state.desc = state.sort === c ? !state.desc : c >= 0; state.sort = c; docTable(); return; }
      const tr = ev.target.closest("tr.doc");
      if (tr) CK.open(+tr.dataset.doc);
    });
    CK.initBrowser();
  }

  function init() {
    for (const b of document.querySelectorAll("nav.tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
    browserControls();
    docTable();
    errorControls();
    metricSwitch();
    plotLinks();
    const start = (location.hash || "").replace("#", "");
    if (start && document.getElementById("tab-" + start)) showTab(start);
    CK.readyAt = performance.now();
    document.body.dataset.ready = "1";
  }

  init();
})();
