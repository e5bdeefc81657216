// Piet in the browser: the screen's frame (players, scores, turn and phase,
// the boards, the move list and the record), driven by the public view the
// server sends (Piet hides nothing). Its parts live beside it: the choice of
// a move (choice.js), drawing the cells (cells.js), the panel of what to do
// (actions.js), and the seats this page moves for (seats.js).

import { colourCss, h, nameList, nameTag, replace } from "../dom.js";
import { lang, playerName, t, tn } from "../i18n.js";
import { rulesButton } from "../rules.js";
import { drawActions } from "./actions.js";
import { boardGrids, boardsLayout, drawCanvases, drawPalette } from "./cells.js";
import { emptyChoice } from "./choice.js";
import { pietLobbyCards } from "./lobbycard.js";
import { recordPanel, showRecordParts } from "./record.js";
import { hintMarks, hintPanel } from "./hints.js";
import { Coach, tutorialRoom } from "./tutorial.js";
import { openGameReview, openRecordReview, reviewButton, wantsReview } from "./reviewing.js";
import { connectSecond, sendMove } from "./seats.js";
import { clockLine, earlyResult, seatTools } from "./correspondence.js";
import { readView } from "./view.js";

// The stylesheet is ours; index.html is not, so it is linked from here.
function linkStyles() {
  if (document.querySelector("link[data-piet]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./piet.css", import.meta.url).href;
  link.dataset.piet = "1";
  document.head.append(link);
}
linkStyles();

export class PietScreen {
  static lobbyCards = pietLobbyCards;

  constructor(room) {
    this.room = room;
    this.root = null;
    this.state = null;
    this.model = null;
    this.built = null;
    this.second = null; // the hot-seat player's connection (seat.js), if any
    this.secondSeat = null;
    this.sending = false;
    this.hint = null; // the engine's answer for one position (hints.js)
    this.asking = false;
    this.coach = tutorialRoom(room.code) ? new Coach(this) : null; // the guided game
    this.marks = this.cellMarks();
    this.extraActions = () => hintPanel(this);
    this.extraEndActions = () => reviewButton(this);
    this.reviewing = null; // the open review (reviewing.js)
    this.resetChoice();
    this.connectSecond();
  }

  resetChoice() {
    Object.assign(this, emptyChoice());
  }

  // Extra classes for cells: the hint's move, the guided game's rings.
  cellMarks() {
    const hints = hintMarks(this);
    return {
      palette: (i, name, classes) => {
        hints.palette(i, name, classes);
        if (this.coach?.rings("palette").includes(i)) classes.push("coach");
      },
      canvas: (seat, i, classes) => {
        hints.canvas(seat, i, classes);
        const board = seat === this.mySeat ? "canvas" : "other";
        if (this.coach?.rings(board).includes(i)) classes.push("coach");
      },
    };
  }

  connectSecond() {
    return connectSecond(this);
  }

  mounted() {
    if (this.reviewing) return this.reviewing.el.isConnected;
    return Boolean(this.root && this.root.isConnected);
  }

  destroy() {
    this.unlisten?.();
    this.coach?.destroy();
    clearInterval(this.clockTimer);
  }

  // --- who is who ------------------------------------------------------------

  player(seat) {
    return this.state?.room.players.find((p) => p.seat === seat) || null;
  }

  name(seat) {
    const p = this.player(seat);
    return p ? playerName(p) : t("pietui.player_n", { n: seat + 1 });
  }

  get mySeat() {
    return this.state?.you?.seat ?? null;
  }

  controls(seat) {
    return seat !== null && (seat === this.mySeat || (this.second && seat === this.secondSeat));
  }

  get hotseat() {
    return Boolean(this.second && this.secondSeat !== null && this.mySeat !== null);
  }

  // The seat whose move this page is making now, or null.
  get actor() {
    const m = this.model;
    return m && m.toMove !== null && this.controls(m.toMove) ? m.toMove : null;
  }

  // The screen stays on while this page has a move to make (room.js, wake.js).
  awake() {
    return this.actor !== null;
  }

  // --- updates ---------------------------------------------------------------

  update(state) {
    const before = this.model;
    this.state = state;
    this.model = readView(state.game, state.room.settings);
    if (this.reviewing) return; // the review stays until it is closed
    if (this.model.phase === "over" && wantsReview(this)) {
      openGameReview(this);
      return;
    }
    // A new position invalidates a half-made choice.
    if (!before || before.moves.length !== this.model.moves.length || before.phase !== this.model.phase) {
      this.resetChoice();
    }
    const signature = `${lang()}|${this.mySeat}`;
    if (signature !== this.built || !this.mounted()) {
      this.build();
      this.built = signature;
    }
    this.refresh();
  }

  build() {
    const parts = {};
    this.parts = parts;
    parts.title = h("span", { class: "room-title", testid: "piet-title" });
    parts.players = h("section", { class: "piet-players", testid: "piet-players" });
    parts.turn = h("section", { class: "piet-turn", testid: "piet-turn", role: "status", "aria-live": "polite" });
    Object.assign(parts, boardGrids(this));
    parts.captions = [0, 1].map((seat) => h("div", { class: "piet-caption", testid: `piet-caption-${seat}` }));
    parts.actions = h("section", { class: "piet-actions", testid: "piet-actions" });
    parts.seat = h("div", { class: "piet-seat-box" });
    this.seatBuilt = null;
    parts.moves = h("ol", {
      class: "piet-movelist",
      testid: "piet-moves",
      tabindex: 0,
      "aria-label": t("pietui.moves"),
    });
    const boards = boardsLayout(parts);
    const side = h(
      "section",
      { class: "piet-side" },
      h("h2", {}, t("pietui.moves")),
      parts.moves,
      recordPanel(this, { onReview: (text) => openRecordReview(this, text) }),
      h("div", { class: "actions" }, rulesButton("piet")),
    );
    this.root = h(
      "main",
      { class: `piet ${this.coach ? "coached" : ""}`, testid: "piet" },
      parts.players,
      parts.turn,
      this.coach?.el ?? null,
      boards,
      parts.actions,
      parts.seat,
      side,
    );
    this.room.shell(h("span", { class: "room-title" }, parts.title, this.room.connectionBadge()), this.root);
    // a correspondence game's time left, in minutes: redrawn while it runs
    clearInterval(this.clockTimer);
    this.clockTimer = setInterval(() => this.model?.clock && this.mounted() && this.drawTurn(), 30000);
  }

  refresh() {
    if (!this.model || !this.parts) return;
    const m = this.model;
    this.root.dataset.phase = m.phase;
    this.root.dataset.toMove = m.toMove === null ? "" : String(m.toMove);
    this.root.dataset.moves = String(m.moves.length);
    this.root.dataset.actor = this.actor === null ? "" : String(this.actor);
    this.parts.title.textContent = `${t("game.piet")} · ${t(`piet.phase.${m.phase}`)}`;
    this.coach?.follow();
    this.coach?.draw();
    this.drawPlayers();
    this.drawTurn();
    drawPalette(this);
    drawCanvases(this);
    drawActions(this);
    this.drawSeatTools();
    this.drawMoves();
    showRecordParts(this);
  }

  // Built again only when what they offer changes, so a half-made choice in
  // them (a resignation to confirm, a link shown) survives the next move.
  drawSeatTools() {
    const signature = `${this.model.phase === "over"}|${this.mySeat}`;
    if (signature === this.seatBuilt) return;
    this.seatBuilt = signature;
    replace(this.parts.seat, seatTools(this));
  }

  drawPlayers() {
    const m = this.model;
    const cards = [0, 1].map((seat) => {
      const p = this.player(seat);
      const turn = m.toMove === seat;
      const won = m.result && !m.result.draw && m.result.winner === seat;
      return h(
        "div",
        {
          class: `piet-player ${turn ? "to-move" : ""} ${won ? "winner" : ""}`,
          testid: `piet-player-${seat}`,
          style: { "--c": colourCss(p?.colour || (p?.computer ? "grey" : "")) },
        },
        h("span", { class: "swatch", style: { background: colourCss(p?.colour || "grey") } }),
        h(
          "span",
          { class: "piet-player-name" },
          nameTag(this.name(seat), "wrap piet-name-text"),
          h(
            "small",
            {},
            t("pietui.player_n", { n: seat + 1 }),
            this.controls(seat) && !this.hotseat ? h("span", { class: "badge you" }, t("lobby.you")) : null,
            p && !p.connected && !p.computer ? h("span", { class: "badge muted" }, t("lobby.away")) : null,
          ),
        ),
        m.brushesOn
          ? h(
              "span",
              {
                class: "piet-brushes",
                testid: `piet-brushes-${seat}`,
                title: t("pietui.brushes_left", { n: m.brushes[seat] }),
              },
              `✎ ${Math.max(0, m.brushes[seat])}`,
            )
          : null,
        h(
          "span",
          { class: "piet-score", testid: `piet-score-${seat}`, "aria-label": t("pietui.score") },
          String(m.scores[seat]),
        ),
      );
    });
    replace(this.parts.players, cards);
  }

  turnText() {
    const m = this.model;
    if (m.phase === "over") {
      const r = m.result;
      const score = `${m.scores[0]} : ${m.scores[1]}`;
      const early = earlyResult(this);
      if (early) return early;
      if (!r || r.draw) return t("pietui.result.draw", { score });
      return tn("pietui.result.win", { name: nameList([this.name(r.winner)]), score });
    }
    const seat = m.toMove;
    const who = this.name(seat);
    if (this.actor !== null) {
      const prefix = this.hotseat ? tn("pietui.turn.hotseat", { name: nameList([who]) }) : t("pietui.turn.yours");
      return [prefix, " ", m.phase === "painting" ? t("pietui.turn.paint") : t("pietui.turn.fill")];
    }
    if (this.player(seat)?.computer) return tn("pietui.turn.computer", { name: nameList([who]) });
    return tn("pietui.turn.other", { name: nameList([who]) });
  }

  drawTurn() {
    const m = this.model;
    this.parts.turn.className = `piet-turn ${this.actor !== null ? "mine" : ""} ${m.phase === "over" ? "over" : ""}`;
    const extra = [clockLine(this)];
    if (m.phase === "over" && m.finisher !== null) {
      extra.push(h("small", { class: "hint" }, tn("pietui.result.bonus", { name: nameList([this.name(m.finisher)]) })));
    }
    replace(
      this.parts.turn,
      h("span", { class: "piet-phase", testid: "piet-phase" }, t(`piet.phase.${m.phase}`)),
      h("span", { testid: "piet-turn-text" }, this.turnText()),
      extra,
      this.player(m.toMove)?.computer && m.phase !== "over"
        ? h("span", { class: "piet-thinking", "aria-hidden": "true" })
        : null,
    );
  }

  drawCanvases() {
    drawCanvases(this);
  }

  drawMoves() {
    const m = this.model;
    const items = m.moves.map((move, i) =>
      h(
        "li",
        { testid: "piet-move", dataset: { seat: move.seat === null ? "" : String(move.seat) } },
        move.seat !== null
          ? h("span", {
              class: "swatch small",
              style: { background: colourCss(this.player(move.seat)?.colour || "grey") },
            })
          : null,
        h("code", {}, move.text),
        // Filling scores nothing; only painting moves show their points.
        move.points !== null && move.points !== undefined && move.text.includes(">")
          ? h("small", { class: "muted" }, ` +${move.points}`)
          : null,
        i === m.moves.length - 1 ? h("span", { class: "sr-only" }, t("pietui.last_move")) : null,
      ),
    );
    replace(this.parts.moves, items.length ? items : h("li", { class: "muted empty" }, t("pietui.no_moves")));
    this.parts.moves.scrollTop = this.parts.moves.scrollHeight;
  }

  send(text) {
    return sendMove(this, text);
  }
}
