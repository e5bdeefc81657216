// The review's chart: the expected final margin (player 1 minus player 2)
// after every move, as an SVG line over a labelled scale, with a legend a
// sighted player can read; a tap on it shows the nearest move, and each
// turning point has a button below it. No library.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const NS = "http://www.w3.org/2000/svg";
const W = 320;
const H = 150;
const LEFT = 30; // room for the scale's numbers
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 22; // room for the move numbers

function el(tag, attrs, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

// A round step for the scale: 1, 2, 5 or 10 times a power of ten, about
// three steps either side of zero.
export function scaleStep(top) {
  const rough = Math.max(1, top) / 3;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((k) => k * power).find((k) => k >= rough) ?? 10 * power;
}

const signed = (v) => (v > 0 ? `+${v}` : String(v));

export function marginChart(plies, { label, names, selected = null, onPick = null } = {}) {
  const values = plies.map((p) => Number(p.margin_after) || 0);
  const step = scaleStep(Math.max(...values.map(Math.abs), 1));
  const top = step * Math.max(1, Math.ceil(Math.max(...values.map(Math.abs), 1) / step));
  const x = (i) => LEFT + (plies.length <= 1 ? 0 : (i * (W - LEFT - RIGHT)) / (plies.length - 1));
  const y = (v) => TOP + ((top - v) / (2 * top)) * (H - TOP - BOTTOM);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "piet-chart", "aria-hidden": "true" });
  // the scale: a grid line and its number at every step, zero dashed
  for (let v = -top; v <= top; v += step) {
    svg.append(
      el("line", { x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v), class: v ? "piet-chart-grid" : "piet-chart-zero" }),
    );
    svg.append(el("text", { x: LEFT - 4, y: y(v) + 4, class: "piet-chart-scale", "text-anchor": "end" }, signed(v)));
  }
  // the axis of moves: the first, some between, the last
  svg.append(el("line", { x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM, class: "piet-chart-axis" }));
  svg.append(el("line", { x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM, class: "piet-chart-axis" }));
  const every = Math.max(1, Math.ceil(plies.length / 6 / 5) * 5);
  plies.forEach((_, i) => {
    const n = i + 1;
    if (n !== 1 && n !== plies.length && n % every) return;
    if (n !== plies.length && plies.length - n < every / 2 && n !== 1) return; // no overlap with the last
    svg.append(el("text", { x: x(i), y: H - 6, class: "piet-chart-scale", "text-anchor": "middle" }, String(n)));
  });
  if (values.length) {
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(el("polyline", { points, class: "piet-chart-line" }));
  }
  plies.forEach((p, i) => {
    if (!p.turning && i !== selected) return;
    svg.append(
      el("circle", {
        cx: x(i),
        cy: y(values[i]),
        r: i === selected ? 5 : 4.5,
        class: i === selected ? "piet-chart-here" : "piet-chart-turn",
      }),
    );
  });
  // Tapping the chart shows the move nearest the tap; the turning points are
  // also buttons of their own below it (dots a few pixels apart cannot each
  // be a 24 px target), reachable from the keyboard.
  const box = h("div", { class: "piet-chart-box", testid: "piet-chart-box" }, svg);
  box.addEventListener("click", (event) => {
    const rect = svg.getBoundingClientRect();
    if (!onPick || !rect.width || plies.length === 0) return;
    const vx = ((event.clientX - rect.left) / rect.width) * W;
    const span = plies.length <= 1 ? 1 : (W - LEFT - RIGHT) / (plies.length - 1);
    onPick(Math.min(plies.length - 1, Math.max(0, Math.round((vx - LEFT) / span))));
  });
  const turns = plies
    .map((p, i) =>
      p.turning
        ? h(
            "button",
            {
              type: "button",
              class: `piet-chart-target ${i === selected ? "here" : ""}`,
              testid: "piet-chart-turn",
              "aria-label": t("learn.review.turn_at", { n: i + 1 }),
              "aria-pressed": String(i === selected),
              onclick: () => onPick?.(i),
            },
            String(i + 1),
          )
        : null,
    )
    .filter((b) => b);
  const legend = h(
    "ul",
    { class: "piet-chart-legend", testid: "piet-review-legend" },
    h(
      "li",
      {},
      h("span", { class: "piet-key line", "aria-hidden": "true" }),
      t("learn.review.key_line", { a: names[0], b: names[1] }),
    ),
    h("li", {}, h("span", { class: "piet-key turn", "aria-hidden": "true" }), t("learn.review.key_turn")),
    h("li", {}, h("span", { class: "piet-key here", "aria-hidden": "true" }), t("learn.review.key_here")),
  );
  return h(
    "figure",
    { class: "piet-chart-figure", testid: "piet-review-chart", role: "group", "aria-label": label },
    h("p", { class: "piet-chart-caption" }, t("learn.review.axis", { a: names[0], b: names[1] })),
    box,
    turns.length ? h("div", { class: "piet-chart-turns" }, h("span", {}, t("learn.review.turns")), turns) : null,
    legend,
  );
}
