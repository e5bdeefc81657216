// Piet geometry and move spelling (docs/piet.md, Rulings and Records), no DOM: what the screen
// needs to compose a move, preview it and check it against the server's list
// of legal moves. The server stays the judge; this only keeps the UI honest.

export const COLOURS = ["R", "Y", "B"];
export const PALETTE_W = 3;
export const CANVAS_W = 4;
export const PER_COLOUR = 3;

export const paletteName = (i) => "abc"[i % PALETTE_W] + String(Math.floor(i / PALETTE_W) + 1);
export const canvasName = (i) => "abcd"[i % CANVAS_W] + String(Math.floor(i / CANVAS_W) + 1);

// Orthogonal connectivity of palette cells (indices in reading order).
export function connected(cells) {
  if (cells.length === 0) return false;
  const set = new Set(cells);
  const seen = new Set([cells[0]]);
  const todo = [cells[0]];
  while (todo.length) {
    const c = todo.pop();
    const r = Math.floor(c / PALETTE_W);
    const col = c % PALETTE_W;
    const next = [];
    if (col > 0) next.push(c - 1);
    if (col < PALETTE_W - 1) next.push(c + 1);
    if (r > 0) next.push(c - PALETTE_W);
    if (r < PALETTE_W - 1) next.push(c + PALETTE_W);
    for (const n of next) {
      if (set.has(n) && !seen.has(n)) {
        seen.add(n);
        todo.push(n);
      }
    }
  }
  return seen.size === set.size;
}

// The selection after tapping palette cell `cell`: toggled in or out; a tap
// that would make a disconnected or oversized group starts a new group.
export function toggleSelection(selection, cell) {
  if (selection.includes(cell)) {
    const rest = selection.filter((c) => c !== cell);
    return { selection: connected(rest) ? rest : [], restarted: false };
  }
  const grown = [...selection, cell].sort((a, b) => a - b);
  if (grown.length <= 3 && connected(grown)) return { selection: grown, restarted: false };
  return { selection: [cell], restarted: selection.length > 0 };
}

// Where the selected pieces land when the first of them (reading order) goes
// on canvas cell `target`: translation only. Off-canvas pieces get null.
export function landing(selection, target) {
  const cells = [...selection].sort((a, b) => a - b);
  const lead = cells[0];
  const tr = Math.floor(target / CANVAS_W);
  const tc = target % CANVAS_W;
  return cells.map((c) => {
    const r = tr + Math.floor(c / PALETTE_W) - Math.floor(lead / PALETTE_W);
    const col = tc + (c % PALETTE_W) - (lead % PALETTE_W);
    const inside = r >= 0 && r < CANVAS_W && col >= 0 && col < CANVAS_W;
    return { from: c, to: inside ? r * CANVAS_W + col : null };
  });
}

// Canonical spelling: palette cells in reading order, then the canvas cell of the first.
export function paintText(selection, target) {
  const cells = [...selection].sort((a, b) => a - b);
  return cells.map(paletteName).join("") + ">" + canvasName(target);
}

export const brushText = (cell, colour) => ` !${canvasName(cell)}=${colour}`;
export const fillText = (colour, cell) => `${colour}@${paletteName(cell)}`;

// The palette cells of a painting move text ("a1b1>c3 ..." -> [0, 1]).
export function moveCells(text) {
  const head = String(text).split(">")[0];
  const out = [];
  for (let i = 0; i + 1 < head.length; i += 2) {
    const col = "abc".indexOf(head[i]);
    const row = Number(head[i + 1]) - 1;
    if (col >= 0 && row >= 0 && row < 3) out.push(row * PALETTE_W + col);
  }
  return out;
}

// Palette cells that take part in at least one legal painting move.
export function usableCells(legal) {
  const cells = new Set();
  for (const move of legal) if (move.includes(">")) for (const c of moveCells(move)) cells.add(c);
  return cells;
}

// Whether some legal move takes exactly `selection` (anywhere on the canvas).
export function selectionFits(legal, selection) {
  if (selection.length === 0) return false;
  const head =
    [...selection]
      .sort((a, b) => a - b)
      .map(paletteName)
      .join("") + ">";
  return legal.some((m) => m.startsWith(head));
}

export function colourCounts(palette) {
  const counts = { R: 0, Y: 0, B: 0 };
  for (const c of palette) if (c) counts[c] += 1;
  return counts;
}

// A brush may follow a painting move unless that move fills the painter's
// canvas (the game ends at once): the landing cells plus the painted ones.
export function fillsCanvas(canvas, landed) {
  const filled = canvas.filter(Boolean).length;
  return filled + landed.length >= CANVAS_W * CANVAS_W;
}

// The record as docs/piet.md (Records) writes it: headers, then one move per line.
export function recordText({ setup, brushes, moves }) {
  const lines = [`setup: ${setup || "beginner"}`, `brushes: ${brushes ? "on" : "off"}`];
  return lines.concat(moves).join("\n") + "\n";
}

// What a painting move scores on `canvas` (colours or null, after the move)
// for its new cells (docs/piet.md, Chains): every distinct run of 2 or more of
// one colour, across or down, that holds a new cell scores its length once;
// a new cell in no such run scores 1. Also the cells that scored, to show.
export function chainsThrough(canvas, added) {
  const runs = new Map(); // "h:start" or "v:start" -> cells
  const lonely = [];
  for (const cell of added) {
    const colour = canvas[cell];
    let inChain = false;
    for (const [dr, dc, tag] of [
      [0, 1, "h"],
      [1, 0, "v"],
    ]) {
      let r = Math.floor(cell / CANVAS_W);
      let c = cell % CANVAS_W;
      while (r - dr >= 0 && c - dc >= 0 && canvas[(r - dr) * CANVAS_W + (c - dc)] === colour) {
        r -= dr;
        c -= dc;
      }
      const cells = [];
      while (r < CANVAS_W && c < CANVAS_W && canvas[r * CANVAS_W + c] === colour) {
        cells.push(r * CANVAS_W + c);
        r += dr;
        c += dc;
      }
      if (cells.length >= 2) {
        runs.set(`${tag}:${cells[0]}`, cells);
        inChain = true;
      }
    }
    if (!inChain) lonely.push(cell);
  }
  const chains = [...runs.values()];
  const points = chains.reduce((sum, cells) => sum + cells.length, 0) + lonely.length;
  return { points, cells: [...new Set([...chains.flat(), ...lonely])] };
}

// A painting move's new cells and score on `canvas` with pieces from `palette`.
export function paintScore(canvas, palette, move) {
  const cells = moveCells(move);
  const target = move.split(">")[1].trim().slice(0, 2);
  const anchor = (Number(target[1]) - 1) * CANVAS_W + "abcd".indexOf(target[0]);
  const after = [...canvas];
  const added = [];
  for (const { from, to } of landing(cells, anchor)) {
    if (to === null) continue;
    after[to] = palette[from];
    added.push(to);
  }
  return { ...chainsThrough(after, added), pieces: cells.length, added };
}
