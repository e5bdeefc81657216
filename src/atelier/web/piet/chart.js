// The review's chart: the expected final margin (player 1 minus player 2)
// after every move, as a small SVG line, turning points marked. No library.

const NS = "http://www.w3.org/2000/svg";
const W = 320;
const H = 120;
const PAD = 8;

function el(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function marginChart(plies, { label, selected = null, onPick = null } = {}) {
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "piet-chart",
    role: "img",
    "aria-label": label,
    "data-testid": "piet-review-chart",
  });
  const title = el("title", {});
  title.textContent = label;
  svg.append(title);
  const values = plies.map((p) => Number(p.margin_after) || 0);
  const top = Math.max(5, ...values.map(Math.abs));
  const x = (i) => PAD + (plies.length <= 1 ? 0 : (i * (W - 2 * PAD)) / (plies.length - 1));
  const y = (v) => H / 2 - (v / top) * (H / 2 - PAD);
  svg.append(el("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "piet-chart-zero" }));
  if (values.length) {
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(el("polyline", { points, class: "piet-chart-line" }));
  }
  plies.forEach((p, i) => {
    if (!p.turning && i !== selected) return;
    const dot = el("circle", {
      cx: x(i),
      cy: y(values[i]),
      r: i === selected ? 5 : 4,
      class: i === selected ? "piet-chart-here" : "piet-chart-turn",
    });
    if (onPick) dot.addEventListener("click", () => onPick(i));
    svg.append(dot);
  });
  return svg;
}
