// The guided first game: a real game against the easy computer, with a bar
// above the boards that says one short sentence at a time and rings the cells
// it is about. Each step ends by itself when the player has done what it
// says, or with "Next". It can be left at any step; finishing is remembered
// on this device.

import { h, replace, toast } from "../dom.js";
import { errorText, lang, t } from "../i18n.js";
import { storeHostKey } from "../net.js";
import { pendingPaint } from "./choice.js";
import { landing, moveCells } from "./moves.js";
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

// A chain to suggest: a legal painting move of the most pieces (the first such).
function suggestion(m, sel) {
  const paints = m.legal.filter((x) => x.includes(">"));
  if (sel.length) {
    const head = sel.map((c) => "abc"[c % 3] + String(Math.floor(c / 3) + 1)).join("") + ">";
    const fitting = paints.find((x) => x.startsWith(head));
    if (fitting) return fitting;
  }
  return paints.reduce((best, x) => (moveCells(x).length > moveCells(best ?? "").length ? x : best), null);
}

function landingOf(move) {
  const cells = moveCells(move);
  const target = move.split(">")[1].slice(0, 2);
  const anchor = (Number(target[1]) - 1) * 4 + "abcd".indexOf(target[0]);
  return landing(cells, anchor).map((x) => x.to);
}

const myTurn = (s) => s.actor !== null && s.actor === s.mySeat;
const painting = (s) => s.model.phase === "painting" && myTurn(s);

// Each step: its sentence, what it rings, and when it is done (else: "Next").
const STEPS = [
  { key: "palette", ring: { palette: () => [0, 1, 2, 3, 4, 5, 6, 7, 8] } },
  {
    key: "pick",
    ring: { palette: (s) => (painting(s) ? moveCells(suggestion(s.model, []) || "") : []) },
    done: (s) => s.sel.length > 0,
  },
  {
    key: "place",
    ring: { canvas: (s) => (painting(s) && s.sel.length ? landingOf(suggestion(s.model, s.sel) || "") : []) },
    done: (s, c) => pendingPaint(s) !== null || s.model.moves.length > c.moves,
  },
  { key: "confirm", done: (s, c) => s.model.moves.length > c.moves },
  { key: "points", ring: { canvas: (s) => lastPainted(s) } },
  { key: "computer", done: (s) => myTurn(s) || s.model.phase !== "painting" },
  {
    key: "empty",
    ring: {
      palette: (s) => (painting(s) && !s.sel.length ? moveCells(suggestion(s.model, []) || "") : []),
      canvas: (s) => (painting(s) && s.sel.length ? landingOf(suggestion(s.model, s.sel) || "") : []),
    },
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
    done: (s, c) => s.model.moves.slice(c.moves).some((mv) => mv.text.includes("@") && mv.seat === c.seat),
  },
  { key: "order" },
  { key: "masters" },
  { key: "end", last: true },
];

export const TUTORIAL_STEPS = STEPS.length;

function lastPainted(s) {
  const moves = s.model.moves;
  for (let k = moves.length - 1; k >= 0; k -= 1) {
    if (moves[k].seat === s.mySeat && moves[k].text.includes(">")) return landingOf(moves[k].text.split(" ")[0]);
  }
  return [];
}

export class Coach {
  constructor(screen) {
    this.screen = screen;
    this.index = 0;
    this.left = false;
    this.mark = { moves: 0, seat: 0 }; // the game when the current step began
    this.el = h("section", { class: "piet-coach", testid: "piet-coach" });
  }

  get step() {
    return STEPS[this.index];
  }

  get active() {
    return !this.left && this.index < STEPS.length;
  }

  begin() {
    this.mark = { moves: this.screen.model?.moves.length ?? 0, seat: this.screen.mySeat ?? 0 };
  }

  // Called on every refresh: a step whose condition holds gives way to the next.
  follow() {
    if (!this.active || !this.screen.model) return;
    while (this.active && this.step.done?.(this.screen, this.mark)) {
      this.index += 1;
      this.begin();
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
      this.follow();
    }
    this.screen.refresh();
    this.el.querySelector("button")?.focus();
  }

  leave() {
    this.left = true;
    localStorage.removeItem(ROOM_KEY(this.screen.room.code));
    this.screen.refresh();
  }

  // Which cells to ring for the current step.
  rings(board) {
    if (!this.active) return [];
    const ring = this.step.ring?.[board];
    return ring ? ring(this.screen) : [];
  }

  draw() {
    if (!this.active) {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    this.el.dataset.step = this.step.key;
    this.el.setAttribute("aria-label", t("learn.tutorial.title")); // in the language shown now
    const step = this.step;
    const next = step.done
      ? null
      : h(
          "button",
          { class: "btn primary", type: "button", testid: "piet-coach-next" },
          step.last ? t("learn.tutorial.finish") : t("learn.tutorial.next"),
        );
    if (next) next.onclick = () => this.next();
    replace(
      this.el,
      h("p", { class: "piet-coach-count" }, t("learn.tutorial.step", { n: this.index + 1, of: STEPS.length })),
      h(
        "p",
        { class: "piet-coach-text", testid: "piet-coach-text", role: "status", "aria-live": "polite" },
        t(`learn.tutorial.${step.key}`, { place: t("pietui.paint.place") }),
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
  }
}
