// The pace of a reveal, shared by the drawing games: one step at a time (a
// stack turned over, a guess shown, a drawing's word), at the table's pace
// (slower on the TV view), remembered per tab so a reload does not play it
// again; skip shows everything at once. The game's reveal paints the first
// `shown` steps and decides what finishing shows.

import { revealStep } from "./tv.js";

export class RevealSteps {
  // paint(): draw the steps shown so far; finished(): once, when all are shown.
  constructor(room, storeKey, total, { paint, finished }) {
    this.room = room;
    this.storeKey = storeKey;
    this.total = total;
    this.paint = paint;
    this.finished = finished;
    this.timer = null;
    this.shown = Math.min(Number(sessionStorage.getItem(storeKey) || 0), total);
  }

  get done() {
    return this.shown >= this.total;
  }

  // Starts the steps (every stepMs, or the TV's pace); false if all were seen.
  start(stepMs) {
    if (this.done) return false;
    this.timer = setInterval(() => this.advance(), revealStep(this.room, stepMs));
    return true;
  }

  advance() {
    this.shown += 1;
    if (this.done) this.finish();
    else {
      sessionStorage.setItem(this.storeKey, String(this.shown));
      this.paint();
    }
  }

  skip() {
    this.shown = this.total;
    this.finish();
  }

  finish() {
    this.stop();
    sessionStorage.setItem(this.storeKey, String(this.total));
    this.paint();
    this.finished();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
