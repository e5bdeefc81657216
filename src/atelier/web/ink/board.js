// Every canvas of the current drawing key: one InkSurface per place a
// drawing is shown (tile, enlarged view, vote, reveal), all fed from one log
// of batches per seat, so a view opened late replays what came before.
// Both drawing games use it; Incognito simply receives others' batches only
// once the drawings are turned over.

import { InkSurface, InkViewer } from "./surface.js";

export class InkBoard {
  constructor({ sendInk, colour }) {
    this.sendInk = sendInk;
    this.colour = colour;
    this.key = null;
    this.logs = new Map(); // seat -> [Uint8Array]
    this.views = new Map(); // seat -> Set of {surface, host}
    this.own = null; // {surface, host}
    this.ownSeat = null;
    this.mayDraw = false;
    this.tools = [];
    this.tool = "pen";
  }

  destroy() {
    this.releaseViews();
    this.releaseOwn();
  }

  releaseOwn() {
    this.own?.surface.destroy();
    this.own = null;
  }

  // Views whose hosts left the page (a screen rebuilt) are let go.
  releaseViews() {
    for (const set of this.views.values()) for (const v of set) v.surface.destroy();
    this.views.clear();
  }

  // A new drawing key starts every canvas afresh.
  setKey(key) {
    if (key === this.key) return;
    this.key = key;
    this.logs.clear();
    for (const set of this.views.values()) for (const v of set) v.surface.reset();
    this.own?.surface.reset();
  }

  sync(key, seats) {
    this.setKey(key);
    for (const seat of seats) {
      this.logs.set(seat, []);
      for (const v of this.views.get(seat) || []) v.surface?.reset();
      if (seat === this.ownSeat) this.own?.surface?.reset();
    }
  }

  receive(seat, bytes) {
    const copy = bytes.slice(); // our own copy: views opened later replay the log
    if (!this.logs.has(seat)) this.logs.set(seat, []);
    this.logs.get(seat).push(copy);
    for (const v of this.views.get(seat) || []) v.surface.applyRemote(copy);
    if (seat === this.ownSeat) this.own?.surface.applyRemote(copy);
  }

  // Our own batches: to the server, and into the log so other views of our
  // drawing (enlarged, reveal) show them too.
  emitted(bytes) {
    if (this.ownSeat === null) return;
    if (!this.logs.has(this.ownSeat)) this.logs.set(this.ownSeat, []);
    this.logs.get(this.ownSeat).push(bytes);
    for (const v of this.views.get(this.ownSeat) || []) v.surface.applyRemote(bytes);
    this.sendInk(bytes);
  }

  setOwn(seat, mayDraw, tools) {
    this.ownSeat = seat;
    this.mayDraw = Boolean(mayDraw);
    this.tools = tools;
    if (!tools.includes(this.tool)) this.tool = "pen";
    this.applyOwnTools();
  }

  applyOwnTools() {
    const surface = this.own?.surface;
    if (!surface) return;
    surface.setTools(this.tools);
    surface.setTool(this.tool);
    surface.setEditable(this.mayDraw);
  }

  mountOwn(host) {
    this.own?.surface.destroy();
    const surface = new InkSurface(host, {
      colour: this.colour(this.ownSeat),
      editable: false,
      tools: this.tools,
      onBatch: (bytes) => this.emitted(bytes),
    });
    this.own = { surface, host };
    surface.load(this.logs.get(this.ownSeat) || []);
    this.applyOwnTools();
  }

  mountTile(seat, host) {
    this.mountViewer(seat, host);
  }

  mountViewer(seat, host) {
    const surface = new InkViewer(host, { colour: this.colour(seat) });
    surface.load(this.logs.get(seat) || []);
    if (!this.views.has(seat)) this.views.set(seat, new Set());
    const entry = { surface, host };
    host._inkEntry = { seat, entry };
    this.views.get(seat).add(entry);
  }

  // The drawing as a PNG blob, from the local copy of its batches.
  png(seat, size = 1024) {
    const host = document.createElement("div");
    host.style.cssText = "position:absolute;left:-9999px;width:64px";
    document.body.appendChild(host);
    const surface = new InkViewer(host, { colour: this.colour(seat) });
    surface.load(this.logs.get(seat) || []);
    return surface.toPNG(size).finally(() => {
      surface.destroy();
      host.remove();
    });
  }

  releaseViewer(host) {
    const found = host?._inkEntry;
    if (!found) return;
    found.entry.surface.destroy();
    this.views.get(found.seat)?.delete(found.entry);
    host._inkEntry = null;
  }

  setTool(tool) {
    this.tool = tool;
    this.applyOwnTools();
  }

  undo() {
    this.own?.surface.undo();
  }

  clear() {
    this.own?.surface.clear();
  }
}
