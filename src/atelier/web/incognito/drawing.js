// The drawing phase: everyone's location card is public, the secret word
// only its author's; I draw on my own canvas until I say I'm done (or the
// countdown locks it). Others' drawings stay hidden until the vote.

import { h, replace, wholeWords } from "../dom.js";
import { deckLanguage, t } from "../i18n.js";
import { rulesButton } from "../rules.js";
import { toolButtons } from "./parts.js";

export class DrawingPhase {
  constructor(screen) {
    this.screen = screen;
    this.parts = {};
  }

  build() {
    const screen = this.screen;
    const parts = this.parts;
    const main = h("main", { class: "ig ig-drawing", testid: "ig-drawing" });
    parts.brief = h("section", { class: "ig-brief", testid: "ig-brief" });
    parts.banner = h("div", { class: "ig-countdown", testid: "ig-countdown", hidden: true });
    parts.table = h("section", { class: "ig-table", testid: "ig-table" });
    parts.bar = h("section", { class: "ig-bar", testid: "ig-bar" });
    if (screen.seat !== null) {
      parts.canvasBox = h("div", { class: "ink-box" });
      parts.canvasHost = h(
        "div",
        { class: "canvas-frame mine", testid: "ig-canvas", role: "img", "aria-label": t("ink.your_drawing") },
        parts.canvasBox,
      );
      parts.lock = h("div", { class: "canvas-lock", testid: "canvas-locked", hidden: true });
      parts.tools = h("div", { class: "tools", testid: "tools" });
      parts.hostSlot = h("span", { class: "host-slot" });
      parts.mine = h("section", { class: "ig-mine" }, parts.canvasHost, parts.lock);
      parts.toolrow = h("div", { class: "ig-toolrow" }, parts.tools, parts.hostSlot);
      main.append(parts.brief, parts.banner, parts.mine, parts.toolrow, parts.table, parts.bar);
    } else {
      main.classList.add("spectating");
      main.append(
        parts.banner,
        h("p", { class: "hint ig-hidden-note" }, t("ig.drawings_hidden")),
        parts.table,
        parts.bar,
      );
    }
    return main;
  }

  mounted() {
    if (this.parts.canvasBox) this.screen.board.mountOwn(this.parts.canvasBox);
  }

  refresh() {
    const screen = this.screen;
    const view = screen.view;
    const me = screen.me;
    const parts = this.parts;

    if (me) {
      replace(
        parts.brief,
        h(
          "div",
          { class: "ig-card ig-location", testid: "ig-location" },
          h("span", { class: "ig-card-label" }, t("ig.your_location")),
          h(
            "strong",
            { class: "ig-card-text", testid: "ig-location-text", lang: deckLanguage() },
            wholeWords(me.location),
          ),
        ),
        h(
          "div",
          { class: "ig-card ig-secret", testid: "ig-secret" },
          h("span", { class: "ig-card-label" }, t("ig.your_word")),
          h("strong", { class: "ig-card-text", testid: "ig-secret-word", lang: deckLanguage() }, wholeWords(view.word)),
          h("span", { class: "ig-card-note" }, t("ig.only_you")),
        ),
      );
      const locked = !screen.state.may_draw;
      parts.lock.hidden = !locked;
      parts.mine.classList.toggle("locked", locked);
      parts.lock.textContent = me.done_drawing ? t("ig.locked_done") : t("ig.locked_time");
      replace(parts.tools, locked ? [] : toolButtons(screen, () => this.refresh()));
    }

    // Everyone's location card and whether they have finished.
    replace(
      parts.table,
      h("h3", { class: "ig-table-title" }, t("ig.table")),
      h(
        "ul",
        { class: "ig-players", testid: "ig-players" },
        view.players.map((p) =>
          h(
            "li",
            {
              class: `ig-player ${p.done_drawing ? "done" : ""}`,
              testid: "ig-player",
              title: `${screen.name(p.seat)}: ${p.done_drawing ? t("ig.finished") : t("ig.drawing")}`,
              dataset: { seat: String(p.seat), done: String(p.done_drawing) },
              style: { "--c": screen.colour(p.seat) },
            },
            screen.swatch(p.seat),
            h("span", { class: "ig-player-name", title: screen.name(p.seat) }, screen.name(p.seat)),
            h("span", { class: "ig-player-location", lang: deckLanguage() }, wholeWords(p.location)),
            h(
              "span",
              { class: "ig-player-state" },
              h("span", { "aria-hidden": "true" }, p.done_drawing ? "✓" : "✎"),
              h("span", { class: "ig-player-state-text" }, ` ${p.done_drawing ? t("ig.finished") : t("ig.drawing")}`),
            ),
          ),
        ),
      ),
    );

    const bar = [];
    if (me) {
      if (!me.done_drawing && screen.state.may_draw) {
        bar.push(
          h(
            "button",
            {
              class: "btn big primary",
              type: "button",
              testid: "ig-done-drawing",
              onclick: () => screen.act({ type: "done_drawing" }),
            },
            t("ig.done_drawing"),
          ),
        );
      } else {
        bar.push(h("span", { class: "hint", testid: "ig-waiting" }, t("ig.waiting_drawers")));
      }
    }
    bar.push(rulesButton("incognito", "small"));
    const menu = screen.room.hostMenu.button();
    if (parts.hostSlot) replace(parts.hostSlot, menu);
    else bar.push(menu);
    replace(parts.bar, bar);
  }

  tick(left) {
    const banner = this.parts.banner;
    const view = this.screen.view;
    if (left === null) {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    banner.textContent =
      view.clock === "countdown" ? t("ig.countdown_drawing", { n: left }) : t("ig.time_limit", { n: left });
    banner.classList.toggle("urgent", left <= 10);
  }

  destroy() {}
}
