// What the drawing games' screens (Pictomania, Incognito) share: the ink
// board, the room's players by seat, the top line with its countdown, and the
// rule that a screen is built anew when the phase, round, language or seat
// changes and only refreshed otherwise. A game's screen extends this class and
// supplies build(phase), refresh() and title(); teardown() (let go of what the
// last build made) and tickPhase(secondsLeft) if it needs them.

import { serverNow } from "./clock.js";
import { colourCss, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { InkBoard } from "./ink/board.js";

export class DrawingScreen {
  constructor(room, { timerTestid = "timer" } = {}) {
    this.room = room;
    this.board = new InkBoard({
      sendInk: (bytes) => room.conn.sendInk(bytes),
      colour: (seat) => this.colour(seat),
    });
    this.timerTestid = timerTestid;
    this.root = null;
    this.built = null;
    this.timerEl = null;
    this.ticker = null;
  }

  mounted() {
    return Boolean(this.root && this.root.isConnected);
  }

  destroy() {
    clearInterval(this.ticker);
    this.teardown?.();
    this.board.destroy();
    document.body.classList.remove("playing");
  }

  onInk(seat, bytes) {
    this.board.receive(seat, bytes);
  }

  onInkSync(msg) {
    this.board.sync(msg.key, msg.seats);
  }

  // --- the state, and names for it ----------------------------------------

  get view() {
    return this.state.game;
  }

  get seat() {
    return this.state.you.seat ?? null;
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

  act(action) {
    return this.room.send({ t: "act", action });
  }

  // A box for seat's drawing (the board mounts a canvas in it), named for screen readers.
  drawingFrame(seat, attrs = {}) {
    return h("div", {
      class: "canvas-frame",
      role: "img",
      "aria-label": t("ink.drawing_by", { name: this.name(seat) }),
      ...attrs,
    });
  }

  // --- building and refreshing ----------------------------------------------

  update(state) {
    this.state = state;
    const view = state.game;
    this.board.setKey(state.drawing_key);
    this.board.setOwn(this.seat, state.may_draw, state.ink_tools || []);
    const signature = `${view.phase}|${view.round}|${lang()}|${this.seat}`;
    if (signature !== this.built || !this.mounted()) {
      clearInterval(this.ticker);
      this.timerEl = null;
      this.teardown?.();
      this.board.releaseViews();
      document.body.classList.toggle("playing", view.phase === "drawing");
      this.build(view.phase);
      this.built = signature;
      this.ticker = setInterval(() => this.tick(), 250);
    }
    this.refresh();
    this.tick();
  }

  // The title and the countdown for room.shell. The timer sits beside the
  // title, never inside it: the title may wrap, the timer may not.
  topline() {
    this.timerEl = h("span", {
      class: "timer",
      testid: this.timerTestid,
      hidden: true,
      role: "timer",
      "aria-label": t("app.time_left"),
    });
    return [
      h("span", { class: "room-title" }, h("span", { testid: "round-label" }, this.title())),
      this.timerEl,
      this.room.connectionBadge(),
    ];
  }

  // When the running clock ends (null: none runs now); the view says it.
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
    this.tickPhase?.(left);
  }
}
