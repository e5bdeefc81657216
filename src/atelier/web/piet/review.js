// The review of a finished game or of any record: every move rated by the
// engine (points given away against its best move), turning points marked, a
// chart of the expected margin, and the position before any move with the
// best move shown on the board. The server computes it once per record.

import { colourCss, h, replace } from "../dom.js";
import { errorText, t } from "../i18n.js";
import { points, spread } from "./advice.js";
import { Grid } from "./board.js";
import { marginChart } from "./chart.js";
import { moveFootprint } from "./hints.js";

const cellsOf = (text) => [...String(text || "")].map((c) => (c === "." ? null : c));

// A review view: `load` fetches the answer; `names` are the two players' names.
export class ReviewView {
  constructor({ load, names, colours = [null, null], hinted = [], onClose }) {
    this.load = load;
    this.hinted = new Set(hinted); // plies played after a hint
    this.names = names;
    this.colours = colours;
    this.onClose = onClose;
    this.data = null;
    this.at = null; // the ply being looked at
    this.build();
  }

  build() {
    this.status = h("p", { class: "hint", role: "status", testid: "piet-review-status" }, t("learn.review.computing"));
    this.chart = h("div", { class: "piet-review-chart" });
    this.board = h("section", { class: "piet-review-board", "aria-live": "polite" });
    this.list = h("ol", {
      class: "piet-review-moves",
      testid: "piet-review-moves",
      "aria-label": t("learn.review.moves"),
    });
    const close = h(
      "button",
      { class: "btn", type: "button", testid: "piet-review-close", onclick: () => this.onClose?.() },
      t("learn.review.back"),
    );
    this.el = h(
      "main",
      { class: "piet-review", testid: "piet-review" },
      h("h1", { tabindex: -1 }, t("learn.review.title")),
      this.status,
      this.chart,
      this.board,
      this.list,
      h("div", { class: "actions" }, close),
    );
  }

  async start() {
    try {
      this.data = await this.load();
    } catch (error) {
      this.status.textContent = errorText(error);
      return;
    }
    this.el.dataset.ready = "1";
    this.status.textContent = this.summary();
    this.drawList();
    this.show(this.firstTurning());
  }

  firstTurning() {
    const i = this.data.plies.findIndex((p) => p.turning);
    return i >= 0 ? i : 0;
  }

  summary() {
    const plies = this.data.plies;
    const lost = [0, 1].map((seat) =>
      Math.round(plies.filter((p) => p.player === seat).reduce((sum, p) => sum + Math.max(0, p.loss), 0)),
    );
    return t("learn.review.summary", {
      a: this.names[0],
      b: this.names[1],
      x: lost[0],
      y: lost[1],
      n: plies.filter((p) => p.turning).length,
    });
  }

  drawList() {
    const items = this.data.plies.map((p, i) =>
      h(
        "li",
        { class: p.turning ? "turning" : "", testid: "piet-review-move", dataset: { ply: String(i) } },
        h(
          "button",
          { type: "button", class: "piet-review-pick", "aria-pressed": "false", onclick: () => this.show(i) },
          h("span", { class: "swatch small", style: { background: colourCss(this.colours[p.player] || "grey") } }),
          h("span", { class: "piet-review-n" }, `${i + 1}.`),
          h("code", {}, p.played),
          h(
            "span",
            { class: "piet-review-loss" },
            Math.round(p.loss) > 0 ? t("learn.review.gave", { n: Math.round(p.loss) }) : t("learn.review.good"),
          ),
          p.turning ? h("strong", { class: "piet-review-turn" }, t("learn.review.turning")) : null,
          this.hinted.has(i)
            ? h("span", { class: "badge muted", testid: "piet-review-hinted" }, t("learn.review.hinted"))
            : null,
        ),
      ),
    );
    replace(this.list, items);
  }

  show(i) {
    const plies = this.data.plies;
    if (!plies.length) {
      replace(this.board, h("p", { class: "hint" }, t("learn.review.empty")));
      return;
    }
    this.at = i;
    const p = plies[i];
    for (const li of this.list.children) {
      const here = li.dataset.ply === String(i);
      li.classList.toggle("here", here);
      li.querySelector("button")?.setAttribute("aria-pressed", String(here));
    }
    replace(
      this.chart,
      marginChart(plies, {
        label: t("learn.review.chart", { a: this.names[0], b: this.names[1] }),
        names: this.names,
        selected: i,
        onPick: (k) => this.show(k),
      }),
    );
    const before = this.data.positions[i];
    const best = moveFootprint(p.best);
    const played = moveFootprint(p.played);
    const palette = new Grid({ kind: "palette", width: 3, testid: "piet-review-palette", label: t("pietui.palette") });
    cellsOf(before.palette).forEach((colour, k) => {
      const classes = [];
      if (best.palette.includes(k)) classes.push("hinted");
      if (played.palette.includes(k)) classes.push("played");
      palette.set(k, { colour, classes, disabled: true });
    });
    const canvas = new Grid({
      kind: "canvas",
      width: 4,
      testid: "piet-review-canvas",
      label: t("pietui.canvas_of", { name: this.names[p.player] }),
    });
    cellsOf(before.canvases[p.player]).forEach((colour, k) => {
      const classes = [];
      if (best.canvas.includes(k)) classes.push("hinted");
      if (played.canvas.includes(k)) classes.push("played");
      canvas.set(k, { colour, classes, disabled: true });
    });
    const sameMove = p.best === p.played;
    replace(
      this.board,
      h("h2", {}, t("learn.review.before", { n: i + 1, name: this.names[p.player] })),
      h(
        "p",
        { testid: "piet-review-best" },
        t("learn.review.played", { move: p.played, points: points(p.played_margin) }),
        " ",
        sameMove ? t("learn.review.was_best") : t("learn.review.best", { move: p.best, points: points(p.best_margin) }),
      ),
      // an estimate from played-out games says how far it can be off
      p.exact
        ? h("p", { class: "hint", testid: "piet-review-exact" }, t("learn.review.exact"))
        : h("p", { class: "hint", testid: "piet-review-noise" }, t("learn.review.noise", { noise: spread(p.noise) })),
      h("div", { class: "piet-review-grids" }, palette.el, canvas.el),
      h("p", { class: "hint" }, t("learn.review.legend")),
    );
  }
}
