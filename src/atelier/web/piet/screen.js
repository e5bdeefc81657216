// Piet in the browser: the palette, both canvases, scores, turn and phase,
// painting with a preview, filling, paintbrushes, the move list and the
// record, driven by the public view the server sends (Piet hides nothing).
// The seats this page may move for: its own, plus a hot-seat second player.

import { colourCss, h, nameList, nameTag, radioKeys, replace, toast } from "../dom.js";
import { errorText, lang, playerName, t, tn } from "../i18n.js";
import { rulesButton } from "../rules.js";
import { CANVAS_SIZE, Grid, PALETTE_SIZE, colourName, pieceLetter } from "./board.js";
import {
  COLOURS,
  PER_COLOUR,
  brushText,
  colourCounts,
  fillText,
  fillsCanvas,
  landing,
  paintText,
  selectionFits,
  toggleSelection,
  usableCells,
} from "./moves.js";
import { downloadRecord, recordPanel } from "./record.js";
import { secondSeat } from "./seat.js";
import { readView } from "./view.js";
import { pietLobbyCards } from "./lobbycard.js";
import { againPanel } from "../again.js";

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
    this.resetChoice();
    this.connectSecond();
  }

  resetChoice() {
    this.sel = [];
    this.target = null;
    this.hover = null;
    this.brushCell = null;
    this.brushColour = null;
    this.fillColour = null;
  }

  async connectSecond() {
    const conn = await secondSeat(this.room.code, lang());
    if (!conn) return;
    this.second = conn;
    this.unlisten = conn.listen((msg) => {
      if (msg.t === "state") {
        this.secondSeat = msg.you?.seat ?? null;
        if (this.state) this.refresh();
      }
    });
    this.secondSeat = conn.seat;
    if (this.state) this.refresh();
  }

  mounted() {
    return Boolean(this.root && this.root.isConnected);
  }

  destroy() {
    this.unlisten?.();
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

  // --- updates ---------------------------------------------------------------

  update(state) {
    const before = this.model;
    this.state = state;
    this.model = readView(state.game, state.room.settings);
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
    parts.palette = new Grid({
      kind: "palette",
      width: 3,
      testid: "piet-palette",
      label: t("pietui.palette"),
      onTap: (i) => this.tapPalette(i),
    });
    parts.canvases = [0, 1].map(
      (seat) =>
        new Grid({
          kind: "canvas",
          width: 4,
          testid: `piet-canvas-${seat}`,
          label: t("pietui.canvas_of", { name: this.name(seat) }),
          onTap: (i) => this.tapCanvas(seat, i),
          onHover: (i) => this.hoverCanvas(seat, i),
        }),
    );
    parts.captions = [0, 1].map((seat) => h("div", { class: "piet-caption", testid: `piet-caption-${seat}` }));
    parts.actions = h("section", { class: "piet-actions", testid: "piet-actions" });
    parts.moves = h("ol", { class: "piet-movelist", testid: "piet-moves", tabindex: 0, "aria-label": t("pietui.moves") });
    const board = (seat) =>
      h("div", { class: `piet-board piet-board-${seat}` }, parts.captions[seat], parts.canvases[seat].el);
    const boards = h(
      "section",
      { class: "piet-boards" },
      board(0),
      h(
        "div",
        { class: "piet-board piet-board-palette" },
        h("div", { class: "piet-caption" }, t("pietui.palette")),
        parts.palette.el,
      ),
      board(1),
    );
    const side = h(
      "section",
      { class: "piet-side" },
      h("h2", {}, t("pietui.moves")),
      parts.moves,
      recordPanel(this),
      h("div", { class: "actions" }, rulesButton("piet")),
    );
    this.root = h("main", { class: "piet", testid: "piet" }, parts.players, parts.turn, boards, parts.actions, side);
    this.room.shell(h("span", { class: "room-title" }, parts.title, this.room.connectionBadge()), this.root);
  }

  refresh() {
    if (!this.model || !this.parts) return;
    const m = this.model;
    this.root.dataset.phase = m.phase;
    this.root.dataset.toMove = m.toMove === null ? "" : String(m.toMove);
    this.root.dataset.moves = String(m.moves.length);
    this.root.dataset.actor = this.actor === null ? "" : String(this.actor);
    this.parts.title.textContent = `${t("game.piet")} · ${t(`piet.phase.${m.phase}`)}`;
    this.drawPlayers();
    this.drawTurn();
    this.drawPalette();
    this.drawCanvases();
    this.drawActions();
    this.drawMoves();
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
              { class: "piet-brushes", testid: `piet-brushes-${seat}`, title: t("pietui.brushes_left", { n: m.brushes[seat] }) },
              `✎ ${Math.max(0, m.brushes[seat])}`,
            )
          : null,
        h("span", { class: "piet-score", testid: `piet-score-${seat}`, "aria-label": t("pietui.score") }, String(m.scores[seat])),
      );
    });
    replace(this.parts.players, cards);
  }

  turnText() {
    const m = this.model;
    if (m.phase === "over") {
      const r = m.result;
      const score = `${m.scores[0]} : ${m.scores[1]}`;
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
    const extra = [];
    if (m.phase === "over" && m.finisher !== null) {
      extra.push(h("small", { class: "hint" }, tn("pietui.result.bonus", { name: nameList([this.name(m.finisher)]) })));
    }
    replace(
      this.parts.turn,
      h("span", { class: "piet-phase", testid: "piet-phase" }, t(`piet.phase.${m.phase}`)),
      h("span", { testid: "piet-turn-text" }, this.turnText()),
      extra,
      this.player(m.toMove)?.computer && m.phase !== "over" ? h("span", { class: "piet-thinking", "aria-hidden": "true" }) : null,
    );
  }

  // --- the palette -----------------------------------------------------------

  drawPalette() {
    const m = this.model;
    const actor = this.actor;
    const painting = m.phase === "painting" && actor !== null;
    const filling = m.phase === "filling" && actor !== null;
    const usable = painting ? usableCells(m.legal) : new Set();
    const freeFill = new Set(filling ? m.legal.filter((x) => x.includes("@")).map((x) => x.split("@")[1]) : []);
    for (let i = 0; i < PALETTE_SIZE; i += 1) {
      const colour = m.palette[i];
      const classes = [];
      let disabled = true;
      if (painting && colour) {
        disabled = !usable.has(i);
        if (this.sel.includes(i)) classes.push("selected");
        if (disabled) classes.push("unusable");
      }
      const name = this.parts.palette.cells[i].dataset.cell;
      if (filling && !colour) {
        disabled = !freeFill.has(name);
        if (!disabled) classes.push("fillable");
        if (this.fillColour && !disabled) classes.push(`ghost-${this.fillColour}`);
      }
      this.parts.palette.set(i, { colour, classes, disabled });
    }
  }

  tapPalette(i) {
    const m = this.model;
    if (this.actor === null || this.sending) return;
    if (m.phase === "filling") {
      if (!this.fillColour) {
        toast(t("pietui.fill.pick_colour"), "info");
        return;
      }
      this.send(fillText(this.fillColour, i));
      return;
    }
    const { selection, restarted } = toggleSelection(this.sel, i);
    if (restarted) toast(t("pietui.paint.connected"), "info");
    this.sel = selection;
    this.target = null;
    this.brushCell = null;
    this.brushColour = null;
    this.refresh();
  }

  // --- the canvases and the preview -----------------------------------------

  // The canvas cell the preview is anchored at: the chosen target, else the hovered one.
  previewAnchor() {
    return this.target ?? this.hover;
  }

  previewCells() {
    const anchor = this.previewAnchor();
    if (anchor === null || this.sel.length === 0) return null;
    const text = paintText(this.sel, anchor);
    const legal = this.model.legal.includes(text);
    return { anchor, legal, landed: landing(this.sel, anchor), text };
  }

  drawCanvases() {
    const m = this.model;
    const actor = this.actor;
    const preview = m.phase === "painting" && actor !== null ? this.previewCells() : null;
    const pending = this.pendingPaint();
    for (const seat of [0, 1]) {
      const grid = this.parts.canvases[seat];
      const canvas = m.canvases[seat];
      const mine = seat === actor && m.phase === "painting";
      const brushable = pending && seat !== actor && this.brushAllowed(pending);
      const looks = canvas.map((colour) => ({ colour, classes: [], disabled: true }));
      if (mine) {
        const fits = selectionFits(m.legal, this.sel);
        looks.forEach((look, i) => {
          look.disabled = this.sel.length === 0 || Boolean(look.colour);
          if (this.sel.length && !look.colour && fits) look.classes.push("target");
          if (this.target === i) look.classes.push("anchor");
        });
      }
      if (mine && preview) {
        for (const { from, to } of preview.landed) {
          if (to === null) continue;
          const look = looks[to];
          look.classes.push(preview.legal ? "preview" : "preview-bad");
          if (!look.colour) {
            look.colour = m.palette[from];
            look.classes.push("ghost");
          }
        }
        if (!preview.legal) looks[preview.anchor].classes.push("preview-bad");
      }
      if (brushable) {
        looks.forEach((look, i) => {
          if (!look.colour) return;
          look.disabled = false;
          look.classes.push("brushable");
          if (this.brushCell === i) {
            look.classes.push("brush-cell");
            if (this.brushColour) look.colour = this.brushColour;
          }
        });
      }
      looks.forEach((look, i) => grid.set(i, look));
      grid.el.classList.toggle("active", mine);
      replace(
        this.parts.captions[seat],
        h("span", { class: "swatch small", style: { background: colourCss(this.player(seat)?.colour || "grey") } }),
        tn("pietui.canvas_of", { name: nameTag(this.name(seat)) }),
      );
    }
  }

  hoverCanvas(seat, i) {
    if (seat !== this.actor || this.model.phase !== "painting" || this.target !== null) return;
    if (this.hover === i) return;
    this.hover = i;
    this.drawCanvases();
  }

  tapCanvas(seat, i) {
    const m = this.model;
    const actor = this.actor;
    if (actor === null || m.phase !== "painting" || this.sending) return;
    if (seat === actor) {
      if (this.sel.length === 0) return;
      const text = paintText(this.sel, i);
      if (!m.legal.includes(text)) {
        this.hover = i;
        this.target = null;
        toast(t("pietui.paint.illegal"), "info");
        this.refresh();
        return;
      }
      this.target = this.target === i ? null : i;
      this.brushCell = null;
      this.brushColour = null;
      this.refresh();
      return;
    }
    const pending = this.pendingPaint();
    if (pending && this.brushAllowed(pending) && m.canvases[seat][i]) {
      this.brushCell = this.brushCell === i ? null : i;
      this.brushColour = null;
      this.refresh();
    }
  }

  // --- the move being made ---------------------------------------------------

  pendingPaint() {
    if (this.target === null || this.sel.length === 0) return null;
    const text = paintText(this.sel, this.target);
    if (!this.model.legal.includes(text)) return null;
    return { text, landed: landing(this.sel, this.target) };
  }

  brushAllowed(pending) {
    const m = this.model;
    const actor = this.actor;
    if (!m.brushesOn || actor === null || m.brushes[actor] <= 0) return false;
    // A move that fills the canvas ends the game at once: no brush after it.
    return !fillsCanvas(m.canvases[actor], pending.landed);
  }

  drawActions() {
    const m = this.model;
    const actor = this.actor;
    const box = this.parts.actions;
    if (m.phase === "over") {
      replace(
        box,
        h(
          "div",
          { class: "piet-result", testid: "piet-result" },
          h("strong", {}, this.turnText()),
          againPanel(this.room),
          h("div", { class: "actions" }, h("button", { class: "btn primary", type: "button", testid: "piet-download-end", onclick: () => downloadRecord(this) }, t("pietui.record.download")), h("a", { class: "btn", href: "/" }, t("pietui.new_game"))),
        ),
      );
      return;
    }
    if (actor === null) {
      replace(box, h("p", { class: "hint" }, this.state.you.seat === null && !this.second ? t("lobby.watching") : t("pietui.wait")));
      return;
    }
    if (m.phase === "filling") {
      const counts = colourCounts(m.palette);
      const group = h(
          "div",
          { class: "piet-colours", role: "radiogroup", "aria-label": t("pietui.fill.colour") },
          COLOURS.map((c) => {
            const left = PER_COLOUR - counts[c];
            return h(
              "button",
              {
                type: "button",
                class: `piet-colour has-${c} ${this.fillColour === c ? "selected" : ""}`,
                role: "radio",
                "aria-checked": String(this.fillColour === c),
                testid: `piet-fill-${c}`,
                disabled: left <= 0,
                onclick: () => {
                  this.fillColour = c;
                  this.refresh();
                },
              },
              h("span", { class: "piet-piece" }, h("span", { class: "piet-letter" }, pieceLetter(c))),
              h("span", {}, colourName(c)),
              h("small", {}, t("pietui.fill.left", { n: Math.max(0, left) })),
            );
          }),
        );
      radioKeys(group);
      replace(box, h("p", { class: "hint" }, t("pietui.fill.hint")), group);
      return;
    }
    const pending = this.pendingPaint();
    if (this.sel.length === 0) {
      replace(box, h("p", { class: "hint" }, t("pietui.paint.pick")));
      return;
    }
    const cancel = h("button", { class: "btn ghost", type: "button", testid: "piet-cancel", onclick: () => { this.resetChoice(); this.refresh(); } }, t("pietui.cancel"));
    if (!pending) {
      const fits = selectionFits(m.legal, this.sel);
      replace(
        box,
        h("p", { class: "hint" }, fits ? t("pietui.paint.where") : t("pietui.paint.no_room")),
        h("div", { class: "actions" }, cancel),
      );
      return;
    }
    let text = pending.text;
    const rows = [];
    if (this.brushAllowed(pending)) {
      const opponent = 1 - actor;
      rows.push(h("p", { class: "hint" }, tn("pietui.brush.hint", { name: nameList([this.name(opponent)]), n: m.brushes[actor] })));
      if (this.brushCell !== null) {
        const current = m.canvases[opponent][this.brushCell];
        rows.push(
          h(
            "div",
            { class: "piet-colours" },
            COLOURS.filter((c) => c !== current).map((c) =>
              h(
                "button",
                {
                  type: "button",
                  class: `piet-colour has-${c} ${this.brushColour === c ? "selected" : ""}`,
                  testid: `piet-brush-${c}`,
                  onclick: () => {
                    this.brushColour = this.brushColour === c ? null : c;
                    this.refresh();
                  },
                },
                h("span", { class: "piet-piece" }, h("span", { class: "piet-letter" }, pieceLetter(c))),
                h("span", {}, colourName(c)),
              ),
            ),
            h("button", { class: "btn small ghost", type: "button", testid: "piet-brush-none", onclick: () => { this.brushCell = null; this.brushColour = null; this.refresh(); } }, t("pietui.brush.none")),
          ),
        );
        if (this.brushColour) text += brushText(this.brushCell, this.brushColour);
      }
    }
    replace(
      box,
      h("p", { class: "piet-pending" }, t("pietui.paint.ready"), " ", h("code", { testid: "piet-pending" }, text)),
      rows,
      h(
        "div",
        { class: "actions" },
        h("button", { class: "btn primary big", type: "button", testid: "piet-place", disabled: this.sending, onclick: () => this.send(text) }, t("pietui.paint.place")),
        cancel,
      ),
    );
  }

  drawMoves() {
    const m = this.model;
    const items = m.moves.map((move, i) =>
      h(
        "li",
        { testid: "piet-move", dataset: { seat: move.seat === null ? "" : String(move.seat) } },
        move.seat !== null ? h("span", { class: "swatch small", style: { background: colourCss(this.player(move.seat)?.colour || "grey") } }) : null,
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

  // --- sending -----------------------------------------------------------------

  async send(text) {
    const seat = this.actor;
    if (seat === null) return;
    const action = { type: "move", move: text };
    this.sending = true;
    try {
      if (seat === this.mySeat) {
        await this.room.conn.request({ t: "act", action });
      } else {
        await this.second.request({ t: "act", action });
      }
      this.resetChoice();
    } catch (error) {
      // The room toasts its own connection's errors; the second seat's are ours.
      if (seat !== this.mySeat && error?.code) toast(errorText(error));
    } finally {
      this.sending = false;
      this.refresh();
    }
  }
}
