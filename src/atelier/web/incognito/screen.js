// Incognito in the browser, driven entirely by the server's view
// (docs/incognito.md): hide your word while drawing, find the others' words
// at the vote, then the reveal, the scores and, at the end, the gallery.

import { colourCss, h } from "../dom.js";
import { lang, t } from "../i18n.js";
import { serverNow } from "../clock.js";
import { InkBoard } from "../board.js";
import { DrawingPhase } from "./drawing.js";
import { VotingPhase } from "./voting.js";
import { RoundReveal } from "./reveal.js";
import { FinalResults } from "./final.js";

const STYLE_ID = "incognito-css";

function ensureStyles() {
  if (document.getElementById(STYLE_ID)) return;
  const link = document.createElement("link");
  link.id = STYLE_ID;
  link.rel = "stylesheet";
  link.href = new URL("./incognito.css", import.meta.url).href;
  document.head.appendChild(link);
}

const PHASES = { drawing: DrawingPhase, voting: VotingPhase, scored: RoundReveal, over: FinalResults };

export class IncognitoScreen {
  constructor(room) {
    ensureStyles();
    this.room = room;
    this.ink = new InkBoard({
      sendInk: (bytes) => room.conn.sendInk(bytes),
      colour: (seat) => this.colour(seat),
    });
    this.root = null;
    this.built = null;
    this.phase = null;
    this.timerEl = null;
    this.ticker = null;
  }

  mounted() {
    return Boolean(this.root && this.root.isConnected);
  }

  destroy() {
    clearInterval(this.ticker);
    this.phase?.destroy?.();
    this.ink.destroy();
    document.body.classList.remove("playing", "ig-playing");
  }

  onInk(seat, bytes) {
    this.ink.receive(seat, bytes);
  }

  onInkSync(msg) {
    this.ink.sync(msg.key, msg.seats);
  }

  // --- the state, and names for it ----------------------------------------

  get view() {
    return this.state.game;
  }

  get seat() {
    const seat = this.view?.seat;
    return seat === undefined ? null : seat;
  }

  get me() {
    return this.seat === null ? null : this.view.players[this.seat];
  }

  player(seat) {
    return this.state?.room.players.find((p) => p.seat === seat) || null;
  }

  name(seat) {
    return this.player(seat)?.name ?? this.view?.players[seat]?.name ?? `#${seat + 1}`;
  }

  colour(seat) {
    return colourCss(this.player(seat)?.colour);
  }

  swatch(seat, small = true) {
    return h("span", { class: `swatch ${small ? "small" : ""}`, style: { background: this.colour(seat) } });
  }

  act(action) {
    return this.room.send({ t: "act", action });
  }

  // --- rendering ------------------------------------------------------------

  update(state) {
    this.state = state;
    const view = state.game;
    this.ink.setKey(state.drawing_key);
    this.ink.setOwn(this.seat, state.may_draw, state.ink_tools || []);
    const signature = `${view.phase}|${view.round}|${lang()}|${this.seat}`;
    if (signature !== this.built || !this.mounted()) {
      this.build(view.phase);
      this.built = signature;
    }
    this.phase?.refresh();
    this.tick();
  }

  build(phaseName) {
    clearInterval(this.ticker);
    this.phase?.destroy?.();
    this.ink.releaseViews();
    this.ink.releaseOwn();
    document.body.classList.toggle("playing", phaseName === "drawing");
    document.body.classList.toggle("ig-playing", phaseName === "drawing");
    const Phase = PHASES[phaseName] || RoundReveal;
    this.phase = new Phase(this);
    const main = this.phase.build();
    this.root = main;
    this.room.shell(this.topline(), main);
    this.phase.mounted?.();
    this.ticker = setInterval(() => this.tick(), 250);
  }

  topline() {
    const view = this.view;
    this.timerEl = h("span", { class: "timer", testid: "ig-timer", hidden: true, role: "timer", "aria-label": t("app.time_left") });
    const title =
      view.phase === "over"
        ? t("ig.game_over")
        : t("ig.round_of", { n: view.round, total: view.rounds });
    // The timer sits beside the title, never inside it: the title may wrap, the timer may not.
    return [
      h("span", { class: "room-title" }, h("span", { testid: "round-label" }, title)),
      this.timerEl,
      this.room.connectionBadge(),
    ];
  }

  // When the current phase's clock runs out (null: no clock running).
  deadline() {
    return this.view.deadline ?? null;
  }

  secondsLeft() {
    const deadline = this.deadline();
    return deadline === null ? null : Math.max(0, Math.ceil(deadline - serverNow()));
  }

  tick() {
    const left = this.secondsLeft();
    if (this.timerEl) {
      this.timerEl.hidden = left === null;
      if (left !== null) {
        this.timerEl.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
        this.timerEl.classList.toggle("urgent", left <= 10);
      }
    }
    this.phase?.tick?.(left);
  }
}
