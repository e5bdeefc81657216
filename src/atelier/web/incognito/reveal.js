// The reveal of a scored round: drawing by drawing, the hidden word and its
// tile, every vote placed on it (right or wrong, placed at random or not) and
// the author's bonus; then the round's points and the totals; then the
// confirmation that leads to the next round.

import { h, nameList, nameTag, replace, scoreTable, wholeWords } from "../dom.js";
import { deckLanguage, heading, t, tn } from "../i18n.js";
import { RevealSteps } from "../reveal_steps.js";
import { replayButton } from "../replay_player.js";

const STEP_MS = 1100;

// One round's reveal inside a page; the final screen reuses it for the last round.
export class RevealCards {
  constructor(screen, result, { onDone } = {}) {
    this.screen = screen;
    this.result = result;
    this.frames = [];
    this.parts = {};
    const storeKey = `atelier.ig.reveal.${screen.room.code}.${result.round}`;
    this.pace = new RevealSteps(screen.room, storeKey, result.drawings.length, {
      paint: () => this.paint(),
      finished: () => onDone?.(),
    });
  }

  get done() {
    return this.pace.done;
  }

  build() {
    this.parts.skip = h(
      "button",
      { class: "btn small", type: "button", testid: "ig-reveal-skip", onclick: () => this.pace.skip() },
      t("ig.reveal_skip"),
    );
    this.parts.list = h("section", { class: "ig-reveal-list", testid: "ig-reveal" });
    this.parts.els = new Map();
    for (const d of this.result.drawings) {
      const frame = this.screen.drawingFrame(d.author, { class: "canvas-frame thumb" });
      const body = h("div", { class: "ig-reveal-body" });
      const el = h(
        "article",
        {
          class: "ig-reveal-card",
          testid: `ig-reveal-${d.author}`,
          dataset: { seat: String(d.author) },
          style: { "--c": this.screen.colour(d.author) },
        },
        frame,
        body,
      );
      this.frames.push([d.author, frame]);
      this.parts.els.set(d.author, { el, body });
      this.parts.list.append(el);
    }
    return h("div", { class: "ig-reveal-wrap" }, h("div", { class: "actions" }, this.parts.skip), this.parts.list);
  }

  mounted() {
    for (const [seat, frame] of this.frames) this.screen.board.mountViewer(seat, frame);
    this.paint();
    if (!this.pace.start(STEP_MS)) this.pace.finished();
  }

  destroy() {
    this.pace.stop();
  }

  paint() {
    const screen = this.screen;
    const tiles = this.result.tiles;
    const others = this.result.drawings.length - 1;
    this.result.drawings.forEach((d, i) => {
      const { el, body } = this.parts.els.get(d.author);
      const turned = i < this.pace.shown;
      el.classList.toggle("turned", turned);
      el.classList.toggle("current", i === this.pace.shown && !this.done);
      const head = h(
        "div",
        { class: "ig-reveal-head" },
        screen.swatch(d.author),
        nameTag(screen.name(d.author), "ig-reveal-name"),
        h("span", { class: "ig-reveal-location" }, wholeWords(d.location)),
      );
      if (!turned) {
        replace(body, head, h("p", { class: "face-down" }, t("ig.face_down", { n: d.votes.length })));
        return;
      }
      const found = d.found_by.length;
      let bonus;
      if (d.author_points > 0) bonus = t("ig.bonus_yes", { n: d.author_points });
      else if (found === 0) bonus = t("ig.bonus_nobody");
      else bonus = t("ig.bonus_everyone", { n: others });
      replace(
        body,
        head,
        h(
          "div",
          { class: "ig-reveal-word" },
          h("span", { class: "ig-tile-num" }, String(d.tile)),
          h(
            "span",
            { class: "ig-reveal-word-text", testid: "ig-reveal-word", lang: deckLanguage() },
            wholeWords(d.word),
          ),
        ),
        h(
          "ul",
          { class: "ig-votes" },
          d.votes.map((v) =>
            h(
              "li",
              {
                class: `ig-vote ${v.found ? "right" : "wrong"}`,
                testid: "ig-vote",
                dataset: { voter: String(v.voter), found: String(v.found) },
              },
              screen.swatch(v.voter),
              nameTag(screen.name(v.voter), "ig-vote-name"),
              // the tile voted for and the verdict: beside the name, or on a line of their own
              h(
                "span",
                { class: "ig-vote-what" },
                h(
                  "span",
                  { class: "ig-vote-tile", lang: deckLanguage() },
                  `${v.tile} · `,
                  wholeWords(tiles[v.tile - 1] ?? ""),
                ),
                v.random ? h("span", { class: "badge muted", title: t("ig.random_hint") }, t("ig.random")) : null,
                h("span", { class: "verdict" }, v.found ? "✓ +1" : "✗"),
              ),
            ),
          ),
        ),
        h("p", { class: `ig-bonus ${d.author_points > 0 ? "won" : ""}`, testid: "ig-bonus" }, bonus),
        replayButton(() => ({
          code: screen.room.code,
          key: `${screen.state.room.ink_prefix || ""}round-${screen.view.round}`,
          seat: d.author,
          who: (s) => ({ name: screen.name(s), colour: screen.colour(s) }),
          title: t("replay.title", { name: screen.name(d.author) }),
        })),
      );
    });
    this.parts.skip.hidden = this.done;
  }
}

// Points of one round and the running totals; `totalsAfter` are the totals
// once this round is counted.
export function roundTable(screen, result, totalsAfter) {
  const rows = screen.view.players.map((p) =>
    h(
      "tr",
      {
        testid: "ig-score-row",
        dataset: { seat: String(p.seat), points: String(result.points[p.seat]), total: String(totalsAfter[p.seat]) },
      },
      h("th", { scope: "row" }, h("span", { class: "who" }, screen.swatch(p.seat), nameTag(screen.name(p.seat)))),
      h("td", {}, String(result.finding_points[p.seat])),
      h("td", {}, String(result.author_points[p.seat])),
      h("td", { class: "score" }, `+${result.points[p.seat]}`),
      h("td", { class: "total", testid: "ig-running-total" }, String(totalsAfter[p.seat])),
    ),
  );
  const headers = ["ig.col_player", "ig.col_found", "ig.col_hidden", "ig.col_round", "ig.col_total"];
  return scoreTable(
    "ig-score-table",
    headers.map((key) => heading(key)),
    rows,
  );
}

// The scored phase: the reveal, the table, then on to the next round.
export class RoundReveal {
  constructor(screen) {
    this.screen = screen;
    this.parts = {};
  }

  get result() {
    return this.screen.view.reveal;
  }

  build() {
    const screen = this.screen;
    const view = screen.view;
    this.cards = new RevealCards(screen, this.result, { onDone: () => this.refresh() });
    this.parts.summary = h("section", { class: "summary", testid: "ig-summary", hidden: true });
    this.parts.controls = h("section", { class: "review-controls", testid: "ig-controls" });
    return h(
      "main",
      { class: "page ig-review", testid: "ig-scored" },
      h("h2", {}, t("ig.reveal_title", { n: view.round })),
      this.cards.build(),
      this.parts.summary,
      this.parts.controls,
    );
  }

  mounted() {
    this.cards.mounted();
  }

  destroy() {
    this.cards?.destroy();
  }

  refresh() {
    if (!this.cards) return;
    const screen = this.screen;
    const view = screen.view;
    const done = this.cards.done;
    this.parts.summary.hidden = !done;
    if (done) {
      replace(this.parts.summary, h("h3", {}, t("ig.scores_title")), roundTable(screen, this.result, view.totals));
    }
    const me = screen.me;
    const buttons = [];
    if (me && done) {
      buttons.push(
        h(
          "button",
          {
            class: `btn big ${me.confirmed ? "" : "primary"}`,
            type: "button",
            testid: "ig-confirm",
            disabled: me.confirmed,
            onclick: () => screen.act({ type: "confirm" }),
          },
          me.confirmed ? t("ig.confirmed") : t("ig.confirm"),
        ),
      );
    }
    if (screen.state.you.host) {
      buttons.push(
        h(
          "button",
          {
            class: "btn ghost",
            type: "button",
            testid: "ig-host-next",
            onclick: () => screen.room.send({ t: "next" }),
          },
          t("ig.host_next"),
        ),
      );
    }
    const waiting = view.players.filter((p) => !p.confirmed).map((p) => screen.name(p.seat));
    replace(
      this.parts.controls,
      h("div", { class: "actions" }, buttons),
      done && waiting.length
        ? h("p", { class: "hint", testid: "ig-waiting-confirm" }, tn("ig.waiting_for", { names: nameList(waiting) }))
        : null,
    );
  }
}
