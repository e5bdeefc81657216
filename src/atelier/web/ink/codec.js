// The ink wire format, mirroring the package src/atelier/ink/codec/ (ops.py, exact.py, encode.py) exactly (the tests
// run both on the same batches). docs/ink.md describes it bit by bit.
//
// Ops are plain objects:
//   {op: "begin", tool: "pen"|"eraser", width, x, y, t, pressure: 0..63|null}
//   {op: "points", deltas: [dx, dy, dt, dp, ...], pressure: bool}
//   {op: "end"}   {op: "undo", t}   {op: "clear", t}

export const VERSION = 1;
export const CANVAS_SIZE = 4096;
export const MARGIN = CANVAS_SIZE / 2;
export const MAX_BATCH_BYTES = 16 * 1024;
export const MAX_POINTS_PER_STROKE = 5000;
export const MAX_STROKES_PER_DRAWING = 3000;
export const MAX_WIDTH = 1023;
export const MAX_PRESSURE = 63;
export const MAX_TIME_MS = 24 * 3600 * 1000;
export const TOOLS = ["pen", "eraser"];

const LOW = -MARGIN;
const HIGH = CANVAS_SIZE + MARGIN; // exclusive
const SPAN = HIGH - LOW;
const MAX_ZEROS = 32;
const T_K = 10;
const KXY_BITS = 3;

export class InkError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

// --- checks shared by both directions ---------------------------------------

// What one batch shows about its strokes; `open` is null until the batch
// itself shows whether a stroke is open (it may continue an earlier one).
class Walk {
  constructor() {
    this.open = null;
    this.x = this.y = this.t = this.p = 0;
    this.count = 0;
    this.begun = 0;
    this.points = 0;
    this.tools = new Set();
  }

  begin(op) {
    if (this.open === true) throw new InkError("ink_stroke_open");
    if (!TOOLS.includes(op.tool)) throw new InkError("ink_malformed");
    if (!(op.width >= 1 && op.width <= MAX_WIDTH)) {
      throw new InkError("ink_bad_width", { max: MAX_WIDTH });
    }
    if (!(op.x >= 0 && op.x < CANVAS_SIZE && op.y >= 0 && op.y < CANVAS_SIZE)) {
      throw new InkError("ink_out_of_bounds");
    }
    if (!(op.t >= 0 && op.t <= MAX_TIME_MS)) throw new InkError("ink_too_long");
    const p = op.pressure;
    if (p !== null && p !== undefined && !(p >= 0 && p <= MAX_PRESSURE)) {
      throw new InkError("ink_malformed");
    }
    this.open = true;
    this.x = op.x;
    this.y = op.y;
    this.t = op.t;
    this.p = p ?? 0;
    this.count = 1;
    this.begun += 1;
    this.points += 1;
    this.tools.add(op.tool);
  }

  extend(op) {
    if (this.open === false) throw new InkError("ink_no_stroke");
    const d = op.deltas;
    const n = d.length >> 2;
    if (n < 1 || d.length !== 4 * n) throw new InkError("ink_malformed");
    const known = this.open === true;
    const lo = known ? LOW : -SPAN;
    const hi = known ? HIGH : SPAN;
    const plo = known ? 0 : -MAX_PRESSURE;
    const phi = MAX_PRESSURE;
    // aggregate first, then check in the Python codec's order (ink/codec/ops.py) (same error codes)
    let x = this.x,
      y = this.y,
      t = this.t,
      p = this.p;
    let minX = x,
      maxX = x,
      minY = y,
      maxY = y,
      minP = p,
      maxP = p;
    let minDt = Infinity,
      anyDp = false;
    for (let i = 0; i < d.length; i += 4) {
      x += d[i];
      y += d[i + 1];
      t += d[i + 2];
      p += d[i + 3];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (p < minP) minP = p;
      if (p > maxP) maxP = p;
      if (d[i + 2] < minDt) minDt = d[i + 2];
      if (d[i + 3] !== 0) anyDp = true;
    }
    if (!(lo <= minX && maxX < hi && lo <= minY && maxY < hi)) {
      throw new InkError("ink_out_of_bounds");
    }
    if (minDt < 0) throw new InkError("ink_malformed");
    if (op.pressure) {
      if (!(plo <= minP && maxP <= phi)) throw new InkError("ink_malformed");
    } else if (anyDp) {
      throw new InkError("ink_malformed");
    }
    if (t > MAX_TIME_MS) throw new InkError("ink_too_long");
    this.count += n;
    if (this.count > MAX_POINTS_PER_STROKE) {
      throw new InkError("ink_too_many_points", { max: MAX_POINTS_PER_STROKE });
    }
    this.x = x;
    this.y = y;
    this.t = t;
    if (op.pressure) this.p = p;
    this.points += n;
  }

  close() {
    if (this.open === false) throw new InkError("ink_no_stroke");
    this.open = false;
  }

  timed(t, tool) {
    if (this.open === true) throw new InkError("ink_stroke_open");
    if (!(t >= 0 && t <= MAX_TIME_MS)) throw new InkError("ink_too_long");
    this.open = false;
    this.tools.add(tool);
  }

  step(op) {
    switch (op.op) {
      case "points":
        return this.extend(op);
      case "begin":
        return this.begin(op);
      case "end":
        return this.close();
      case "undo":
        return this.timed(op.t, "undo");
      case "clear":
        return this.timed(op.t, "clear");
      default:
        throw new InkError("ink_malformed");
    }
  }
}

// --- decoding ---------------------------------------------------------------

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.pos = 8; // after the version byte
    this.end = bytes.length * 8;
  }

  bit() {
    const p = this.pos++;
    return (this.bytes[p >> 3] >> (7 - (p & 7))) & 1;
  }

  read(n) {
    if (this.pos + n > this.end) throw new InkError("ink_malformed");
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  eg(k) {
    let zeros = 0;
    for (;;) {
      if (this.pos >= this.end || zeros > MAX_ZEROS) throw new InkError("ink_malformed");
      if (this.bit()) break;
      zeros++;
    }
    if (this.pos + zeros + k > this.end) throw new InkError("ink_malformed");
    let q = 1;
    for (let i = 0; i < zeros; i++) q = q * 2 + this.bit();
    let low = 0;
    for (let i = 0; i < k; i++) low = low * 2 + this.bit();
    return (q - 1) * 2 ** k + low;
  }

  sg(k) {
    const v = this.eg(k);
    return v % 2 ? -(v + 1) / 2 : v / 2;
  }

  atEnd() {
    if (this.end - this.pos >= 8) return false;
    for (let p = this.pos; p < this.end; p++) {
      if ((this.bytes[p >> 3] >> (7 - (p & 7))) & 1) return false;
    }
    return true;
  }
}

export function decodeBatch(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (!bytes.length) throw new InkError("ink_empty");
  if (bytes.length > MAX_BATCH_BYTES) {
    throw new InkError("ink_too_large", { size: bytes.length, max: MAX_BATCH_BYTES });
  }
  if (bytes[0] !== VERSION) throw new InkError("ink_version", { version: bytes[0] });
  const r = new Reader(bytes);
  const walk = new Walk();
  const ops = [];
  if (r.atEnd()) throw new InkError("ink_empty");
  while (!r.atEnd()) {
    const op = readOp(r);
    walk.step(op);
    ops.push(op);
  }
  return { ops, strokesBegun: walk.begun, points: walk.points, tools: walk.tools };
}

function readOp(r) {
  if (!r.read(1)) return readPoints(r);
  if (!r.read(1)) {
    const tool = TOOLS[r.read(1)];
    const hasP = r.read(1);
    const width = r.read(10);
    const x = r.read(12);
    const y = r.read(12);
    const t = r.eg(T_K);
    const pressure = hasP ? r.read(6) : null;
    return { op: "begin", tool, width, x, y, t, pressure };
  }
  if (!r.read(1)) return { op: "end" };
  if (!r.read(1)) return { op: "undo", t: r.eg(T_K) };
  return { op: "clear", t: r.eg(T_K) };
}

function readPoints(r) {
  const hasP = r.read(1);
  const n = r.eg(0) + 1;
  // every point takes at least three bits: a larger count is a lie
  if (3 * n > r.end - r.pos) throw new InkError("ink_malformed");
  const k = r.read(KXY_BITS);
  const deltas = new Array(4 * n);
  let dx = 0,
    dy = 0,
    dt = 0;
  for (let i = 0; i < n; i++) {
    dx += r.sg(k);
    dy += r.sg(k);
    dt += r.sg(0);
    deltas[4 * i] = dx;
    deltas[4 * i + 1] = dy;
    deltas[4 * i + 2] = dt;
    deltas[4 * i + 3] = hasP ? r.sg(0) : 0;
  }
  return { op: "points", deltas, pressure: !!hasP };
}

// --- encoding ---------------------------------------------------------------

class Writer {
  constructor() {
    this.bytes = new Uint8Array(64);
    this.pos = 0;
  }

  bit(b) {
    if (this.pos >> 3 >= this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    if (b) this.bytes[this.pos >> 3] |= 0x80 >> (this.pos & 7);
    this.pos++;
  }

  write(v, n) {
    for (let i = n - 1; i >= 0; i--) this.bit(Math.floor(v / 2 ** i) % 2);
  }

  eg(v, k) {
    const q = Math.floor(v / 2 ** k) + 1;
    const len = bitLength(q);
    this.write(0, len - 1);
    this.write(q, len);
    this.write(v % 2 ** k, k);
  }

  finish() {
    return this.bytes.slice(0, (this.pos + 7) >> 3);
  }
}

function bitLength(v) {
  let n = 0;
  while (v >= 1) {
    v = Math.floor(v / 2);
    n++;
  }
  return n;
}

const zz = (v) => (v >= 0 ? 2 * v : -2 * v - 1);
const egLength = (v, k) => 2 * bitLength(Math.floor(v / 2 ** k) + 1) - 1 + k;

// The Exp-Golomb order (0..7) that codes these zigzag values shortest.
export function bestK(values) {
  let best = 0,
    bestBits = -1;
  for (let k = 0; k < 1 << KXY_BITS; k++) {
    let bits = 0;
    for (const v of values) bits += egLength(v, k);
    if (bestBits < 0 || bits < bestBits) {
      best = k;
      bestBits = bits;
    }
  }
  return best;
}

function writeOp(w, op) {
  switch (op.op) {
    case "points":
      return writePoints(w, op);
    case "begin": {
      const hasP = op.pressure !== null && op.pressure !== undefined;
      w.write(0b10, 2);
      w.write(op.tool === "eraser" ? 1 : 0, 1);
      w.write(hasP ? 1 : 0, 1);
      w.write(op.width, 10);
      w.write(op.x, 12);
      w.write(op.y, 12);
      w.eg(op.t, T_K);
      if (hasP) w.write(op.pressure, 6);
      return;
    }
    case "end":
      return w.write(0b110, 3);
    case "undo":
      w.write(0b1110, 4);
      return w.eg(op.t, T_K);
    case "clear":
      w.write(0b1111, 4);
      return w.eg(op.t, T_K);
  }
}

function writePoints(w, op) {
  const d = op.deltas;
  const n = d.length >> 2;
  const xy = new Array(2 * n);
  let px = 0,
    py = 0;
  for (let i = 0; i < n; i++) {
    xy[2 * i] = zz(d[4 * i] - px);
    xy[2 * i + 1] = zz(d[4 * i + 1] - py);
    px = d[4 * i];
    py = d[4 * i + 1];
  }
  const k = bestK(xy);
  w.write(0, 1);
  w.write(op.pressure ? 1 : 0, 1);
  w.eg(n - 1, 0);
  w.write(k, KXY_BITS);
  let pt = 0;
  for (let i = 0; i < n; i++) {
    w.eg(xy[2 * i], k);
    w.eg(xy[2 * i + 1], k);
    w.eg(zz(d[4 * i + 2] - pt), 0);
    pt = d[4 * i + 2];
    if (op.pressure) w.eg(zz(d[4 * i + 3]), 0);
  }
}

// The bytes of one batch; InkError if decodeBatch would refuse it.
export function encodeBatch(ops) {
  if (!ops.length) throw new InkError("ink_empty");
  const walk = new Walk();
  const w = new Writer();
  w.write(VERSION, 8);
  for (const op of ops) {
    walk.step(op);
    writeOp(w, op);
  }
  const bytes = w.finish();
  if (bytes.length > MAX_BATCH_BYTES) {
    throw new InkError("ink_too_large", { size: bytes.length, max: MAX_BATCH_BYTES });
  }
  return bytes;
}

// A relayed frame is the drawer's seat, then the batch unchanged.
export function splitFrame(frame) {
  const bytes = frame instanceof Uint8Array ? frame : new Uint8Array(frame);
  return { seat: bytes[0], batch: bytes.subarray(1) };
}
