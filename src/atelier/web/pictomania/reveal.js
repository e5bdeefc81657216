// The scoring reveal: every stack turned over one by one (the drawer's word,
// then each guess in order, right or wrong, and the token it won), then the
// black sheep, each player's breakdown and the running totals; void drawing
// controls and the confirmation that leads to the next round.

import { cardMark } from "./cards.js";
import { colourCss, h, nameList, nameTag, replace, scoreTable, stars, wholeWords } from "../dom.js";
import { deckLanguage, heading, t, tn } from "../i18n.js";
import { scrollBehavior } from "../motion.js";
import { replayButton } from "../replay_player.js";
import { RevealSteps } from "../reveal_steps.js";

const STEP_MS = 900;

export class Reveal {
  constructor(screen) {
    this.screen = screen;
    this.pace = null; // RevealSteps, once built
    this.viewers = [];
    this.parts = {};
  }

  get result() {
    return this.screen.view.round_result;
  }

  get storeKey() {
    return `atelier.reveal.${this.screen.room.code}.${this.screen.view.round}`;
  }

  destroy() {
    this.pace?.stop();
    for (const el of this.viewers) this.screen.board.releaseViewer(el);
    this.viewers = [];
  }

  // Steps: one per drawing (its word), one per guess on it.
  steps() {
    const out = [];
    for (const d of this.result.drawings) {
      out.push({ seat: d.seat, guess: -1 });
      d.guesses.forEach((_, i) => out.push({ seat: d.seat, guess: i }));
    }
    return out;
  }

  build() {
    const screen = this.screen;
    const view = screen.view;
    this.pace = new RevealSteps(screen.room, this.storeKey, this.steps().length, {
      paint: () => this.paintStacks(),
      finished: () => this.refresh(),
    });
    const main = h("main", { class: "page pm-review", testid: "pm-review" });
    this.parts.head = h(
      "section",
      { class: "review-head" },
      h("h2", {}, t("pm.scoring_title", { n: view.round })),
      this.result.ended_by ? h("p", { class: "hint" }, t(`pm.ended_${this.result.ended_by}`)) : null,
      this.result.learning_round ? h("p", { class: "hint" }, t("pm.learning_round")) : null,
    );
    this.parts.skip = h(
      "button",
      { class: "btn small", type: "button", testid: "reveal-skip", onclick: () => this.pace.skip() },
      t("pm.reveal_skip"),
    );
    this.parts.stacks = h("section", { class: "stacks", testid: "stacks" });
    this.parts.summary = h("section", { class: "summary", testid: "summary", hidden: true });
    this.parts.controls = h("section", { class: "review-controls", testid: "review-controls" });
    main.append(
      this.parts.head,
      h("div", { class: "actions" }, this.parts.skip),
      this.parts.stacks,
      this.parts.summary,
      this.parts.controls,
    );
    screen.room.shell(screen.topline(), main);
    this.buildStacks();
    this.pace.start(STEP_MS);
    return main;
  }

  get done() {
    return this.pace.done;
  }

  buildStacks() {
    this.parts.stackEls = new Map();
    for (const d of this.result.drawings) {
      const frame = this.screen.drawingFrame(d.seat, { class: "canvas-frame thumb" });
      this.screen.board.mountViewer(d.seat, frame);
      this.viewers.push(frame);
      const word = h("div", { class: "stack-word" });
      const list = h("ol", { class: "stack-guesses" });
      const el = h(
        "article",
        {
          class: "stack-card",
          testid: `stack-${d.seat}`,
          dataset: { seat: String(d.seat) },
          style: { "--c": colourCss(this.screen.player(d.seat)?.colour) },
        },
        frame,
        h(
          "div",
          { class: "stack-body" },
          h(
            "div",
            { class: "stack-drawer" },
            h("span", { class: "swatch small", style: { background: colourCss(this.screen.player(d.seat)?.colour) } }),
            nameTag(this.screen.name(d.seat), "stack-name"),
          ),
          word,
          list,
          this.replayButton(d.seat),
        ),
      );
      this.parts.stackEls.set(d.seat, { el, word, list });
      this.parts.stacks.append(el);
    }
    this.paintStacks();
  }

  // Replays this round's drawing of ``seat``, its guesses on the timeline.
  replayButton(seat) {
    const screen = this.screen;
    return replayButton(() => ({
      code: screen.room.code,
      key: `${screen.state.room.ink_prefix || ""}round-${this.result.round}`,
      seat,
      who: (s) => ({ name: screen.name(s), colour: screen.player(s)?.colour }),
      title: t("replay.title", { name: screen.name(seat) }),
    }));
  }

  wordFor(drawing, number) {
    const cards = this.result.cards;
    const card = cards.find((c) => c.label === drawing.letter) || cards[0];
    return card?.words[number - 1] ?? "";
  }

  tokenWon(guesser, drawer) {
    const p = this.result.players.find((x) => x.seat === guesser);
    return p?.tokens_received.find((r) => r.from === drawer)?.value ?? null;
  }

  paintStacks() {
    const steps = this.steps();
    const shownSteps = steps.slice(0, this.pace.shown);
    const current = this.done ? null : steps[this.pace.shown];
    const view = this.screen.view;
    for (const d of this.result.drawings) {
      const { el, word, list } = this.parts.stackEls.get(d.seat);
      const turned = shownSteps.some((s) => s.seat === d.seat);
      el.classList.toggle("turned", turned);
      el.classList.toggle("current", Boolean(current && current.seat === d.seat));
      el.classList.toggle("void", d.void);
      if (!turned) {
        replace(word, h("span", { class: "face-down" }, t("pm.face_down", { n: d.guesses.length })));
        replace(list);
        continue;
      }
      replace(
        word,
        h("span", { class: "secret-code" }, `${cardMark(view, d.letter)}${d.letter ? " " : ""}${d.number}`),
        h(
          "span",
          {
            class: `stack-word-text ${d.word.length > 20 ? "long" : ""}`,
            testid: "stack-word",
            lang: deckLanguage(),
            title: d.word, // whole, where a very long word is cut short on the TV
          },
          wholeWords(d.word),
        ),
        d.void ? h("span", { class: "badge void-badge" }, t("pm.void")) : null,
      );
      const visible = shownSteps.filter((s) => s.seat === d.seat && s.guess >= 0).length;
      replace(
        list,
        d.guesses.slice(0, visible).map((g) => {
          const won = g.correct ? this.tokenWon(g.by, d.seat) : null;
          const verdict = g.correct === true ? "right" : g.correct === false ? "wrong" : "returned";
          return h(
            "li",
            { class: `guess ${verdict}`, testid: "revealed-guess", dataset: { verdict } },
            h("span", { class: "swatch small", style: { background: colourCss(this.screen.player(g.by)?.colour) } }),
            nameTag(this.screen.name(g.by), "guess-name"),
            // the guessed word with its verdict: beside the name, or on a line of its own
            h(
              "span",
              { class: "guess-what" },
              h(
                "span",
                { class: "guess-word", lang: deckLanguage() },
                `${g.number} · `,
                wholeWords(this.wordFor(d, g.number)),
              ),
              h("span", { class: "verdict" }, verdict === "right" ? "✓" : verdict === "wrong" ? "✗" : "↩"),
              won ? h("span", { class: "token-won" }, stars(won)) : null,
            ),
          );
        }),
      );
      if (current && current.seat === d.seat) el.scrollIntoView({ block: "nearest", behavior: scrollBehavior() });
    }
    this.parts.skip.hidden = this.done;
  }

  refresh() {
    if (!this.parts.summary) return;
    this.parts.summary.hidden = !this.done;
    if (this.done) this.paintSummary();
    this.paintControls();
  }

  paintSummary() {
    const screen = this.screen;
    const view = screen.view;
    const result = this.result;
    const sheep = result.black_sheep;
    const rows = result.players.map((p) => {
      const received = p.tokens_received.map((r) => r.value);
      const receivedSum = received.reduce((a, b) => a + b, 0);
      const keptSum = p.tokens_kept.reduce((a, b) => a + b, 0);
      let black = "–";
      if (p.black_token) {
        const sign = p.black_token_counted === "+" ? "+" : p.black_token_counted === "-" ? "−" : "±";
        black = p.black_token_counted === "0" ? `0 (${stars(p.black_token)})` : `${sign}${p.black_token}`;
      }
      // the server says the running total; rounds saved before it did, the client adds
      const total = p.total ?? (view.totals[p.seat] || 0) + p.score;
      return h(
        "tr",
        { testid: "score-row", dataset: { seat: String(p.seat), score: String(p.score), total: String(total) } },
        h(
          "th",
          { scope: "row" },
          h(
            "span",
            { class: "who" },
            h("span", { class: "swatch small", style: { background: colourCss(screen.player(p.seat)?.colour) } }),
            nameTag(screen.name(p.seat)),
          ),
          p.seat === sheep ? h("span", { class: "badge sheep", testid: "sheep-badge" }, t("pm.black_sheep")) : null,
        ),
        h(
          "td",
          {},
          received.length ? `+${receivedSum}` : "0",
          received.length > 1 ? h("small", {}, ` (${received.join("+")})`) : null,
        ),
        h("td", {}, keptSum ? `−${keptSum}` : "0"),
        h("td", {}, black),
        h("td", { class: "score" }, p.score > 0 ? `+${p.score}` : String(p.score)),
        h("td", { class: "total", testid: "running-total" }, String(total)),
      );
    });
    replace(
      this.parts.summary,
      h(
        "p",
        { class: "sheep-line", testid: "black-sheep" },
        result.learning_round
          ? t("pm.no_sheep_learning")
          : sheep === null || sheep === undefined
            ? t("pm.no_black_sheep")
            : tn("pm.is_black_sheep", { name: nameList([screen.name(sheep)]) }),
      ),
      scoreTable(
        "score-table",
        ["pm.col_player", "pm.col_received", "pm.col_kept", "pm.col_black", "pm.col_round", "pm.col_total"].map(
          heading,
        ),
        rows,
        t("pm.scoring_title", { n: view.round }),
      ),
    );
  }

  paintControls() {
    const screen = this.screen;
    const view = screen.view;
    const result = this.result;
    const me = screen.seat;
    const parts = [];
    if (this.done && me !== null) {
      // Void drawings: the drawer admits, the others vote (the engine decides).
      parts.push(h("h3", {}, t("pm.void_title")), h("p", { class: "hint" }, t("pm.void_hint")));
      parts.push(
        h(
          "ul",
          { class: "void-list" },
          result.drawings.map((d) => {
            const own = d.seat === me;
            const mark = own ? d.void_admitted : d.void_votes.includes(me);
            return h(
              "li",
              { class: "void-item" },
              h("span", { class: "swatch small", style: { background: colourCss(screen.player(d.seat)?.colour) } }),
              nameTag(screen.name(d.seat), "void-name"),
              d.void ? h("span", { class: "badge void-badge" }, t("pm.void")) : null,
              d.void_votes.length
                ? h("small", { class: "muted" }, t("pm.void_votes", { n: d.void_votes.length }))
                : null,
              h("span", { class: "spacer" }),
              // 1st edition: nothing drawn is void without a vote.
              d.blank
                ? h("small", { class: "muted", testid: `blank-${d.seat}` }, t("pm.blank"))
                : h(
                    "button",
                    {
                      class: `btn small ${mark ? "selected" : ""}`,
                      type: "button",
                      testid: `void-${d.seat}`,
                      "aria-pressed": String(mark),
                      onclick: () => screen.act({ type: "void", target: d.seat, void: !mark }),
                    },
                    own
                      ? mark
                        ? t("pm.void_withdraw")
                        : t("pm.void_admit")
                      : mark
                        ? t("pm.void_unvote")
                        : t("pm.void_vote"),
                  ),
            );
          }),
        ),
      );
    }
    const buttons = [];
    const mine = me === null ? null : view.players[me];
    const last = view.round >= view.rounds;
    if (mine && this.done) {
      buttons.push(
        h(
          "button",
          {
            class: `btn big ${mine.confirmed ? "" : "primary"}`,
            type: "button",
            testid: "confirm",
            disabled: mine.confirmed,
            onclick: () => screen.act({ type: "confirm" }),
          },
          mine.confirmed ? t("pm.confirmed") : last ? t("pm.confirm_last") : t("pm.confirm"),
        ),
      );
    }
    if (screen.state.you.host) {
      buttons.push(
        h(
          "button",
          { class: "btn ghost", type: "button", testid: "host-next", onclick: () => screen.room.send({ t: "next" }) },
          last ? t("pm.host_finish") : t("pm.host_next"),
        ),
      );
    }
    const waiting = view.players.filter((p) => !p.confirmed).map((p) => screen.name(p.seat));
    replace(
      this.parts.controls,
      parts,
      h("div", { class: "actions" }, buttons),
      this.done && waiting.length
        ? h("p", { class: "hint", testid: "waiting-confirm" }, tn("pm.waiting_for", { names: nameList(waiting) }))
        : null,
    );
  }
}
