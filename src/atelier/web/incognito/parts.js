// Small pieces the Incognito phases share: ink tools, the word tiles, the
// vote cards.

import { h, wholeWords, widestWord } from "../dom.js";
import { deckLanguage, t } from "../i18n.js";
import { toolButtons as sharedToolButtons } from "../tools.js";

export const TILES = [1, 2, 3, 4, 5, 6];

// Pen/eraser, undo and clear, as the server's ink_tools allow.
export function toolButtons(screen, redraw) {
  return sharedToolButtons(screen.board, screen.state.ink_tools, redraw);
}

// The six words on their numbered tiles. options: {mine: tile of my word,
// spent: Set of my used numbers, onTile(n) when a tile may be chosen, marks: {n: text}}
export function wordTiles(tiles, options = {}) {
  const spent = options.spent || new Set();
  return h(
    "ol",
    // columns as wide as the widest word needs (incognito.css, .ig-tiles)
    { class: "ig-tiles", testid: "ig-tiles", style: { "--tile-w": String(widestWord(tiles || [])) } },
    (tiles || []).map((word, i) => {
      const n = i + 1;
      const used = spent.has(n);
      const mine = options.mine === n;
      const body = [
        h("span", { class: "ig-tile-num" }, String(n)),
        h("span", { class: "ig-tile-word", lang: deckLanguage() }, wholeWords(word)),
        mine ? h("span", { class: "ig-tile-mine" }, t("ig.tile_yours")) : null,
        options.marks?.[n] ? h("span", { class: "ig-tile-mark" }, options.marks[n]) : null,
      ];
      const attrs = {
        class: `ig-tile ${used ? "spent" : ""} ${mine ? "mine" : ""}`,
        testid: `ig-tile-${n}`,
        dataset: { tile: String(n), spent: String(used) },
      };
      if (options.onTile) {
        return h(
          "li",
          {},
          h("button", { ...attrs, type: "button", disabled: used, onclick: () => options.onTile(n) }, body),
        );
      }
      return h("li", attrs, body);
    }),
  );
}

// My vote cards 1-6, spent ones crossed out.
export function voteCards(spent) {
  return h(
    "div",
    { class: "guess-chips ig-cards", testid: "ig-vote-cards", "aria-label": t("ig.vote_cards") },
    h("span", { class: "label" }, t("ig.vote_cards")),
    TILES.map((n) =>
      h(
        "span",
        {
          class: `chip ${spent.has(n) ? "spent" : ""}`,
          testid: `ig-card-${n}`,
          title: spent.has(n) ? t("ig.spent") : "",
        },
        String(n),
      ),
    ),
  );
}
