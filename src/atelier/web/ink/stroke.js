// How a stroke looks, computed exactly as geometry.py does: its width at each
// point (a pen's pressure, or pressure simulated from speed for mouse and
// finger) and the curve through its points. Piece j runs from the midpoint
// before point j to the one after it, bending towards point j, so a piece is
// final as soon as the next point exists and live ink is never redrawn.

import { MAX_PRESSURE } from "./codec.js";

export const THINNEST = 0.35;
export const SPEED_HALF = 6.0; // units per ms at which simulated pressure falls halfway
export const SIM_START = 0.85;
export const SIM_EASE = 0.35;

// Widths per point, cached on the stroke and extended as points arrive.
export function widths(s) {
  const n = s.xs.length;
  if (!s._w) {
    s._w = [];
    s._p = SIM_START;
  }
  const w = s._w;
  for (let i = w.length; i < n; i++) {
    if (s.tool === "eraser") {
      w.push(s.width);
      continue;
    }
    let p;
    if (s.pressure) {
      p = s.ps[i] / MAX_PRESSURE;
    } else {
      if (i) {
        const dx = s.xs[i] - s.xs[i - 1];
        const dy = s.ys[i] - s.ys[i - 1];
        const v = Math.sqrt(dx * dx + dy * dy) / Math.max(s.ts[i] - s.ts[i - 1], 1);
        const target = 1 - (0.5 * v) / (v + SPEED_HALF);
        s._p += (target - s._p) * SIM_EASE;
      }
      p = s._p;
    }
    w.push(s.width * (THINNEST + (1 - THINNEST) * p));
  }
  return w;
}

// How many pieces the stroke has so far.
export function pieceCount(s) {
  const n = s.xs.length;
  if (n === 1) return s.ended ? 1 : 0;
  return s.ended ? n : Math.max(n - 1, 0);
}

// Piece j as [ax, ay, cx, cy, bx, by, width].
export function piece(s, j) {
  const xs = s.xs,
    ys = s.ys,
    n = xs.length;
  const w = widths(s)[j];
  if (n === 1) return [xs[0], ys[0], xs[0], ys[0], xs[0], ys[0], w];
  let ax, ay, bx, by, cx, cy;
  if (j === 0) {
    ax = xs[0];
    ay = ys[0];
  } else {
    ax = (xs[j - 1] + xs[j]) / 2;
    ay = (ys[j - 1] + ys[j]) / 2;
  }
  if (j === n - 1) {
    bx = xs[j];
    by = ys[j];
  } else {
    bx = (xs[j] + xs[j + 1]) / 2;
    by = (ys[j] + ys[j + 1]) / 2;
  }
  if (j === 0 || j === n - 1) {
    cx = (ax + bx) / 2;
    cy = (ay + by) / 2;
  } else {
    cx = xs[j];
    cy = ys[j];
  }
  return [ax, ay, cx, cy, bx, by, w];
}

// Paints pieces [from, pieceCount) of a stroke on a context whose transform
// maps the logical canvas; returns the new count. Pen adds ink, the eraser
// takes it away, so each surface keeps its ink on a transparent layer.
// Consecutive pieces whose widths round to the same 1/16 of the stroke's
// width share one path (round joins look the same as round caps): a long
// drawing redraws in a tenth of the calls.
export function paint(ctx, s, from, colour) {
  const to = pieceCount(s);
  if (to <= from) return from;
  ctx.globalCompositeOperation = s.tool === "eraser" ? "destination-out" : "source-over";
  ctx.strokeStyle = ctx.fillStyle = s.tool === "eraser" ? "#000" : colour;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  const step = Math.max(s.width / 16, 0.5);
  let pathWidth = -1;
  for (let j = from; j < to; j++) {
    const [ax, ay, cx, cy, bx, by, w] = piece(s, j);
    if (ax === bx && ay === by && cx === ax && cy === ay) {
      if (pathWidth >= 0) ctx.stroke();
      pathWidth = -1;
      ctx.beginPath();
      ctx.arc(ax, ay, w / 2, 0, 2 * Math.PI);
      ctx.fill();
      continue;
    }
    const width = Math.max(Math.round(w / step), 1) * step;
    if (width !== pathWidth) {
      if (pathWidth >= 0) ctx.stroke();
      ctx.lineWidth = pathWidth = width;
      ctx.beginPath();
      ctx.moveTo(ax, ay);
    }
    ctx.quadraticCurveTo(cx, cy, bx, by);
  }
  if (pathWidth >= 0) ctx.stroke();
  ctx.globalCompositeOperation = "source-over";
  return to;
}
