// The drawing surface: captures ink with pointer events, draws it, sends it
// as batches, and draws others' batches. API in docs/ink.md.
//
// Two canvases: committed strokes below, the stroke being drawn above, so a
// long drawing is never redrawn while drawing. Everything is drawn once per
// animation frame from the Drawing model, local ink included, so what the
// drawer sees is exactly what everyone receives.

import { CANVAS_SIZE, MARGIN, MAX_PRESSURE, MAX_STROKES_PER_DRAWING, decodeBatch } from "./codec.js";
import { Drawing } from "./drawing.js";
import { Recorder } from "./recorder.js";
import { timeline } from "./replay.js";
import { paint, pieceCount } from "./stroke.js";

const PALM_MS = 1500; // touches this soon after a pen's are taken for the palm
const SNAP_KEEP = 16; // strokes kept out of the undo snapshot (instant undo)
const ALL_TOOLS = ["pen", "eraser", "undo", "clear"];

const DEFAULTS = {
  colour: "#1d1d1f",
  editable: true,
  tools: ALL_TOOLS,
  width: 24, // logical units (the canvas is CANVAS_SIZE wide)
  eraserWidth: 160,
  background: "#ffffff", // CSS background of the paper; null: transparent
  maxDpr: 3,
  onBatch: null, // (Uint8Array) => void, one call per batch to send
  onChange: null, // () => void, after anything visible changed (undo state etc.)
};

export class InkSurface {
  constructor(container, options = {}) {
    this.opts = { ...DEFAULTS, ...options };
    this.container = container;
    this.drawing = new Drawing();
    this.tool = "pen";
    this.tools = new Set(this.opts.tools);
    this.editable = false;
    this.sent = { batches: 0, bytes: 0 };
    this.recorder = this._newRecorder();

    const root = document.createElement("div");
    root.className = "ink-surface";
    Object.assign(root.style, {
      position: "relative",
      width: "100%",
      aspectRatio: "1 / 1",
      overflow: "hidden",
      userSelect: "none",
      webkitUserSelect: "none",
      webkitTouchCallout: "none",
      overscrollBehavior: "contain",
      background: this.opts.background ?? "transparent",
    });
    this.root = root;
    this.base = this._layer();
    this.live = this._layer();
    this.baseCtx = this.base.getContext("2d");
    this.liveCtx = this.live.getContext("2d");
    container.appendChild(root);

    this._px = 0;
    this._raf = 0;
    this._full = true;
    this._gen = -1;
    this._done = 0; // visible strokes fully on the base layer
    this._partial = 0; // pieces of the open eraser stroke already on the base layer
    this._liveStroke = null;
    this._livePieces = 0;
    this._snap = null;
    this._pointer = null;
    this._penAt = -Infinity;
    this._clock0 = null;
    this._replay = null;

    this._handlers = {
      pointerdown: (e) => this._down(e),
      pointermove: (e) => this._move(e),
      pointerup: (e) => this._up(e),
      pointercancel: (e) => this._up(e),
      lostpointercapture: (e) => this._up(e),
      contextmenu: (e) => e.preventDefault(),
      touchstart: (e) => this.editable && e.preventDefault(),
      touchmove: (e) => this.editable && e.preventDefault(),
    };
    for (const [type, fn] of Object.entries(this._handlers)) {
      root.addEventListener(type, fn, { passive: false });
    }
    this._resizer = new ResizeObserver(() => this._schedule());
    this._resizer.observe(root);
    this._watchDensity();
    this.setEditable(this.opts.editable);
    this._schedule();
  }

  // --- public API ------------------------------------------------------------

  // A batch from the server (the frame without its seat byte). Returns false
  // (and changes nothing) if it cannot be decoded.
  applyRemote(bytes) {
    let batch;
    try {
      batch = decodeBatch(bytes);
    } catch (err) {
      console.warn("ink: batch refused", err.code ?? err);
      return false;
    }
    this.drawing.applyOps(batch.ops);
    this._changed();
    return true;
  }

  // Several batches at once (e.g. after a reconnect), drawn in one frame.
  load(batches) {
    for (const b of batches) this.applyRemote(b);
  }

  reset() {
    this.stopReplay();
    this._endLocal(false);
    this.recorder.cancelTimer();
    this.drawing = new Drawing();
    this.recorder = this._newRecorder();
    this._clock0 = null;
    this._snap = null;
    this._full = true;
    this._changed();
  }

  // Only a surface that takes ink keeps touches to itself: a page of
  // read-only drawings still scrolls under a finger.
  setEditable(on) {
    if (!on) this._endLocal(true);
    this.editable = !!on;
    this.root.style.cursor = on ? "crosshair" : "default";
    this.root.style.touchAction = on ? "none" : "manipulation";
  }

  setTool(tool) {
    if ((tool === "pen" || tool === "eraser") && this.tools.has(tool)) this.tool = tool;
    return this.tool;
  }

  setTools(tools) {
    this.tools = new Set(tools);
    if (!this.tools.has(this.tool)) this.tool = "pen";
  }

  setColour(colour) {
    this.opts.colour = colour;
    this._snap = null;
    this._full = true;
    this._schedule();
  }

  get canUndo() {
    return this.tools.has("undo") && this.drawing.history.length > 0;
  }

  undo() {
    if (!this.editable || !this.tools.has("undo") || !this.drawing.history.length) return false;
    this._endLocal(true);
    this.recorder.undo(this._now());
    this._changed();
    return true;
  }

  clear() {
    if (!this.editable || !this.tools.has("clear") || !this.drawing.visible().length) return false;
    this._endLocal(true);
    this.recorder.clear(this._now());
    this._changed();
    return true;
  }

  // The drawing as a PNG (white paper unless background is null).
  toPNG(size = 1024, background = this.opts.background ?? "#ffffff") {
    const ink = document.createElement("canvas");
    ink.width = ink.height = size;
    const ctx = ink.getContext("2d");
    ctx.setTransform(size / CANVAS_SIZE, 0, 0, size / CANVAS_SIZE, 0, 0);
    for (const s of this.drawing.visible()) paint(ctx, s, 0, this.opts.colour);
    const out = document.createElement("canvas");
    out.width = out.height = size;
    const octx = out.getContext("2d");
    if (background) {
      octx.fillStyle = background;
      octx.fillRect(0, 0, size, size);
    }
    octx.drawImage(ink, 0, 0);
    return new Promise((resolve) => out.toBlob(resolve, "image/png"));
  }

  // Draws the batches again as they were drawn (long pauses shortened);
  // resolves when done or stopped.
  replay(batches, speed = 1) {
    this.reset();
    const events = timeline(batches);
    return new Promise((resolve) => {
      const start = performance.now();
      let i = 0;
      const run = {
        stop: () => {
          cancelAnimationFrame(run.frame);
          this._replay = null;
          resolve(i >= events.length);
        },
        frame: 0,
      };
      const step = () => {
        const vt = (performance.now() - start) * speed;
        while (i < events.length && events[i].vt <= vt) events[i++].apply(this.drawing);
        this._changed();
        if (i >= events.length) run.stop();
        else run.frame = requestAnimationFrame(step);
      };
      this._replay = run;
      run.frame = requestAnimationFrame(step);
    });
  }

  stopReplay() {
    if (this._replay) this._replay.stop();
  }

  destroy() {
    this.stopReplay();
    this._endLocal(true);
    this.recorder.cancelTimer();
    cancelAnimationFrame(this._raf);
    this._resizer.disconnect();
    this._densityQuery?.removeEventListener("change", this._densityChanged);
    for (const [type, fn] of Object.entries(this._handlers)) {
      this.root.removeEventListener(type, fn);
    }
    this.root.remove();
  }

  // --- input -----------------------------------------------------------------

  _newRecorder() {
    return new Recorder(this.drawing, (bytes) => {
      this.sent.batches += 1;
      this.sent.bytes += bytes.length;
      if (this.opts.onBatch) this.opts.onBatch(bytes);
    });
  }

  _now(timeStamp = performance.now()) {
    if (this._clock0 === null) {
      // continue after what is already drawn (e.g. after a reload), with a pause
      const after = this.drawing.isEmpty() ? 0 : this.drawing.lastT + 500;
      this._clock0 = timeStamp - after;
    }
    return Math.max(0, Math.round(timeStamp - this._clock0));
  }

  _sample(e, inside) {
    const r = this._rect;
    let x = Math.round(((e.clientX - r.left) * CANVAS_SIZE) / r.width);
    let y = Math.round(((e.clientY - r.top) * CANVAS_SIZE) / r.height);
    const lo = inside ? 0 : -MARGIN;
    const hi = inside ? CANVAS_SIZE - 1 : CANVAS_SIZE + MARGIN - 1;
    x = Math.min(Math.max(x, lo), hi);
    y = Math.min(Math.max(y, lo), hi);
    const p = this._pen ? Math.round(Math.min(Math.max(e.pressure, 0), 1) * MAX_PRESSURE) : null;
    return [x, y, this._now(e.timeStamp), p];
  }

  _down(e) {
    if (!this.editable || this._replay) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (e.pointerType === "pen") this._penAt = e.timeStamp;
    if (this._pointer !== null) {
      // one pointer per stroke; but a pen landing after the palm wins
      if (e.pointerType !== "pen" || this._pointerType !== "touch") return;
      this._cancelLocal();
    }
    if (e.pointerType === "touch" && e.timeStamp - this._penAt < PALM_MS) return;
    let tool = this.tool;
    if (e.pointerType === "pen" && e.buttons & 32 && this.tools.has("eraser")) tool = "eraser";
    if (!this.tools.has(tool)) return;
    if (this.drawing.strokesBegun >= MAX_STROKES_PER_DRAWING) return;
    e.preventDefault();
    try {
      this.root.setPointerCapture(e.pointerId);
    } catch {
      // synthetic events have no capturable pointer; capture is a nicety
    }
    this._pointer = e.pointerId;
    this._pointerType = e.pointerType;
    this._pen = e.pointerType === "pen";
    this._rect = this.root.getBoundingClientRect();
    this._flushedBefore = this.sent.batches;
    const [x, y, t, p] = this._sample(e, true);
    const width = tool === "eraser" ? this.opts.eraserWidth : this.opts.width;
    this.recorder.begin(tool, width, x, y, t, p);
    this._changed();
  }

  _move(e) {
    if (e.pointerId !== this._pointer) {
      if (e.pointerType === "pen") this._penAt = e.timeStamp;
      return;
    }
    e.preventDefault();
    if (this._pen) this._penAt = e.timeStamp;
    const events = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
    for (const ev of events.length ? events : [e]) {
      const [x, y, t, p] = this._sample(ev, false);
      this.recorder.point(x, y, t, p);
    }
    this._schedule();
  }

  _up(e) {
    if (e.pointerId !== this._pointer) return;
    if (e.type === "pointerup") {
      const [x, y, t, p] = this._sample(e, false);
      this.recorder.point(x, y, t, p);
    }
    this._endLocal(true);
    this._changed();
  }

  _endLocal(send) {
    if (this._pointer === null) return;
    const id = this._pointer;
    this._pointer = null;
    if (send) this.recorder.end();
    try {
      if (this.root.hasPointerCapture(id)) this.root.releasePointerCapture(id);
    } catch {
      // the pointer is gone already
    }
  }

  // The palm touched first: take its stroke back (unsent if possible).
  _cancelLocal() {
    const sentDuring = this.sent.batches > this._flushedBefore;
    this._endLocal(sentDuring);
    if (!sentDuring) this.recorder.discard();
    else if (this.tools.has("undo")) this.recorder.undo(this._now());
    this._changed();
  }

  // --- drawing ---------------------------------------------------------------

  _layer() {
    const c = document.createElement("canvas");
    Object.assign(c.style, {
      position: "absolute",
      inset: "0",
      width: "100%",
      height: "100%",
      pointerEvents: "none",
    });
    this.root.appendChild(c);
    return c;
  }

  // A window moved to a screen of another density keeps its CSS size: no
  // resize is observed, so listen for the density itself.
  _watchDensity() {
    if (!window.matchMedia) return;
    this._densityQuery = window.matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
    this._densityChanged = () => {
      this._densityQuery.removeEventListener("change", this._densityChanged);
      this._watchDensity();
      this._schedule();
    };
    this._densityQuery.addEventListener("change", this._densityChanged);
  }

  _changed() {
    this._schedule();
    if (this.opts.onChange) this.opts.onChange(this);
  }

  _schedule() {
    if (!this._raf) this._raf = requestAnimationFrame(() => this._frame());
  }

  _fitSize() {
    const css = this.root.clientWidth;
    const dpr = Math.min(window.devicePixelRatio || 1, this.opts.maxDpr);
    const px = Math.round(css * dpr);
    if (px === this._px) return px > 0;
    this._px = px;
    for (const c of [this.base, this.live]) c.width = c.height = px;
    this._scale = px / CANVAS_SIZE;
    this._snap = null;
    this._full = true;
    return px > 0;
  }

  _frame() {
    this._raf = 0;
    if (!this._fitSize()) return;
    const d = this.drawing;
    const vis = d.visible();
    const ctx = this.baseCtx;
    const colour = this.opts.colour;
    if (this._full || d.generation !== this._gen || this._done > vis.length) {
      this._repaint(vis);
    }
    ctx.setTransform(this._scale, 0, 0, this._scale, 0, 0);
    this.liveCtx.setTransform(this._scale, 0, 0, this._scale, 0, 0);
    while (this._done < vis.length) {
      const s = vis[this._done];
      if (s.tool === "eraser") {
        // erasing shows at once on the committed ink
        this._partial = paint(ctx, s, this._partial, colour);
        if (!s.ended) break;
      } else if (!s.ended) {
        // The live stroke is drawn again whole on its own layer each frame:
        // painted piece by piece, the anti-aliased edges where two paints meet
        // were covered twice, a faint seam or blob at every batch along a line.
        // Whole, it looks exactly as it will once committed (one paint call).
        if (this._liveStroke !== s || this._livePieces !== pieceCount(s)) {
          this._clearLive();
          this._liveStroke = s;
          this._livePieces = paint(this.liveCtx, s, 0, colour);
        }
        break;
      } else {
        paint(ctx, s, 0, colour);
        if (this._liveStroke === s) this._clearLive();
      }
      this._done += 1;
      this._partial = 0;
    }
    if (this._liveStroke && this._liveStroke !== vis[this._done]) this._clearLive();
    this._advanceSnapshot(vis);
  }

  _clearLive() {
    this.liveCtx.setTransform(1, 0, 0, 1, 0, 0);
    this.liveCtx.clearRect(0, 0, this._px, this._px);
    this.liveCtx.setTransform(this._scale, 0, 0, this._scale, 0, 0);
    this._liveStroke = null;
    this._livePieces = 0;
  }

  // Everything again: from the snapshot when it still holds, so an undo
  // redraws only the last few strokes however long the drawing is.
  _repaint(vis) {
    const ctx = this.baseCtx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalCompositeOperation = "source-over";
    ctx.clearRect(0, 0, this._px, this._px);
    this._done = 0;
    if (this._snapHolds(vis)) {
      ctx.drawImage(this._snap.canvas, 0, 0);
      this._done = this._snap.count;
    }
    this._partial = 0;
    this._clearLive();
    this._full = false;
    this._gen = this.drawing.generation;
  }

  // The snapshot holds the first `count` visible strokes (strokes are unique
  // objects in order, so checking the first and last of them is enough).
  _snapHolds(vis) {
    const snap = this._snap;
    return (
      !!snap && snap.count > 0 && snap.count <= vis.length && vis[0] === snap.first && vis[snap.count - 1] === snap.last
    );
  }

  _advanceSnapshot(vis) {
    const have = this._snapHolds(vis) ? this._snap.count : 0;
    const upto = Math.min(vis.length - SNAP_KEEP, this._done);
    if (upto - have < SNAP_KEEP) return;
    if (have === 0) {
      const canvas = this._snap?.canvas ?? document.createElement("canvas");
      canvas.width = canvas.height = this._px;
      canvas.getContext("2d").clearRect(0, 0, this._px, this._px);
      this._snap = { canvas, count: 0, first: vis[0], last: null };
    }
    const ctx = this._snap.canvas.getContext("2d");
    ctx.setTransform(this._scale, 0, 0, this._scale, 0, 0);
    for (let i = this._snap.count; i < upto; i++) paint(ctx, vis[i], 0, this.opts.colour);
    this._snap.count = upto;
    this._snap.last = vis[upto - 1];
  }
}

// Someone else's drawing: read-only, and lighter (at most 2x pixel density),
// so that six live canvases stay smooth on a phone.
export class InkViewer extends InkSurface {
  constructor(container, options = {}) {
    super(container, { maxDpr: 2, ...options, editable: false, tools: [], onBatch: null });
  }

  setEditable() {
    super.setEditable(false);
  }
}
