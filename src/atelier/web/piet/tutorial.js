// The guided first game: a real game against the easy computer, with a bar
// above the boards that says one short sentence at a time and rings the cells
// it is about. Each step ends by itself when the player has done what it
// says, or with "Next". It can be left at any step; finishing is remembered
// on this device.

import { h, replace, toast } from "../dom.js";
import { errorText, lang, t } from "../i18n.js";
import { storeHostKey } from "../net.js";
import { pendingPaint } from "./choice.js";
import { chainsThrough, connected, landing, moveCells, paintScore, paintText } from "./moves.js";
import { openPuzzles } from "./puzzles.js";

const ROOM_KEY = (code) => `atelier.piet.tutorial.${code.toUpperCase()}`;
const DONE_KEY = "atelier.piet.tutorial.done";

export const tutorialRoom = (code) => localStorage.getItem(ROOM_KEY(code)) === "1";
export const tutorialDone = () => localStorage.getItem(DONE_KEY) === "1";

// A new room against the easy computer, marked on this device as the guided game.
export async function startTutorial(go) {
  try {
    const response = await fetch(`/api/rooms?lang=${lang()}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: "piet", settings: { opponent: "easy", computer_seat: 1 }, language: lang() }),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw data;
    storeHostKey(data.code, data.host_key);
    localStorage.setItem(ROOM_KEY(data.code), "1");
    go(`/r/${data.code}`);
  } catch (error) {
    toast(errorText(error));
  }
}

// The offer on the start page (with puzzles, drawn in its `shell`) and in Piet's lobby.
export function tutorialCard(go, shell = null) {
  const puzzles = shell
    ? h(
        "button",
        {
          class: "btn ghost",
          type: "button",
          testid: "piet-puzzles-open",
          onclick: () => openPuzzles(shell, { onBack: () => location.assign("/") }),
        },
        t("learn.puzzle.title"),
      )
    : null;
  return h(
    "section",
    { class: "card piet-tutorial-offer", testid: "piet-tutorial-offer" },
    h("h2", {}, t("learn.tutorial.title")),
    h("p", { class: "hint" }, tutorialDone() ? t("learn.tutorial.again_hint") : t("learn.tutorial.offer")),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { class: "btn", type: "button", testid: "piet-tutorial-start", onclick: () => startTutorial(go) },
        tutorialDone() ? t("learn.tutorial.again") : t("learn.tutorial.start"),
      ),
      puzzles,
    ),
  );
}

// In the lobby of the guided game's room: what to do before it begins.
export function tutorialLobbyCard() {
  return h(
    "section",
    { class: "card piet-tutorial-offer", testid: "piet-tutorial-lobby" },
    h("h2", {}, t("learn.tutorial.title")),
    h("p", {}, t("learn.tutorial.lobby")),
  );
}

// --- the steps --------------------------------------------------------------

const myTurn = (s) => s.actor !== null && s.actor === s.mySeat;
const painting = (s) => s.model.phase === "painting" && myTurn(s);
const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
const canvasIndex = (name) => (Number(name[1]) - 1) * 4 + "abcd".indexOf(name[0]);

// How each step picks the move it suggests, among the legal painting moves:
// the first takes three pieces of three colours (so that the next turn can
// always extend one of them into a chain); "chain" scores more than its
// pieces; "empty" takes as many pieces as it can, the best scoring first.
const PREFER = {
  first: (x) => [x.pieces, new Set(moveCells(x.move).map((c) => x.palette[c])).size, -x.points],
  chain: (x) => [x.points > x.pieces ? 1 : 0, x.points - x.pieces, x.pieces],
  most: (x) => [x.pieces, x.points],
};

const better = (a, b) => {
  for (let k = 0; k < a.length; k += 1) if (a[k] !== b[k]) return a[k] > b[k];
  return false;
};

// The suggested move for the player's canvas: one that holds the pieces
// already picked when there is one, else the best fresh one.
export function suggestion(model, seat, sel, prefer) {
  const paints = model.legal.filter((x) => x.includes(">") && !x.includes("!"));
  const holding = sel.length ? paints.filter((x) => sel.every((c) => moveCells(x).includes(c))) : [];
  let best = null;
  let key = null;
  for (const move of holding.length ? holding : paints) {
    const score = paintScore(model.canvases[seat], model.palette, move);
    const k = PREFER[prefer]({ ...score, move, palette: model.palette });
    if (best === null || better(k, key)) {
      best = move;
      key = k;
    }
  }
  return best;
}

// The ringed palette pieces still to tap: the suggestion's, each one that can
// join the pieces picked so far (a piece that cannot would start a new pick).
function piecesToTap(s, prefer) {
  if (!painting(s)) return [];
  const move = suggestion(s.model, s.mySeat, s.sel, prefer);
  if (!move) return [];
  return moveCells(move).filter((c) => !s.sel.includes(c) && connected([...s.sel, c]));
}

// The ringed canvas cells: only where a tap makes a legal move. "any" rings
// every cell that takes the pieces picked; otherwise the suggestion's cell,
// once its pieces are all picked.
function cellsToTap(s, prefer) {
  if (!painting(s) || !s.sel.length || pendingPaint(s)) return [];
  if (prefer === "any") {
    return [...Array(16).keys()].filter((i) => s.model.legal.includes(paintText(s.sel, i)));
  }
  const move = suggestion(s.model, s.mySeat, s.sel, prefer);
  if (!move || !sameSet(moveCells(move), s.sel)) return [];
  return [canvasIndex(move.split(">")[1].slice(0, 2))];
}

function lastPaint(s, seat) {
  const moves = s.model.moves;
  for (let k = moves.length - 1; k >= 0; k -= 1) {
    if (moves[k].seat === seat && moves[k].text.includes(">")) return moves[k];
  }
  return null;
}

// The cells a seat's last painting move painted.
function paintedCells(s, seat) {
  const move = lastPaint(s, seat);
  if (!move) return [];
  const text = move.text.split(" ")[0];
  const anchor = canvasIndex(text.split(">")[1].slice(0, 2));
  return landing(moveCells(text), anchor)
    .map((x) => x.to)
    .filter((x) => x !== null);
}

// The cells that move scored with, on its canvas as it is now.
const scoredCells = (s, seat) => chainsThrough(s.model.canvases[seat], paintedCells(s, seat)).cells;

const paintedSince = (s, c) => s.model.moves.slice(c.moves).some((mv) => mv.seat === c.seat && mv.text.includes(">"));

// Each step: its sentence, what it rings (palette, the player's canvas, the
// computer's), what the page keeps in view, and when it is done (else "Next").
const STEPS = [
  { key: "palette", ring: { palette: () => [0, 1, 2, 3, 4, 5, 6, 7, 8] }, show: "palette" },
  {
    key: "pick",
    ring: { palette: (s) => piecesToTap(s, "first") },
    show: "palette",
    // done when every ringed piece is picked: the suggestion is the selection
    done: (s) => s.sel.length > 0 && piecesToTap(s, "first").length === 0,
  },
  {
    key: "place",
    ring: { canvas: (s) => cellsToTap(s, "any") },
    show: "canvas",
    done: (s, c) => pendingPaint(s) !== null || s.model.moves.length > c.moves,
  },
  { key: "confirm", show: "place", done: (s, c) => s.model.moves.length > c.moves },
  { key: "computer", ring: { other: (s) => paintedCells(s, 1 - s.mySeat) }, show: "other" },
  {
    key: "chain",
    ring: { palette: (s) => piecesToTap(s, "chain"), canvas: (s) => cellsToTap(s, "chain") },
    show: "move",
    done: paintedSince,
  },
  { key: "points", ring: { canvas: (s) => scoredCells(s, s.mySeat) }, show: "canvas" },
  {
    key: "empty",
    ring: { palette: (s) => piecesToTap(s, "most"), canvas: (s) => cellsToTap(s, "most") },
    show: "move",
    done: (s) => s.model.phase !== "painting",
  },
  {
    key: "fill",
    ring: {
      palette: (s) =>
        s.model.phase === "filling" && myTurn(s)
          ? s.model.palette.map((c, i) => (c ? -1 : i)).filter((i) => i >= 0)
          : [],
    },
    show: "fill",
    done: (s, c) => s.model.moves.slice(c.moves).some((mv) => mv.text.includes("@") && mv.seat === c.seat),
  },
  { key: "order" },
  { key: "masters" },
  { key: "end", last: true },
];

export const TUTORIAL_STEPS = STEPS.length;

// The element a step is about, to keep in view above the guide's sheet.
function shownPart(s, what) {
  const q = (testid) => s.root?.querySelector(`[data-testid="${testid}"]`) ?? null;
  const mine = `piet-canvas-${s.mySeat}`;
  switch (what) {
    case "palette":
      return q("piet-palette");
    case "canvas":
      return q(mine);
    case "other":
      return q(`piet-canvas-${1 - s.mySeat}`);
    case "place":
      return q("piet-place") ?? q(mine);
    case "move":
      return pendingPaint(s) ? q("piet-place") : s.sel.length ? q(mine) : q("piet-palette");
    case "fill":
      return s.fillColour ? q("piet-palette") : q("piet-actions");
    default:
      return null;
  }
}

export class Coach {
  constructor(screen) {
    this.screen = screen;
    this.index = 0;
    this.left = false;
    this.moot = false; // the step's deed was done before it was shown: it waits for "Next"
    this.mark = { moves: 0, seat: 0 }; // the game when the current step began
    this.shown = null; // what the page last scrolled into view
    this.el = h("section", { class: "piet-coach", testid: "piet-coach" });
    this.sized = new ResizeObserver(() => this.reserve());
    this.sized.observe(this.el);
  }

  get step() {
    return STEPS[this.index];
  }

  get active() {
    return !this.left && this.index < STEPS.length;
  }

  begin() {
    this.mark = { moves: this.screen.model?.moves.length ?? 0, seat: this.screen.mySeat ?? 0 };
    this.moot = Boolean(this.step?.done?.(this.screen, this.mark));
  }

  // Called on every refresh: a step whose condition came true gives way to the
  // next, one step at a time, so that every step is shown, and the counter
  // never jumps however fast the computer answers.
  follow() {
    if (!this.active || !this.screen.model) return;
    if (!this.moot && this.step.done?.(this.screen, this.mark)) {
      this.index += 1;
      if (this.active) this.begin();
    }
  }

  next() {
    if (this.step.last) {
      localStorage.setItem(DONE_KEY, "1");
      this.left = true;
      toast(t("learn.tutorial.finished"), "info");
    } else {
      this.index += 1;
      this.begin();
    }
    this.screen.refresh();
    this.el.querySelector("button")?.focus({ preventScroll: true });
  }

  leave() {
    this.left = true;
    localStorage.removeItem(ROOM_KEY(this.screen.room.code));
    this.screen.refresh();
  }

  // Which cells to ring for the current step: "palette", "canvas" (the
  // player's) or "other" (the computer's canvas).
  rings(board) {
    if (!this.active || this.moot) return [];
    const ring = this.step.ring?.[board];
    return ring ? ring(this.screen) : [];
  }

  // The page keeps room below for the sheet, and scrolls to the part the
  // step is about whenever that part changes.
  reserve() {
    const height = this.active ? this.el.offsetHeight : 0;
    document.documentElement.style.setProperty("--coach-h", `${height}px`);
    document.documentElement.style.scrollPaddingBottom = `${height}px`;
  }

  // The page is left: the room kept for the sheet goes with it.
  destroy() {
    this.sized.disconnect();
    document.documentElement.style.removeProperty("--coach-h");
    document.documentElement.style.scrollPaddingBottom = "";
  }

  keepInView() {
    const what = this.active ? this.step.show : null;
    const part = what ? shownPart(this.screen, what) : null;
    const key = part ? `${this.index}:${part.dataset.testid}` : null;
    if (!part || key === this.shown) return;
    this.shown = key;
    this.reserve();
    part.scrollIntoView({ block: "nearest", behavior: "instant" });
  }

  draw() {
    if (!this.active) {
      this.el.hidden = true;
      this.reserve();
      return;
    }
    this.el.hidden = false;
    this.el.dataset.step = this.step.key;
    this.el.dataset.index = String(this.index + 1);
    this.el.setAttribute("aria-label", t("learn.tutorial.title")); // in the language shown now
    const step = this.step;
    const next =
      step.done && !this.moot
        ? null
        : h(
            "button",
            { class: "btn primary", type: "button", testid: "piet-coach-next" },
            step.last ? t("learn.tutorial.finish") : t("learn.tutorial.next"),
          );
    if (next) next.onclick = () => this.next();
    replace(
      this.el,
      h(
        "p",
        { class: "piet-coach-count", testid: "piet-coach-count" },
        t("learn.tutorial.step", { n: this.index + 1, of: STEPS.length }),
      ),
      h(
        "p",
        { class: "piet-coach-text", testid: "piet-coach-text", role: "status", "aria-live": "polite" },
        this.sentence(),
      ),
      h(
        "div",
        { class: "actions" },
        next,
        h(
          "button",
          { class: "btn ghost", type: "button", testid: "piet-coach-leave", onclick: () => this.leave() },
          t("learn.tutorial.leave"),
        ),
      ),
    );
    // after the board is drawn (this runs before it in the same refresh)
    queueMicrotask(() => this.keepInView());
  }

  sentence() {
    const key = this.step.key;
    if (key === "points") {
      const move = lastPaint(this.screen, this.screen.mySeat);
      const n = move?.points ?? null;
      return n === null
        ? t("learn.tutorial.points")
        : `${t("learn.tutorial.scored", { n })} ${t("learn.tutorial.points")}`;
    }
    // a step whose deed was done before it showed says so
    if (this.moot && key === "empty") return t("learn.tutorial.empty_over");
    return t(`learn.tutorial.${key}`, { place: t("pietui.paint.place") });
  }
}
