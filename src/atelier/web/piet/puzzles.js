// Puzzles: positions from engine games where exactly one move wins (proved
// by the solver). The board is the game's own (cells.js, choice.js,
// actions.js) on a position that is not a room's; a tried move goes to the
// engine, which says whether it wins and what it is worth.

import { h, replace } from "../dom.js";
import { errorText, t } from "../i18n.js";
import { points } from "./advice.js";
import { drawActions } from "./actions.js";
import { boardGrids, boardsLayout, drawCanvases, drawPalette } from "./cells.js";
import { emptyChoice } from "./choice.js";
import { hintMarks, moveFootprint } from "./hints.js";

const SOLVED_KEY = "atelier.piet.puzzles.solved";
const cellsOf = (text) => [...String(text || "")].map((c) => (c === "." ? null : c));

async function ask(kind, body) {
  // with no network the list still opens (sw.js keeps it); a tried move needs the engine
  const response = await fetch(`/api/games/piet/advice/${kind}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).catch(() => Promise.reject({ code: "offline" }));
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw data;
  return data;
}

export const solvedPuzzles = () => new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]"));

function markSolved(id) {
  const solved = solvedPuzzles();
  solved.add(id);
  localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
}

// One puzzle on the board: the shape the board's drawing code reads.
class PuzzleBoard {
  constructor(puzzle, onSolved) {
    this.puzzle = puzzle;
    this.onSolved = onSolved;
    this.model = {
      phase: puzzle.position.phase,
      toMove: puzzle.to_move,
      palette: cellsOf(puzzle.position.palette),
      canvases: puzzle.position.canvases.map(cellsOf),
      scores: puzzle.position.scores,
      legal: puzzle.legal,
      moves: [],
      brushesOn: puzzle.brushes_on,
      brushes: puzzle.brushes,
    };
    this.state = { you: { seat: puzzle.to_move } };
    this.second = null;
    this.sending = false;
    this.solved = false;
    this.feedback = null;
    this.hint = null; // the answer, once asked for: drawn like a hint
    this.marks = hintMarks(this);
    this.extraActions = () => this.feedback;
    this.resetChoice();
    this.build();
  }

  get mySeat() {
    return this.puzzle.to_move;
  }

  get actor() {
    return this.solved ? null : this.puzzle.to_move;
  }

  player() {
    return null;
  }

  name(seat) {
    return t("pietui.player_n", { n: seat + 1 });
  }

  resetChoice() {
    Object.assign(this, emptyChoice());
  }

  build() {
    const parts = {};
    this.parts = parts;
    Object.assign(parts, boardGrids(this));
    parts.captions = [0, 1].map(() => h("div", { class: "piet-caption" }));
    parts.actions = h("section", { class: "piet-actions", testid: "piet-actions" });
    const m = this.model;
    this.el = h(
      "section",
      { class: "piet-puzzle", testid: "piet-puzzle", dataset: { id: this.puzzle.id } },
      h(
        "p",
        { class: "piet-puzzle-task", testid: "piet-puzzle-task" },
        t("learn.puzzle.task", {
          name: this.name(m.toMove),
          score: `${m.scores[0]} : ${m.scores[1]}`,
          n: this.puzzle.moves_left,
        }),
      ),
      boardsLayout(parts, "div"),
      parts.actions,
    );
    this.refresh();
  }

  refresh() {
    drawPalette(this);
    drawCanvases(this);
    if (this.solved) replace(this.parts.actions, this.feedback);
    else drawActions(this);
  }

  drawCanvases() {
    drawCanvases(this);
  }

  async send(text) {
    this.sending = true;
    this.refresh();
    try {
      const result = await ask("try", { record: this.puzzle.record, move: text });
      this.resetChoice();
      if (result.correct) {
        this.solved = true;
        markSolved(this.puzzle.id);
        this.feedback = h(
          "p",
          { class: "piet-puzzle-result good", role: "status", testid: "piet-puzzle-solved" },
          t("learn.puzzle.solved", { move: result.move, points: points(result.margin) }),
        );
        this.onSolved?.();
      } else {
        this.feedback = h(
          "div",
          { class: "piet-puzzle-result", role: "status", testid: "piet-puzzle-wrong" },
          h("p", {}, t("learn.puzzle.wrong", { move: result.move, points: points(result.margin) })),
          h(
            "button",
            { class: "btn ghost", type: "button", testid: "piet-puzzle-answer", onclick: () => this.reveal() },
            t("learn.puzzle.show"),
          ),
        );
      }
    } catch (error) {
      this.feedback = h("p", { class: "piet-puzzle-result", role: "alert" }, errorText(error));
    } finally {
      this.sending = false;
      this.refresh();
    }
  }

  async reveal() {
    try {
      const { answer, margin } = await ask("answer", { record: this.puzzle.record });
      this.hint = { ply: 0, seat: this.puzzle.to_move, footprint: moveFootprint(answer) };
      this.feedback = h(
        "p",
        { class: "piet-puzzle-result", role: "status", testid: "piet-puzzle-shown" },
        t("learn.puzzle.answer", { move: answer, points: points(margin) }),
      );
    } catch (error) {
      this.feedback = h("p", { class: "piet-puzzle-result", role: "alert" }, errorText(error));
    }
    this.refresh();
  }
}

// The puzzles page: a list to choose from and the chosen puzzle's board.
export async function openPuzzles(shell, { onBack }) {
  const list = h("ol", { class: "piet-puzzle-list", testid: "piet-puzzle-list" });
  const here = h("div", { class: "piet-puzzle-here" });
  const status = h("p", { class: "hint", role: "status" }, t("learn.puzzle.loading"));
  const page = h(
    "main",
    { class: "piet-puzzles", testid: "piet-puzzles" },
    h("h1", { tabindex: -1 }, t("learn.puzzle.title")),
    h("p", {}, t("learn.puzzle.intro")),
    status,
    here,
    list,
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { class: "btn", type: "button", testid: "piet-puzzles-back", onclick: onBack },
        t("learn.review.back"),
      ),
    ),
  );
  shell(h("span", { class: "room-title" }, t("learn.puzzle.title")), page);
  page.querySelector("h1").focus();
  let puzzles;
  try {
    ({ puzzles } = await ask("puzzles", {}));
  } catch (error) {
    status.textContent = errorText(error);
    return;
  }
  status.textContent = puzzles.length ? "" : t("learn.puzzle.none");
  const drawList = () => {
    const solved = solvedPuzzles();
    replace(
      list,
      puzzles.map((p, i) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: `btn ghost ${solved.has(p.id) ? "solved" : ""}`,
              testid: `piet-puzzle-${p.id}`,
              onclick: () => show(i),
            },
            t("learn.puzzle.item", { n: i + 1, moves: p.moves_left }),
            solved.has(p.id) ? h("span", { class: "badge" }, t("learn.puzzle.done")) : null,
          ),
        ),
      ),
    );
  };
  const show = (i) => {
    const board = new PuzzleBoard(puzzles[i], drawList);
    replace(here, h("h2", {}, t("learn.puzzle.item", { n: i + 1, moves: puzzles[i].moves_left })), board.el);
    here.querySelector("h2").setAttribute("tabindex", "-1");
    here.querySelector("h2").focus();
  };
  drawList();
  page.dataset.ready = "1";
}
