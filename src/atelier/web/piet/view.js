// The server's Piet view (docs/piet.md) read into one plain shape, so the
// rest of the screen does not depend on how the engine spells its fields.

import { recordText } from "./moves.js";

const cellsOf = (board, n) => {
  const out = Array.from({ length: n }, () => null);
  if (Array.isArray(board)) {
    board.forEach((c, i) => {
      if (i < n) out[i] = c === "R" || c === "Y" || c === "B" ? c : null;
    });
  } else if (typeof board === "string") {
    // "RYB/YBR/BRY" or "RY..": one character per cell, "." empty.
    [...board.replace(/[\s/]/g, "")].forEach((c, i) => {
      if (i < n) out[i] = c === "R" || c === "Y" || c === "B" ? c : null;
    });
  }
  return out;
};

const pair = (value, fallback = 0) => {
  if (Array.isArray(value)) return [value[0] ?? fallback, value[1] ?? fallback];
  if (value && typeof value === "object")
    return [value["1"] ?? value[0] ?? fallback, value["2"] ?? value[1] ?? fallback];
  return [fallback, fallback];
};

// Seats are 0/1 on the wire; records and people say 1/2.
const seatOf = (value) => {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isInteger(n) ? n : null;
};

function moveList(view) {
  const raw = view.moves ?? view.history ?? [];
  return raw.map((m) => {
    if (typeof m === "string") return { text: m, seat: null, points: null };
    return {
      text: m.move ?? m.text ?? m.notation ?? "",
      seat: seatOf(m.seat ?? m.player),
      points: m.points ?? m.score ?? null,
    };
  });
}

function resultOf(view, scores) {
  if (view.phase !== "over") return null;
  if (view.result?.draw) return { winner: null, draw: true };
  const w = view.result ? view.result.winner : view.winner;
  if (w === "draw" || w === -1) return { winner: null, draw: true };
  const seat = seatOf(w);
  if (seat !== null) return { winner: seat, draw: false };
  if (scores[0] === scores[1]) return { winner: null, draw: true };
  return { winner: scores[0] > scores[1] ? 0 : 1, draw: false };
}

export function readView(view, settings = {}) {
  const scores = pair(view.scores);
  const brushesOn = Boolean(view.brushes_on ?? settings.brushes ?? false);
  const moves = moveList(view);
  const setup = view.setup ?? settings.setup ?? "beginner";
  const canvases = Array.isArray(view.canvases) ? view.canvases : [view.canvas1, view.canvas2];
  const model = {
    phase: view.phase,
    toMove: view.phase === "over" ? null : seatOf(view.to_move),
    palette: cellsOf(view.palette, 9),
    canvases: [cellsOf(canvases[0], 16), cellsOf(canvases[1], 16)],
    scores,
    brushesOn,
    brushes: pair(view.brushes ?? view.brushes_left, 0),
    legal: (view.legal ?? view.legal_moves ?? []).map(String),
    moves,
    setup,
    finisher: seatOf(view.result?.finisher ?? view.finisher),
    hints: Boolean(view.hints),
    hinted: Array.isArray(view.hinted) ? view.hinted : [],
  };
  model.result = resultOf(view, scores);
  // a game ended early: "resignation" or "time" (the opponent won, whatever the scores)
  if (model.result && view.result?.by) model.result.by = view.result.by;
  model.clock = view.clock ?? null;
  model.record =
    typeof view.record === "string" && view.record
      ? view.record
      : recordText({ setup, brushes: brushesOn, moves: moves.map((m) => m.text) });
  return model;
}
