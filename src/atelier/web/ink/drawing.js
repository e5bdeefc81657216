// A drawing as its strokes, built from ops exactly as drawing.py does.
// Forgiving: a new stroke ends an open one, points without a stroke are
// dropped, points are clamped to the canvas and its margin. Undo takes back
// the last stroke or clear; a clear hides every stroke before it.

import { CANVAS_SIZE, MARGIN, MAX_PRESSURE } from "./codec.js";

const LOW = -MARGIN;
const HIGH = CANVAS_SIZE + MARGIN - 1;
const clamp = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);

export class Stroke {
  constructor(tool, width, pressure) {
    this.tool = tool;
    this.width = width;
    this.pressure = pressure; // real pressure in ps; else simulated from speed
    this.xs = [];
    this.ys = [];
    this.ts = [];
    this.ps = [];
    this.ended = false;
  }

  get length() {
    return this.xs.length;
  }
}

export const CLEAR = "clear";

export class Drawing {
  constructor() {
    this.history = []; // Stroke or {clear: t}
    this.open = null;
    this.lastT = 0;
    this.strokesBegun = 0;
    // bumped whenever strokes disappear (undo, clear): the picture is redrawn
    this.generation = 0;
    this.cursor = [0, 0, 0, 0]; // where the open stroke's next deltas start
    this._visible = null;
  }

  visible() {
    if (this._visible) return this._visible;
    let shown = [];
    for (const item of this.history) {
      if (item instanceof Stroke) shown.push(item);
      else shown = [];
    }
    this._visible = shown;
    return shown;
  }

  isEmpty() {
    return this.history.length === 0;
  }

  begin(tool, width, x, y, t, p) {
    this.end();
    const s = new Stroke(tool, width, p !== null && p !== undefined);
    this.history.push(s);
    if (this._visible) this._visible.push(s);
    this.open = s;
    this.strokesBegun += 1;
    this.point(x, y, t, p ?? 0);
    return s;
  }

  point(x, y, t, p) {
    const s = this.open;
    if (!s) return;
    s.xs.push(clamp(x, LOW, HIGH));
    s.ys.push(clamp(y, LOW, HIGH));
    s.ts.push(t);
    s.ps.push(s.pressure ? clamp(p, 0, MAX_PRESSURE) : 0);
    if (t > this.lastT) this.lastT = t;
  }

  end() {
    if (this.open) {
      this.open.ended = true;
      this.open = null;
    }
  }

  undo(t) {
    this.end();
    if (this.history.length) {
      this.history.pop();
      this._visible = null;
      this.generation += 1;
    }
    if (t > this.lastT) this.lastT = t;
  }

  clear(t) {
    this.end();
    this.history.push({ clear: t });
    this._visible = null;
    this.generation += 1;
    if (t > this.lastT) this.lastT = t;
  }

  applyOps(ops) {
    for (const op of ops) this.applyOp(op);
  }

  applyOp(op) {
    switch (op.op) {
      case "points": {
        if (!this.open) return;
        // deltas continue from the unclamped path, as they were encoded
        let [x, y, t, p] = this.cursor;
        const d = op.deltas;
        for (let i = 0; i < d.length; i += 4) {
          x += d[i];
          y += d[i + 1];
          t += d[i + 2];
          p += d[i + 3];
          this.point(x, y, t, p);
        }
        this.cursor = [x, y, t, p];
        return;
      }
      case "begin":
        this.begin(op.tool, op.width, op.x, op.y, op.t, op.pressure);
        this.cursor = [op.x, op.y, op.t, op.pressure ?? 0];
        return;
      case "end":
        return this.end();
      case "undo":
        return this.undo(op.t);
      case "clear":
        return this.clear(op.t);
    }
  }
}
