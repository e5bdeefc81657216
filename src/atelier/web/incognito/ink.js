// The round's canvases: my own (editable while the server allows it) and
// read-only views of any drawing, all fed from one log of batches per seat,
// so a view opened late (the vote, the reveal) replays what came before.
// Incognito only ever receives others' batches once they are turned over.

let surfaces = null;
const loading = import("../ink/surface.js")
  .then((module) => {
    surfaces = module;
  })
  .catch((err) => {
    console.error("ink: surface unavailable", err);
  });

export class RoundInk {
  constructor({ sendInk, colour }) {
    this.sendInk = sendInk;
    this.colour = colour; // (seat) => CSS colour
    this.key = null;
    this.logs = new Map(); // seat -> [Uint8Array]
    this.views = new Map(); // seat -> Set of InkViewer
    this.own = null;
    this.ownSeat = null;
    this.mayDraw = false;
    this.tools = [];
    this.tool = "pen";
  }

  log(seat) {
    if (!this.logs.has(seat)) this.logs.set(seat, []);
    return this.logs.get(seat);
  }

  // Every surface of this seat, mine included.
  *surfacesOf(seat) {
    yield* this.views.get(seat) || [];
    if (seat === this.ownSeat && this.own) yield this.own;
  }

  setKey(key) {
    if (key === this.key) return;
    this.key = key;
    this.logs.clear();
    for (const set of this.views.values()) for (const s of set) s.reset();
    this.own?.reset();
  }

  // ink_sync: those seats start over; their batches follow at once.
  sync(key, seats) {
    this.setKey(key);
    for (const seat of seats) {
      this.logs.set(seat, []);
      for (const s of this.surfacesOf(seat)) s.reset();
    }
  }

  receive(seat, bytes) {
    const copy = new Uint8Array(bytes);
    this.log(seat).push(copy);
    for (const s of this.surfacesOf(seat)) s.applyRemote(copy);
  }

  // My batches: to the server, and into the log for my other views.
  emitted(bytes) {
    if (this.ownSeat === null) return;
    this.log(this.ownSeat).push(bytes);
    for (const s of this.views.get(this.ownSeat) || []) s.applyRemote(bytes);
    this.sendInk(bytes);
  }

  setOwn(seat, mayDraw, tools) {
    this.ownSeat = seat;
    this.mayDraw = Boolean(mayDraw);
    this.tools = tools;
    if (!tools.includes(this.tool)) this.tool = "pen";
    this.applyRights();
  }

  applyRights() {
    if (!this.own) return;
    // Keep the last tool set while locked: the server has the final say anyway.
    if (this.tools.length) this.own.setTools(this.tools);
    this.own.setTool(this.tool);
    this.own.setEditable(this.mayDraw);
  }

  async mountOwn(host) {
    await loading;
    if (!surfaces || !host.isConnected) return;
    this.own?.destroy();
    this.own = new surfaces.InkSurface(host, {
      colour: this.colour(this.ownSeat),
      editable: false,
      tools: this.tools.length ? this.tools : ["pen"],
      onBatch: (bytes) => this.emitted(bytes),
    });
    this.own.load(this.logs.get(this.ownSeat) || []);
    this.applyRights();
  }

  async mountViewer(seat, host) {
    await loading;
    if (!surfaces || !host.isConnected) return;
    const viewer = new surfaces.InkViewer(host, { colour: this.colour(seat) });
    viewer.load(this.logs.get(seat) || []);
    if (!this.views.has(seat)) this.views.set(seat, new Set());
    this.views.get(seat).add(viewer);
    host._igViewer = { seat, viewer };
  }

  // Views whose hosts a rebuilt screen threw away.
  releaseViews() {
    for (const set of this.views.values()) for (const s of set) s.destroy();
    this.views.clear();
  }

  releaseOwn() {
    this.own?.destroy();
    this.own = null;
  }

  destroy() {
    this.releaseViews();
    this.releaseOwn();
  }

  setTool(tool) {
    this.tool = tool;
    this.own?.setTool(tool);
  }

  undo() {
    this.own?.undo();
  }

  clear() {
    this.own?.clear();
  }
}
