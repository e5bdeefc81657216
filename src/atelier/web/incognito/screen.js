// Incognito in the browser, driven entirely by the server's view
// (docs/incognito.md): hide your word while drawing, find the others' words
// at the vote, then the reveal, the scores and, at the end, the gallery.

import { DrawingScreen } from "../drawing_screen.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
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

export class IncognitoScreen extends DrawingScreen {
  constructor(room) {
    ensureStyles();
    super(room, { timerTestid: "ig-timer" });
    this.phase = null;
  }

  teardown() {
    this.phase?.destroy?.();
    this.phase = null;
    document.body.classList.remove("ig-playing");
  }

  get seat() {
    const seat = this.view?.seat;
    return seat === undefined ? null : seat;
  }

  get me() {
    return this.seat === null ? null : this.view.players[this.seat];
  }

  swatch(seat, small = true) {
    return h("span", { class: `swatch ${small ? "small" : ""}`, style: { background: this.colour(seat) } });
  }

  title() {
    const view = this.view;
    return view.phase === "over" ? t("ig.game_over") : t("ig.round_of", { n: view.round, total: view.rounds });
  }

  build(phaseName) {
    this.board.releaseOwn();
    document.body.classList.toggle("ig-playing", phaseName === "drawing");
    const Phase = PHASES[phaseName] || RoundReveal;
    this.phase = new Phase(this);
    const main = this.phase.build();
    this.root = main;
    this.room.shell(this.topline(), main);
    this.phase.mounted?.();
  }

  refresh() {
    this.phase?.refresh();
  }

  tickPhase(left) {
    this.phase?.tick?.(left);
  }
}
