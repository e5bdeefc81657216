// Turns strokes as they are drawn into batches, as record.py does: points
// wait for the next flush (about every 50 ms while drawing, and at each
// stroke's end), and each flush becomes one batch. Every op is also applied
// to `drawing`, so local ink is drawn from exactly what others receive.

import { MAX_POINTS_PER_STROKE, encodeBatch } from "./codec.js";

export const FLUSH_MS = 50;
const MAX_PENDING_POINTS = 1000; // keeps a batch far below MAX_BATCH_BYTES

export class Recorder {
  constructor(drawing, send) {
    this.drawing = drawing;
    this.send = send; // (Uint8Array) => void
    this.ops = [];
    this.deltas = [];
    this.pressure = false;
    this.last = [0, 0, 0, 0];
    this.open = false;
    this.count = 0;
    this.stroke = ["pen", 1];
    this.flushedAt = 0;
    this.timer = null;
  }

  begin(tool, width, x, y, t, p = null) {
    if (this.open) this.end();
    // a stroke left open by an earlier session (reload mid-stroke) ends first
    if (this.drawing.open) {
      this.ops.push({ op: "end" });
      this.drawing.end();
    }
    this.beginAt = this.ops.length;
    this.ops.push({ op: "begin", tool, width, x, y, t, pressure: p });
    this.drawing.begin(tool, width, x, y, t, p);
    this.open = true;
    this.pressure = p !== null;
    this.count = 1;
    this.stroke = [tool, width];
    this.last = [x, y, t, p ?? 0];
    this.flushedAt = t;
  }

  point(x, y, t, p = null) {
    if (!this.open) return;
    const [lx, ly, lt, lp] = this.last;
    const q = this.pressure ? (p ?? 0) : 0;
    if (x === lx && y === ly && q === lp) return; // nothing new to draw
    if (t < lt) t = lt;
    if (this.count >= MAX_POINTS_PER_STROKE) {
      // one stroke too long to check cheaply: carry on as a new one
      const [tool, width] = this.stroke;
      this.end();
      this.begin(tool, width, lx, ly, lt, this.pressure ? lp : null);
    }
    this.deltas.push(x - lx, y - ly, t - lt, q - lp);
    this.drawing.point(x, y, t, q);
    this.last = [x, y, t, q];
    this.count += 1;
    if (t - this.flushedAt >= FLUSH_MS || this.deltas.length >= 4 * MAX_PENDING_POINTS) {
      this.flush();
      this.flushedAt = t;
    } else if (this.timer === null) {
      // the pointer may rest: what is pending still goes out soon
      this.timer = setTimeout(() => {
        this.flush();
        this.flushedAt = this.last[2];
      }, FLUSH_MS);
    }
  }

  end() {
    if (!this.open) return;
    this.takePoints();
    this.ops.push({ op: "end" });
    this.drawing.end();
    this.open = false;
    this.flush();
  }

  undo(t) {
    this.end();
    this.closeForeign();
    this.ops.push({ op: "undo", t });
    this.drawing.undo(t);
    this.flush();
  }

  clear(t) {
    this.end();
    this.closeForeign();
    this.ops.push({ op: "clear", t });
    this.drawing.clear(t);
    this.flush();
  }

  // Forgets the open stroke, which must not have been sent yet.
  discard() {
    if (!this.open) return;
    this.cancelTimer();
    this.ops.length = this.beginAt;
    this.deltas = [];
    this.open = false;
    this.drawing.undo(this.drawing.lastT);
  }

  closeForeign() {
    if (this.drawing.open) {
      this.ops.push({ op: "end" });
      this.drawing.end();
    }
  }

  takePoints() {
    if (this.deltas.length) {
      this.ops.push({ op: "points", deltas: this.deltas, pressure: this.pressure });
      this.deltas = [];
    }
  }

  flush() {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.takePoints();
    if (!this.ops.length) return null;
    const bytes = encodeBatch(this.ops);
    this.ops = [];
    this.send(bytes);
    return bytes;
  }

  cancelTimer() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
