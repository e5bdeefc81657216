// Pictomania in the browser: the round (display, drawing), driven entirely
// by the game view from the server; the reveal lives in reveal.js, the
// gallery in the shared gallery.js, the scaffolding in drawing_screen.js.

import { DrawingScreen } from "../drawing_screen.js";
import { toolButtons } from "../tools.js";
import { cardMark, guessChips, wordCards } from "./cards.js";
import { h, nameTag, replace, stars, wholeWords } from "../dom.js";
import { t, tn } from "../i18n.js";
import { renderGallery } from "../gallery.js";
import { Reveal } from "./reveal.js";
import { rulesButton } from "../rules.js";

export class PictomaniaScreen extends DrawingScreen {
  constructor(room) {
    super(room);
    this.focus = null; // the seat whose drawing is enlarged
    this.reveal = null;
    this.parts = {};
  }

  teardown() {
    this.reveal?.destroy();
    this.reveal = null;
  }

  title() {
    return t("pm.round_of", { n: this.view.round, total: this.view.rounds });
  }

  // The round's time limit (a house rule) runs while drawing only.
  deadline() {
    return this.view.phase === "drawing" ? super.deadline() : null;
  }

  build(mode) {
    this.parts = {};
    this.focus = null;
    if (mode === "review") {
      this.reveal = new Reveal(this);
      this.root = this.reveal.build();
      return;
    }
    if (mode === "over") {
      this.root = renderGallery(this);
      return;
    }
    const main = h("main", { class: `pm pm-${mode}`, testid: `pm-${mode}` });
    this.root = main;
    this.room.shell(this.topline(), main);
    if (mode === "display") this.buildDisplay(main);
    else this.buildDrawing(main);
  }

  refresh() {
    const mode = this.view.phase;
    if (mode === "display") this.refreshDisplay();
    else if (mode === "drawing") this.refreshDrawing();
    else if (mode === "review") this.reveal?.refresh();
  }

  // --- display: the cards, replacements, ready ------------------------------

  buildDisplay(main) {
    this.parts.intro = h("section", { class: "pm-intro" });
    this.parts.cards = h("section", { class: "pm-cards-wide" });
    this.parts.ready = h("section", { class: "pm-readylist" });
    this.parts.actions = h("section", { class: "pm-display-actions" });
    main.append(this.parts.intro, this.parts.cards, this.parts.ready, this.parts.actions);
  }

  refreshDisplay() {
    const view = this.view;
    const me = this.seat === null ? null : view.players[this.seat];
    const first = view.edition === "first";
    const swapsLeft = me?.swaps_left ?? 0;
    replace(
      this.parts.intro,
      h("h2", {}, t("pm.round_title", { n: view.round, level: t(`level.${view.level}`) })),
      h("p", { class: "hint" }, first ? t("pm.display_hint_first", { n: swapsLeft }) : t("pm.display_hint_second")),
      view.learning_round ? h("p", { class: "hint" }, t("pm.learning_round")) : null,
    );
    const canReplace = me !== null && (!first || swapsLeft > 0);
    replace(
      this.parts.cards,
      wordCards(view, {
        replace: me ? (label) => this.act({ type: "replace", card: label }) : null,
        canReplace,
      }),
    );
    replace(
      this.parts.ready,
      h(
        "ul",
        { class: "ready-list", testid: "ready-list" },
        view.players.map((p) =>
          h(
            "li",
            { class: `ready-item ${p.ready ? "is-ready" : ""}`, dataset: { seat: String(p.seat) } },
            h("span", { class: "swatch", style: { background: this.colour(p.seat) } }),
            nameTag(this.name(p.seat)),
            h("span", { class: "tick" }, p.ready ? "✓" : "…"),
          ),
        ),
      ),
    );
    const buttons = [];
    if (me) {
      buttons.push(
        h(
          "button",
          {
            class: `btn big ${me.ready ? "" : "primary"}`,
            type: "button",
            testid: "ready",
            "aria-pressed": String(Boolean(me.ready)),
            onclick: () => this.act({ type: "ready", ready: !me.ready }),
          },
          me.ready ? t("pm.not_ready") : t("pm.ready"),
        ),
      );
    } else {
      buttons.push(h("p", { class: "hint", testid: "tv-watching" }, t("lobby.watching")));
    }
    if (this.state.you.host) {
      buttons.push(
        h(
          "button",
          { class: "btn ghost", type: "button", testid: "host-deal", onclick: () => this.room.send({ t: "next" }) },
          t("pm.deal_now"),
        ),
      );
    }
    buttons.push(rulesButton("pictomania"));
    replace(this.parts.actions, h("div", { class: "actions" }, buttons));
  }

  // --- drawing: my canvas, everyone's drawings, guesses, tokens ------------

  // On a phone the drawing comes first: my canvas as wide as the screen, the
  // others' drawings as a strip below it (a tap enlarges one to guess), and a
  // switch to the guess pane (every drawing larger, the cards, the guess
  // chips). The canvas stays mounted while the guess pane shows, so going
  // back finds it exactly as it was. On a wide screen both panes show at once.
  buildDrawing(main) {
    const parts = this.parts;
    this.pane = "draw";
    main.dataset.pane = this.pane;
    parts.secret = h("section", { class: "pm-secret", testid: "secret" });
    parts.others = h("section", { class: "pm-others", testid: "drawings", "aria-label": t("table.drawings") });
    parts.chips = h("div", { class: "pm-chips" });
    parts.cardList = h("div", { class: "pm-card-list" });
    parts.cards = h(
      "section",
      { class: "pm-cards", testid: "cards-panel", tabindex: 0, role: "region", "aria-label": t("pm.cards_label") },
      parts.chips,
      parts.cardList,
    );
    parts.bar = h("section", { class: "pm-bar", testid: "action-bar" });
    main.append(parts.secret);
    if (this.seat !== null) {
      parts.mine = h("section", {
        class: "pm-mine",
        testid: "my-drawing",
        style: { "--mine": this.colour(this.seat) },
      });
      parts.canvasBox = h("div", {
        class: "ink-box",
        testid: "my-canvas",
        role: "img",
        "aria-label": t("ink.your_drawing"),
      });
      parts.canvasHost = h("div", { class: "canvas-frame mine" }, parts.canvasBox);
      parts.lock = h("div", { class: "canvas-lock", testid: "canvas-locked", hidden: true });
      parts.mine.append(parts.canvasHost, parts.lock);
      parts.tools = h("div", { class: "tools", testid: "tools" });
      parts.toggle = this.paneToggle();
      parts.hostSlot = h("span", { class: "host-slot" });
      parts.toolrow = h("div", { class: "pm-toolrow" }, parts.tools, parts.toggle, parts.hostSlot);
      this.showPane(this.pane);
      this.board.mountOwn(parts.canvasBox);
      main.append(parts.mine, parts.toolrow);
    } else {
      // A spectator's phone is drawings first too: every drawing as large as
      // the screen allows, the cards a tap away (a wide screen shows both).
      main.classList.add("spectating");
      parts.toggle = this.paneToggle();
      parts.toolrow = h("div", { class: "pm-toolrow" }, parts.toggle);
      this.showPane(this.pane);
      main.append(parts.toolrow);
    }
    main.append(parts.others, parts.cards, parts.bar);
    parts.tiles = new Map();
    for (const p of this.view.players) {
      if (p.seat === this.seat) continue;
      const host = this.drawingFrame(p.seat);
      const meta = h("div", { class: "tile-meta" });
      const stack = h("div", { class: "stack-backs", testid: "stack" });
      const tile = h(
        "button",
        {
          type: "button",
          class: "tile",
          testid: `tile-${p.seat}`,
          title: this.name(p.seat),
          dataset: { seat: String(p.seat), name: this.name(p.seat) },
          style: { "--c": this.colour(p.seat) },
          onclick: () => this.openFocus(p.seat),
        },
        host,
        stack,
        meta,
      );
      this.board.mountTile(p.seat, host);
      parts.tiles.set(p.seat, { tile, meta, stack });
      parts.others.append(tile);
    }
    parts.others.dataset.count = String(parts.tiles.size);
    main.style.setProperty("--others", String(Math.max(1, parts.tiles.size)));
    parts.focus = h("div", { class: "focus-layer", testid: "focus", hidden: true });
    main.append(parts.focus);
  }

  // One button flips the stage between my canvas and the guess pane (for a
  // spectator: the drawings and the cards); it names where it leads (phones
  // only: a wide screen shows both).
  paneToggle() {
    return h("button", {
      class: "btn pane-toggle",
      type: "button",
      testid: "pane-toggle",
      "aria-pressed": "false",
      onclick: () => this.showPane(this.pane === "draw" ? "guess" : "draw"),
    });
  }

  showPane(pane) {
    this.pane = pane;
    this.root.dataset.pane = pane;
    const toggle = this.parts.toggle;
    if (!toggle) return;
    const toGuess = pane === "draw";
    const watching = this.seat === null;
    toggle.setAttribute("aria-pressed", String(!toGuess));
    replace(
      toggle,
      h("span", { class: "pane-icon", "aria-hidden": "true" }, toGuess ? "◫" : watching ? "▦" : "✎"),
      h(
        "span",
        { class: "pane-label" },
        watching
          ? t(toGuess ? "pm.cards_label" : "table.all_drawings")
          : t(toGuess ? "table.guess" : "table.draw"),
      ),
    );
  }

  hostActions() {
    if (this.view?.phase !== "drawing") return [];
    return [
      {
        testid: "host-stop",
        label: t("pm.stop_round"),
        confirm: t("pm.stop_confirm"),
        run: () => this.room.send({ t: "next" }),
      },
    ];
  }

  myGuessOn(target) {
    return (this.view.me?.guesses || []).find((g) => g.target === target) || null;
  }

  refreshDrawing() {
    const view = this.view;
    const parts = this.parts;
    const me = view.me || null;
    const spent = new Set(me?.spent || []);

    // The secret word, clearly.
    if (me && me.word !== undefined) {
      replace(
        parts.secret,
        h("span", { class: "secret-label" }, t("pm.your_word")),
        h(
          "span",
          { class: "secret-word", testid: "secret-word" },
          h("span", { class: "secret-code" }, `${cardMark(view, me.letter)}${me.letter ? " " : ""}${me.number}`),
          h(
            "span",
            {
              class: `secret-text ${me.word.length > 22 ? "long longer" : me.word.length > 12 ? "long" : ""}`,
              lang: view.language,
              dataset: { number: String(me.number), letter: me.letter ?? "" },
            },
            wholeWords(me.word),
          ),
        ),
        this.ownStack(view.players[this.seat]),
      );
    } else {
      replace(parts.secret, h("span", { class: "secret-label" }, t("pm.spectating")));
    }

    // My canvas: locked when the server says so.
    if (parts.lock) {
      const locked = !this.state.may_draw;
      parts.lock.hidden = !locked;
      parts.mine.classList.toggle("locked", locked);
      parts.lock.textContent = me?.finished ? t("pm.locked_done") : t("pm.locked_guessed");
      replace(parts.tools, this.toolButtons());
    }

    // Everyone's drawings with their stacks.
    for (const [seat, { tile, meta, stack }] of parts.tiles) {
      const p = view.players[seat];
      const guess = this.myGuessOn(seat);
      tile.classList.toggle("finished", Boolean(p.finished));
      tile.classList.toggle("guessed", Boolean(guess));
      replace(
        meta,
        h("span", { class: "swatch small", style: { background: this.colour(seat) } }),
        h("span", { class: "tile-name", title: this.name(seat) }, this.name(seat)),
        guess ? h("span", { class: "my-guess", testid: "my-guess" }, `→ ${guess.number}`) : null,
        p.black_token ? h("span", { class: "black-token small" }, stars(p.black_token)) : null,
        p.finished && !p.black_token && !p.removed ? h("span", { class: "done-mark" }, "✓") : null,
        p.removed ? h("span", { class: "badge out-badge" }, t("party.removed")) : null,
      );
      replace(
        stack,
        (p.guessed_by || []).map((by) =>
          h("span", { class: "card-back", title: this.name(by), style: { background: this.colour(by) } }),
        ),
      );
    }

    // The word cards, with spent numbers.
    replace(parts.cardList, wordCards(view, { spent, mine: me ? { label: me.letter, number: me.number } : null }));
    replace(parts.chips, me ? guessChips(spent, me.number) : null);

    // Black tokens, done.
    const bar = [];
    if (me) {
      if (!me.finished) {
        // The 1st edition's token is always the highest left; an empty
        // 1st-edition canvas takes none (me.may_take_token is false).
        const values = me.may_take_token ? [...(view.black_tokens_left || [])].sort((a, b) => b - a) : [];
        const distinct = view.edition === "first" ? values.slice(0, 1) : [...new Set(values)];
        const tokens = distinct.map((v, i) =>
          h(
            "button",
            {
              class: `btn token ${i === 0 ? "primary" : ""}`,
              type: "button",
              testid: `black-${v}`,
              title: t("pm.take_token", { n: v }),
              onclick: () => this.act({ type: "black", value: v }),
            },
            h("span", { class: "black-token" }, stars(v)),
            view.edition !== "first" && values.filter((x) => x === v).length > 1
              ? h("small", {}, `×${values.filter((x) => x === v).length}`)
              : null,
          ),
        );
        bar.push(
          h(
            "div",
            { class: "finish" },
            tokens.length ? h("span", { class: "label" }, t("pm.take")) : null,
            tokens,
            !me.may_take_token && view.edition === "first" && (view.black_tokens_left || []).length
              ? h("span", { class: "label", testid: "nothing-drawn" }, t("pm.nothing_drawn"))
              : null,
            h(
              "button",
              {
                class: "btn",
                type: "button",
                testid: "done",
                title: t("pm.done_title"),
                onclick: () => this.act({ type: "done" }),
              },
              t("pm.done"),
            ),
          ),
        );
      } else {
        const mine = view.players[this.seat];
        bar.push(
          h(
            "div",
            { class: "finish done", testid: "finished" },
            mine.black_token ? h("span", { class: "black-token" }, stars(mine.black_token)) : null,
            h("span", {}, t("pm.waiting_others")),
          ),
        );
      }
    }
    // The host's sheet opens from the tool row (from the bar for a host who watches).
    const menu = this.room.hostMenu.button();
    if (parts.hostSlot) replace(parts.hostSlot, menu);
    else bar.push(menu);
    replace(parts.bar, bar);
    this.refreshFocus();
  }

  // The backs of the guesses on my drawing: what the "guessed" cue is about.
  ownStack(mine) {
    const by = mine?.guessed_by || [];
    return h(
      "span",
      {
        class: "own-stack",
        testid: "own-stack",
        role: "img",
        "aria-label": t("table.guessed_on_yours", { n: by.length }),
        dataset: { count: String(by.length) },
      },
      by.map((seat) =>
        h("span", { class: "card-back", title: this.name(seat), style: { background: this.colour(seat) } }),
      ),
    );
  }

  toolButtons() {
    return toolButtons(this.board, this.state.ink_tools, () => replace(this.parts.tools, this.toolButtons()));
  }

  // --- the enlarged drawing: the first tap of a guess -------------------------

  openFocus(seat) {
    this.focus = seat;
    this.refreshFocus(true);
  }

  closeFocus() {
    this.focus = null;
    this.refreshFocus(true);
  }

  refreshFocus(rebuild = false) {
    const layer = this.parts.focus;
    if (!layer) return;
    if (this.focus === null) {
      if (!layer.hidden) {
        this.board.releaseViewer(this.parts.focusCanvas);
        this.parts.focusCanvas = null;
        replace(layer);
        layer.hidden = true;
      }
      return;
    }
    const view = this.view;
    const seat = this.focus;
    const me = view.me || null;
    const guess = this.myGuessOn(seat);
    // A seat removed before this round has no drawing to guess.
    const canGuess = Boolean(me) && !me.finished && !guess && seat !== this.seat && !view.players[seat]?.out;
    if (rebuild || !this.parts.focusCanvas) {
      this.board.releaseViewer(this.parts.focusCanvas);
      this.parts.focusCanvas = this.drawingFrame(seat, { class: "ink-box", testid: "focus-canvas" });
      this.board.mountViewer(seat, this.parts.focusCanvas);
      this.parts.focusInfo = h("div", { class: "focus-info" });
      this.parts.focusCards = h("div", {
        class: "focus-cards",
        tabindex: 0,
        role: "region",
        "aria-label": t("pm.cards_label"),
      });
      replace(
        layer,
        h(
          "div",
          { class: "focus-box", style: { "--c": this.colour(seat) } },
          h(
            "header",
            { class: "focus-head" },
            h("span", { class: "swatch", style: { background: this.colour(seat) } }),
            h("strong", { title: this.name(seat) }, this.name(seat)),
            h("span", { class: "spacer" }),
            h(
              "button",
              { class: "btn small", type: "button", testid: "focus-close", onclick: () => this.closeFocus() },
              t("common.close"),
            ),
          ),
          h("div", { class: "canvas-frame large" }, this.parts.focusCanvas),
          this.parts.focusInfo,
          this.parts.focusCards,
        ),
      );
      layer.hidden = false;
    }
    // 2nd edition: the first guess freezes your own drawing; say so before it (once a game).
    const freezeKey = `atelier.freeze-told.${this.room.code}`;
    const warnFreeze =
      canGuess && view.edition !== "first" && !(me.guesses || []).length && !localStorage.getItem(freezeKey);
    replace(
      this.parts.focusInfo,
      warnFreeze ? h("p", { class: "notice", testid: "freeze-notice", role: "note" }, t("pm.freeze_notice")) : null,
      guess
        ? h("p", { class: "hint", testid: "focus-guessed" }, t("pm.you_guessed", { n: guess.number }))
        : canGuess
          ? h("p", { class: "hint" }, tn("pm.pick_word", { name: h("span", { class: "nobr" }, this.name(seat)) }))
          : me?.finished
            ? h("p", { class: "hint" }, t("pm.you_are_done"))
            : null,
    );
    replace(
      this.parts.focusCards,
      wordCards(view, {
        spent: new Set(me?.spent || []),
        mine: me ? { label: me.letter, number: me.number } : null,
        onWord: canGuess
          ? (number) => {
              if (warnFreeze) localStorage.setItem(freezeKey, "1");
              this.closeFocus();
              this.act({ type: "guess", target: seat, number });
            }
          : null,
      }),
    );
  }
}
