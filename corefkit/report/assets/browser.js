/* corefkit report: the document browser. A document's JSON is parsed only when it is opened
   and its text rendered one page (about INDEX.pageTokens tokens) at a time. */
"use strict";
var CK = window.CK || (window.CK = {});
(function () {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const push = (map, key, value) => { const list = map.get(key); if (list) list.push(value); else map.set(key, [value]); };
  const hue = (c) => Math.round((c * 137.508) % 360);
  const cache = new Map();
  const V = { D: null, n: -1, k: 1, page: 0, sel: null, cats: null, els: new Map(), marked: [], errMarked: [] };
  CK.viewer = V;
  // an agreement report: every side is an annotator, V.k the pair shown (0: all annotators),
  // a disagreement's mentions name their side; a comparison: side 0 the key, V.k the system
  const agree = () => CK.index.kind === "agree";
  const refSide = (w) => (agree() ? w : (w ? V.k : 0));
  CK.pairName = (p) => CK.index.sides[CK.index.pairs[p][0]] + "–" + CK.index.sides[CK.index.pairs[p][1]];

  function sentences(raw) {
    const starts = raw.s.length && raw.s[0] === 0 ? raw.s.slice() : [0].concat(raw.s);
    const total = raw.t.length, sent = [], sentOf = new Int32Array(total);
    starts.forEach((a, s) => {
      const b = s + 1 < starts.length ? starts[s + 1] : total;
      sent.push([a, b]);
      sentOf.fill(s, a, b);
    });
    return { sent, sentOf };
  }

  function pages(sent, size) {
    const out = [];
    let first = 0, tokens = 0;
    sent.forEach(([a, b], s) => {
      tokens += b - a;
      if (tokens >= size) { out.push([first, s + 1]); first = s + 1; tokens = 0; }
    });
    if (first < sent.length || !out.length) out.push([first, sent.length]);
    return out;
  }

  function segments(side, m, D) {
    m.parts.forEach((p, k) => {
      let a = p[0];
      while (a <= p[1]) {
        const end = Math.min(p[1], D.sent[D.sentOf[a]][1] - 1);
        push(side.startsAt, a, { m: m.i, b: end, last: k === m.parts.length - 1 && end === p[1], cont: a !== p[0] });
        a = end + 1;
      }
    });
  }

  function prepareSide(raw, D) {
    const side = { missing: !!raw.x, ents: raw.e, et: raw.et || {}, nr: raw.nr || {}, br: raw.br || [], err: raw.err || [],
      chains: new Map(), bySpan: new Map(), sets: new Map(), memberOf: new Map(), brFrom: new Map(),
      brTo: new Map(), startsAt: new Map() };
    side.ms = raw.m.map((row, i) => {
      const parts = [];
      for (let p = 2; p < row.length; p += 2) parts.push([row[p], row[p + 1]]);
      return { i, e: row[0], type: row[1], parts, span: row.slice(2).join(",") };
    });
    for (const m of side.ms) {
      if (m.e >= 0) push(side.chains, m.e, m.i);
      if (!side.bySpan.has(m.span)) side.bySpan.set(m.span, m.i);
      segments(side, m, D);
    }
    for (const list of side.startsAt.values()) list.sort((x, y) => y.b - x.b || x.m - y.m);
    for (const [s, members] of raw.sets || []) {
      side.sets.set(s, members);
      for (const member of members) push(side.memberOf, member, s);
    }
    side.br.forEach((b, n) => { push(side.brFrom, b[0], n); push(side.brTo, b[1], n); });
    return side;
  }

  function load(n) {
    if (cache.has(n)) return cache.get(n);
    const raw = JSON.parse(document.getElementById("doc-" + n).textContent);
    const D = Object.assign({ n, name: raw.n, t: raw.t, zero: new Set(raw.z), glued: new Set(raw.g) }, sentences(raw));
    D.pages = pages(D.sent, CK.index.pageTokens);
    D.sides = raw.sides.map((s) => (s ? prepareSide(s, D) : null));
    D.dis = raw.dis || [];   // an agreement report's disagreements: [category, pair, refs]
    if (cache.size > 6) cache.delete(cache.keys().next().value);
    cache.set(n, D);
    return D;
  }

  function label(side, m) {
    if (side.nr[m.i] !== undefined) return side.nr[m.i];
    return m.e >= 0 ? side.ents[m.e][0] : "·";
  }

  function openTag(side, k, seg) {
    const m = side.ms[seg.m], ent = m.e >= 0 ? side.ents[m.e] : null, cls = ["m"];
    if (side.nr[m.i] !== undefined) cls.push("nr");
    else if (!ent || ent[1] < 0) cls.push("sg");
    if (m.parts.length > 1) cls.push("disc");
    if (seg.cont) cls.push("cont");
    if (ent && side.sets.has(m.e)) cls.push("set");
    if (side.brFrom.has(m.i)) cls.push("brg");
    const style = ent && ent[1] >= 0 && side.nr[m.i] === undefined ? ` style="--h:${hue(ent[1])}"` : "";
    return `<span class="${cls.join(" ")}" data-k="${k}" data-i="${m.i}"${style}>`;
  }

  function renderSentence(D, k, s) {
    const side = D.sides[k];
    if (!side || side.missing) return `<span class="missing">(${agree() ? "not annotated by " + esc(CK.index.sides[k]) : "not in this system's output"})</span>`;
    const [a, b] = D.sent[s], stack = [], pending = new Map();
    let out = "", space = "";
    for (let i = a; i < b; i++) {
      let opens = side.startsAt.get(i) || [];
      if (pending.has(i)) opens = opens.concat(pending.get(i)).sort((x, y) => y.b - x.b || x.m - y.m);
      for (const seg of opens) {
        const top = stack.length ? stack[stack.length - 1].b : Infinity;
        let open = seg;
        if (seg.b > top) {  // crossing mentions: this one continues after the enclosing one
          push(pending, top + 1, Object.assign({}, seg, { cont: true }));
          open = Object.assign({}, seg, { b: top, last: false });
        }
        out += space + openTag(side, k, open);
        space = "";
        stack.push(open);
      }
      out += space + (D.zero.has(i) ? `<span class="z" title="empty node (zero)">∅${D.t[i] && D.t[i] !== "_" ? "<sub>" + esc(D.t[i]) + "</sub>" : ""}</span>` : esc(D.t[i]));
      space = D.glued.has(i) ? "" : " ";
      while (stack.length && stack[stack.length - 1].b === i) {
        const seg = stack.pop();
        out += (seg.last ? `<sub class="lb">${esc(label(side, side.ms[seg.m]))}</sub>` : "") + "</span>";
      }
    }
    return out;
  }

  function visible() {
    if (agree()) return V.k ? CK.index.pairs[V.k - 1].slice() : CK.index.sides.map((_, n) => n);
    return CK.index.kind === "compare" ? [0, V.k] : [0];
  }

  function heads(sides) {
    const box = document.getElementById("heads");
    if (!box || !agree()) return;
    box.style.setProperty("--cols", sides.length);
    document.getElementById("text").style.setProperty("--cols", sides.length);
    box.innerHTML = "<div></div>" + sides.map((k) => `<div><span class="swatch" style="background:${CK.index.colours[k]}"></span>${esc(CK.index.sides[k])}</div>`).join("");
  }

  function render() {
    const D = V.D, [first, last] = D.pages[V.page], sides = visible(), rows = [];
    heads(sides);
    for (let s = first; s < last; s++) {
      let row = `<div class="row" data-s="${s}"><div class="sn">${s + 1}</div>`;
      for (const k of sides) row += `<div class="col" data-side="${k}">${renderSentence(D, k, s)}</div>`;
      rows.push(row + "</div>");
    }
    const text = document.getElementById("text");
    text.classList.toggle("empty", !rows.length);
    text.innerHTML = rows.length ? rows.join("") : "This document has no text.";
    V.els = new Map();
    for (const el of text.querySelectorAll(".m")) push(V.els, el.dataset.k + ":" + el.dataset.i, el);
    V.marked = []; V.errMarked = [];
    pager();
    applyErrors();
    applyMarks();
  }

  function pager() {
    const n = V.D.pages.length, html = n > 1
      ? `<button class="small" data-page="${V.page - 1}"${V.page ? "" : " disabled"}>‹ previous</button>` +
        `<select class="pagesel">${V.D.pages.map((p, i) => `<option value="${i}"${i === V.page ? " selected" : ""}>page ${i + 1} of ${n} (sentences ${p[0] + 1}–${p[1]})</option>`).join("")}</select>` +
        `<button class="small" data-page="${V.page + 1}"${V.page + 1 < n ? "" : " disabled"}>next ›</button>`
      : "";
    for (const el of document.querySelectorAll(".docpager")) el.innerHTML = html;
  }

  function chainMarks(D, sel) {
    const marks = new Map(), src = D.sides[sel.k], own = src.chains.get(sel.e) || [];
    for (const i of own) marks.set(sel.k + ":" + i, "hl");
    for (const member of src.sets.get(sel.e) || []) for (const i of src.chains.get(member) || []) marks.set(sel.k + ":" + i, "hlm");
    for (const n of own.flatMap((i) => src.brFrom.get(i) || [])) for (const i of src.chains.get(src.br[n][1]) || []) if (!marks.has(sel.k + ":" + i)) marks.set(sel.k + ":" + i, "hla");
    for (const k of visible()) {
      const other = D.sides[k];
      if (k === sel.k || !other) continue;
      const entities = new Set();
      for (const i of own) {
        const j = other.bySpan.get(src.ms[i].span);
        if (j === undefined) continue;
        marks.set(k + ":" + j, "hl");
        if (other.ms[j].e >= 0) entities.add(other.ms[j].e);
      }
      for (const e of entities) for (const j of other.chains.get(e) || []) if (!marks.has(k + ":" + j)) marks.set(k + ":" + j, "hl2");
    }
    return marks;
  }

  function applyMarks() {
    for (const el of V.marked) el.classList.remove("hl", "hl2", "hlm", "hla");
    V.marked = [];
    if (!V.sel || !V.D.sides[V.sel.k]) return;
    for (const [key, cls] of chainMarks(V.D, V.sel)) {
      for (const el of V.els.get(key) || []) { el.classList.add(cls); V.marked.push(el); }
    }
  }

  function errorsShown() {
    if (agree()) return (V.D.dis || []).map((e, j) => ({ e: [e[0], null, e[2]], j, p: e[1] })).filter((x) => V.cats.has(x.e[0]) && (!V.k || x.p === V.k - 1));
    const side = CK.index.kind === "compare" ? V.D.sides[V.k] : null;
    if (!side) return [];
    return side.err.map((e, j) => ({ e, j })).filter((x) => V.cats.has(x.e[0]));
  }

  function applyErrors() {
    for (const el of V.errMarked) { el.classList.remove("err"); el.style.removeProperty("--ec"); delete el.dataset.cats; el.removeAttribute("title"); }
    V.errMarked = [];
    if (!V.cats) return;
    const cats = CK.index.categories, found = new Map();
    for (const { e } of errorsShown()) for (const [w, i] of e[2]) push(found, refSide(w) + ":" + i, e[0]);
    for (const [key, list] of found) {
      for (const el of V.els.get(key) || []) {
        el.classList.add("err");
        el.style.setProperty("--ec", CK.catColour(list[0]));
        el.dataset.cats = list.map((c) => cats[c][0]).join(" ");
        el.title = list.map((c) => cats[c][1]).join(", ");
        V.errMarked.push(el);
      }
    }
    errorList();
  }

  function mentionText(D, side, i) {
    const m = side.ms[i], words = m.parts.map(([a, b]) => D.t.slice(a, b + 1).map((w, n) => (D.zero.has(a + n) ? "∅" : w)).join(" "));
    const text = words.join(" … ");
    return text.length > 70 ? text.slice(0, 67) + "…" : text;
  }

  function errorList() {
    const box = document.getElementById("docerrors");
    if (!box) return;
    if (CK.index.kind !== "compare" && !agree()) { box.innerHTML = ""; return; }
    const all = errorsShown(), cats = CK.index.categories, paged = V.D.pages.length > 1;
    const [first, last] = V.D.pages[V.page];
    const shown = paged ? all.filter(({ e }) => {
      if (!e[2].length) return false;
      const side = V.D.sides[refSide(e[2][0][0])], s = V.D.sentOf[side.ms[e[2][0][1]].parts[0][0]];
      return s >= first && s < last;
    }) : all;
    const items = shown.slice(0, 400).map(({ e, j }) => {
      const texts = e[2].map(([w, i]) => (agree() ? esc(CK.index.sides[w]) + ": " : (w ? "" : "key: ")) + esc(mentionText(V.D, V.D.sides[refSide(w)], i)));
      return `<li data-err="${j}"><span class="cat" style="background:${CK.catColour(e[0])}">${esc(cats[e[0]][1])}</span> ${texts.join(" | ")}</li>`;
    });
    const where = paged ? `on this page: ${shown.length} (in the document: ${all.length})` : `here: ${shown.length}`;
    const whose = agree() ? `Disagreements of ${V.k ? esc(CK.pairName(V.k - 1)) : "every pair"}` : `Errors of ${esc(CK.index.sides[V.k])}`;
    box.innerHTML = `<h3>${whose} ${where}</h3>` +
      (items.length ? `<ul>${items.join("")}</ul>` : "") + (shown.length > 400 ? `<p class="hint">first 400 listed</p>` : "");
  }

  function describe(D, k, e) {
    const side = D.sides[k], ent = side.ents[e], size = (side.chains.get(e) || []).length;
    const kind = side.et[e] ? ` (${esc(side.et[e])})` : "";
    return `${esc(CK.index.sides[k])} entity <b>${esc(ent[0])}</b>${kind}: ${size} mention${size === 1 ? "" : "s"}`;
  }

  function mentionItems(D, k, list, limit) {
    return list.slice(0, limit).map((i) => `<li data-k="${k}" data-i="${i}">${D.sentOf[D.sides[k].ms[i].parts[0][0]] + 1}: ${esc(mentionText(D, D.sides[k], i))}</li>`).join("") +
      (list.length > limit ? `<li class="hint">… ${list.length - limit} more</li>` : "");
  }

  function info() {
    const box = document.getElementById("chaininfo"), D = V.D;
    if (!V.sel) { box.innerHTML = '<p class="hint">Click a mention to highlight its entity\'s whole chain in every column.</p>'; return; }
    const { k, e } = V.sel, src = D.sides[k], own = src.chains.get(e) || [];
    let html = `<h3>${describe(D, k, e)}</h3>${CK.index.kind === "compare" ? '<p class="hint">Orange: this chain, and its mentions in the other column; light yellow: the rest of the entities they are in there.</p>' : ""}<ul>${mentionItems(D, k, own, 60)}</ul>`;
    const members = src.sets.get(e) || [], sets = src.memberOf.get(e) || [];
    if (members.length) html += `<p>A set of ${members.map((m) => "<b>" + esc(src.ents[m][0]) + "</b>").join(", ")}: its split antecedents (green)</p>`;
    if (sets.length) html += `<p>Member of the set${sets.length > 1 ? "s" : ""} ${sets.map((m) => "<b>" + esc(src.ents[m][0]) + "</b>").join(", ")}</p>`;
    const bridges = own.flatMap((i) => src.brFrom.get(i) || []).map((n) => src.br[n]);
    if (bridges.length) html += `<p>Bridging to ${bridges.map((b) => "<b>" + esc(src.ents[b[1]][0]) + "</b>" + (b[2] ? " (" + esc(b[2]) + ")" : "")).join(", ")} (violet)</p>`;
    const incoming = (src.brTo.get(e) || []).map((n) => src.br[n][0]);
    if (incoming.length) html += `<p>Anchor of bridging from:</p><ul>${mentionItems(D, k, incoming, 20)}</ul>`;
    for (const j of visible()) {
      const other = D.sides[j];
      if (j === k || !other) continue;
      const matched = own.map((i) => other.bySpan.get(src.ms[i].span)).filter((x) => x !== undefined);
      const entities = [...new Set(matched.map((x) => other.ms[x].e).filter((x) => x >= 0))];
      html += `<p>In ${esc(CK.index.sides[j])}: ${matched.length} of ${own.length} mentions found, in ${entities.length} entit${entities.length === 1 ? "y" : "ies"}${entities.length ? ": " + entities.map((x) => "<b>" + esc(other.ents[x][0]) + "</b> (" + (other.chains.get(x) || []).length + ")").join(", ") : ""}</p>`;
    }
    box.innerHTML = html;
  }

  function select(k, i) {
    const m = V.D.sides[k].ms[i];
    V.sel = m.e >= 0 ? { k, e: m.e } : null;
    applyMarks();
    info();
  }

  function goTo(k, i, flash) {
    const side = V.D.sides[k];
    if (!side || !side.ms[i]) return;
    const s = V.D.sentOf[side.ms[i].parts[0][0]];
    const page = V.D.pages.findIndex(([a, b]) => s >= a && s < b);
    if (page !== V.page) { V.page = page; render(); }
    const el = (V.els.get(k + ":" + i) || [])[0];
    if (el) {
      el.scrollIntoView({ block: "center" });
      if (flash) { el.classList.remove("flash"); void el.offsetWidth; el.classList.add("flash"); }
    }
  }

  function catFilter() {
    const box = document.getElementById("catfilter");
    if (!box) return;
    const side = V.D.sides[V.k], counts = new Map();
    const listed = agree() ? (V.D.dis || []).filter((e) => !V.k || e[1] === V.k - 1) : (side ? side.err : []);
    for (const e of listed) counts.set(e[0], (counts.get(e[0]) || 0) + 1);
    box.innerHTML = `<b>${agree() ? "disagreements" : "errors"}:</b> ` + CK.index.categories.map(([id, title], c) =>
      `<label><input type="checkbox" data-cat="${c}"${V.cats.has(c) ? " checked" : ""}> <span class="cat" style="background:${CK.catColour(c)}">${esc(title)}</span> <span class="n">${counts.get(c) || 0}</span></label>`).join("") +
      ' <button class="small" data-cats="all">all</button> <button class="small" data-cats="none">none</button>';
  }

  CK.open = function (n, opts) {
    opts = opts || {};
    V.D = load(n); V.n = n; V.page = 0; V.sel = null;
    if (opts.system !== undefined && (opts.system || agree())) V.k = opts.system;
    if (!V.cats) V.cats = new Set(CK.index.categories.map((_, c) => c));
    document.getElementById("docname").textContent = V.D.name;
    const head = document.getElementById("syshead");
    if (head) head.textContent = CK.index.sides[V.k];
    const sel = document.getElementById("sys");
    if (sel) sel.value = String(V.k);
    catFilter();
    render();
    info();
    CK.markDocument(n);
    if (opts.error !== undefined) {
      const e = agree() ? (V.D.dis || [])[opts.error] : V.D.sides[V.k] && V.D.sides[V.k].err[opts.error];
      if (e && e[2].length) goTo(refSide(e[2][0][0]), e[2][0][1], true);
    }
  };

  function onText(ev) {
    const el = ev.target.closest(".m");
    if (!el) return;
    ev.stopPropagation();
    select(+el.dataset.k, +el.dataset.i);
  }

  function onControls(ev) {
    const t = ev.target;
    if (t.dataset.page !== undefined && !t.disabled) { V.page = +t.dataset.page; render(); document.getElementById("text").scrollIntoView(); }
    else if (t.dataset.cats) { V.cats = new Set(t.dataset.cats === "all" ? CK.index.categories.map((_, c) => c) : []); catFilter(); applyErrors(); }
    else if (t.closest("li[data-i]")) { const li = t.closest("li[data-i]"); goTo(+li.dataset.k, +li.dataset.i, true); }
    else if (t.closest("li[data-err]")) {
      const j = +t.closest("li[data-err]").dataset.err, e = agree() ? V.D.dis[j] : V.D.sides[V.k].err[j];
      if (e[2].length) goTo(refSide(e[2][0][0]), e[2][0][1], true);
    }
  }

  function onChange(ev) {
    const t = ev.target;
    if (t.classList.contains("pagesel")) { V.page = +t.value; render(); }
    else if (t.dataset.cat !== undefined) { const c = +t.dataset.cat; if (t.checked) V.cats.add(c); else V.cats.delete(c); applyErrors(); }
    else if (t.id === "sys") { CK.open(V.n, { system: +t.value }); }
    else if (t.id === "singletons") { document.getElementById("text").classList.toggle("nosg", !t.checked); }
  }

  CK.initBrowser = function () {
    if (agree()) V.k = 0;
    document.getElementById("text").addEventListener("click", onText);
    const browser = document.querySelector(".browser");
    browser.addEventListener("click", onControls);
    browser.addEventListener("change", onChange);
  };
})();
