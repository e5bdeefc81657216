// The end of the game: the last round's reveal, then the winner or shared
// winners, every round's points and the totals, and the gallery of every
// drawing with its hidden word, location and author (each as PNG).

import { h, nameList, nameTag, replace, scoreTable } from "../dom.js";
import { heading, t, tn } from "../i18n.js";
import { galleryItem, galleryRounds } from "../gallery.js";
import { againPanel } from "../again.js";
import { scrollBehavior } from "../motion.js";
import { RevealCards, roundTable } from "./reveal.js";

export class FinalResults {
  constructor(screen) {
    this.screen = screen;
    this.parts = {};
  }

  get history() {
    return this.screen.view.history || [];
  }

  build() {
    const screen = this.screen;
    const last = this.history[this.history.length - 1];
    this.parts.results = h("div", { class: "ig-final", testid: "ig-final", hidden: true });
    const main = h("main", { class: "page ig-over", testid: "ig-over" });
    if (last) {
      this.cards = new RevealCards(screen, last, { onDone: () => this.showResults() });
      main.append(h("h2", {}, t("ig.reveal_title", { n: last.round })), this.cards.build());
      this.parts.lastTable = h("section", { class: "summary", hidden: true });
      main.append(this.parts.lastTable);
    }
    main.append(this.parts.results);
    return main;
  }

  mounted() {
    if (this.cards) this.cards.mounted();
    else this.showResults();
  }

  destroy() {
    this.cards?.destroy();
  }

  refresh() {}

  showResults() {
    const results = this.parts.results;
    if (!results.hidden) return;
    const screen = this.screen;
    const view = screen.view;
    const last = this.history[this.history.length - 1];
    if (last && this.parts.lastTable) {
      this.parts.lastTable.hidden = false;
      replace(this.parts.lastTable, h("h3", {}, t("ig.scores_title")), roundTable(screen, last, view.totals));
    }
    replace(
      results,
      this.podium(),
      againPanel(screen.room),
      this.roundsTable(),
      this.gallery(),
      h("div", { class: "actions" }, h("a", { class: "btn primary", href: "/" }, t("ig.new_game"))),
    );
    results.hidden = false;
    results.scrollIntoView?.({ block: "start", behavior: scrollBehavior() });
  }

  podium() {
    const screen = this.screen;
    const view = screen.view;
    const winners = new Set(view.winners || []);
    const names = [...winners].map((s) => screen.name(s));
    const order = view.players.map((p) => p.seat).sort((a, b) => view.totals[b] - view.totals[a]);
    return h(
      "section",
      { class: "card winners", testid: "ig-winners" },
      h("div", { class: "trophy", "aria-hidden": "true" }, "★"), // no emoji font needed, as in Pictomania
      h(
        "h2",
        { testid: "ig-winner-line" },
        names.length > 1
          ? tn("ig.winners_shared", { names: nameList(names) })
          : tn("ig.winner", { name: nameList(names.slice(0, 1)) }),
      ),
      h(
        "ol",
        { class: "final-list", testid: "ig-final-scores" },
        order.map((seat) =>
          h(
            "li",
            {
              class: winners.has(seat) ? "won" : "",
              testid: "ig-final-row",
              dataset: { seat: String(seat), total: String(view.totals[seat]) },
            },
            screen.swatch(seat),
            nameTag(screen.name(seat), "final-name"),
            h("span", { class: "final-total" }, t("ig.points", { n: view.totals[seat] })),
          ),
        ),
      ),
    );
  }

  // Every round's points side by side, and the totals.
  roundsTable() {
    const screen = this.screen;
    const view = screen.view;
    return h(
      "section",
      { class: "card" },
      h("h2", {}, t("ig.all_rounds")),
      scoreTable(
        "ig-rounds-table",
        [
          t("ig.col_player"),
          ...this.history.map((r) => heading("ig.col_round_n", { n: r.round })),
          heading("ig.col_total"),
        ],
        view.players.map((p) =>
          h(
            "tr",
            { testid: "ig-rounds-row", dataset: { seat: String(p.seat), total: String(view.totals[p.seat]) } },
            h("th", { scope: "row" }, h("span", { class: "who" }, screen.swatch(p.seat), nameTag(screen.name(p.seat)))),
            this.history.map((r) => h("td", {}, String(r.points[p.seat]))),
            h("td", { class: "total" }, String(view.totals[p.seat])),
          ),
        ),
      ),
    );
  }

  gallery() {
    const screen = this.screen;
    return h(
      "section",
      { class: "card gallery", testid: "ig-gallery" },
      h("h2", {}, t("ig.gallery")),
      galleryRounds(
        screen,
        this.history,
        (round) => t("ig.round_short", { n: round.round }),
        (d, key) =>
          galleryItem(screen, {
            key,
            seat: d.author,
            word: d.word,
            title: t("ig.drawing_alt", { word: d.word, location: d.location, name: screen.name(d.author) }),
            download: t("ig.download"),
            details: [h("span", { class: "ig-gallery-location" }, d.location)],
            prefix: "ig-",
          }),
      ),
    );
  }
}
