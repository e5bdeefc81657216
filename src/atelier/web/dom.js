// Tiny DOM helpers: the client renders from server views, no framework.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "testid") el.dataset.testid = value;
    else if (key === "style" && typeof value === "object") {
      // Custom properties (--c) only take effect through setProperty.
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

let toastTimer = null;

export function toast(text, kind = "error") {
  let box = document.querySelector("[data-testid=toast]");
  if (!box) {
    box = h("div", { class: "toast", testid: "toast", role: "status", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  box.textContent = text;
  box.dataset.kind = kind;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), 3200);
}

// Player colours by name, as the server sends them in every "welcome" (the one
// list, which its PNGs use too); a name it does not know is used as CSS as is.
let palette = {};

export function setPalette(colours) {
  if (colours && typeof colours === "object") palette = { ...colours };
}

// The colours a player may choose, in the lobby's order.
export function playerColours() {
  return Object.keys(palette);
}

export function colourCss(name) {
  if (!name) return "#888";
  return palette[String(name).toLowerCase()] || name;
}

export function stars(n) {
  return n > 0 ? "★".repeat(Math.min(n, 6)) : "";
}

// A radio group of buttons (role=radio) that works like native radios: Tab
// reaches the checked one, arrow keys move and select. Call after each
// render of the group; the group's own click handler does the selecting.
export function radioKeys(group) {
  const radios = [...group.querySelectorAll("[role=radio]")];
  const checked = radios.find((r) => r.getAttribute("aria-checked") === "true") || radios.find((r) => !r.disabled);
  for (const r of radios) r.tabIndex = r === checked ? 0 : -1;
  if (group.dataset.radioKeys) return;
  group.dataset.radioKeys = "1";
  group.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    const all = [...group.querySelectorAll("[role=radio]")];
    const usable = all.filter((r) => !r.disabled);
    const from = usable.indexOf(document.activeElement);
    if (from < 0 || usable.length === 0) return;
    event.preventDefault();
    const next = usable[(from + step + usable.length) % usable.length];
    const id = next.dataset.testid;
    next.click();
    // The click may have re-rendered the group: focus the new element.
    const again = id ? document.querySelector(`[data-testid="${id}"]`) : next;
    (again || next).focus();
  });
}

// Words stay whole: a line may break between words, never inside one. The
// browser would break after a hyphen ("merry-/go-round"), so a word with one
// keeps together in a nowrap span; the text itself is unchanged.
const BREAKS_INSIDE = /[-\u2010\u2013\u2014/]/;
export function wholeWords(text) {
  const parts = String(text ?? "").split(/(\s+)/);
  if (!parts.some((p) => BREAKS_INSIDE.test(p))) return String(text ?? "");
  return parts.filter((p) => p).map((p) => (BREAKS_INSIDE.test(p) ? h("span", { class: "nobr" }, p) : p));
}

// The widest piece of these texts that must stay on one line (a word, or the
// longest word of a phrase), in em of the page's font in bold: a layout gives
// its columns at least this width (times its font size), so nothing is cut.
let ruler = null;
export function widestWord(texts) {
  ruler ??= document.createElement("canvas").getContext("2d");
  ruler.font = `700 100px ${getComputedStyle(document.body).fontFamily}`;
  let widest = 0;
  for (const text of texts) {
    for (const piece of String(text ?? "").split(/\s+/))
      widest = Math.max(widest, ruler.measureText(piece).width / 100);
  }
  return Math.ceil(widest * 100) / 100;
}

// A player's name on one line: shortened with an ellipsis where it does not
// fit, the whole name in its title (screen readers read the text in full).
// With the class "wrap" it may take a line per word, each word whole.
export function nameTag(name, cls = "", attrs = {}) {
  const wraps = cls.split(" ").includes("wrap");
  return h("span", { class: `name-tag ${cls}`.trim(), title: name, ...attrs }, wraps ? wholeWords(name) : name);
}

// Names in running text ("Waiting for A, B"): each whole on its line.
export function nameList(names) {
  return names.flatMap((name, i) => [i ? ", " : null, h("span", { class: "nobr" }, name)]).filter((x) => x);
}

// A column heading: a string, or {full, short} where a phone shows the short
// one (with the full one in its title) and screen readers always read the full.
function headCell(head) {
  if (typeof head === "string" || !head.short || head.short === head.full) {
    return h("th", { scope: "col" }, typeof head === "string" ? head : head.full);
  }
  return h(
    "th",
    { scope: "col" },
    h("span", { class: "col-full" }, head.full),
    h("abbr", { class: "col-short", title: head.full, "aria-hidden": "true" }, head.short),
  );
}

// A table of scores: a header row of labels, then the rows given (each a <tr>).
// With a label, its box is a named region (a screen reader can jump to it).
export function scoreTable(testid, headers, rows, label = null) {
  const table = h(
    "table",
    { class: "scores", testid, role: "table", style: { "--cols": String(headers.length - 1) } },
    h("thead", { role: "rowgroup" }, h("tr", {}, headers.map(headCell))),
    h("tbody", { role: "rowgroup" }, rows),
  );
  // A phone lays the rows out as grids (styles.css): the roles keep them a
  // table for every screen reader.
  for (const tr of table.querySelectorAll("tr")) tr.setAttribute("role", "row");
  for (const th of table.querySelectorAll("thead th")) th.setAttribute("role", "columnheader");
  for (const th of table.querySelectorAll("tbody th")) th.setAttribute("role", "rowheader");
  for (const td of table.querySelectorAll("td")) td.setAttribute("role", "cell");
  return h(
    "div",
    label ? { class: "table-wrap", role: "region", "aria-label": label } : { class: "table-wrap" },
    table,
  );
}
