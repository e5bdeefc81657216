// The word cards on display: a label (letter or symbol) and seven numbered words.

import { h, wholeWords, widestWord } from "../dom.js";
import { t } from "../i18n.js";

// Symbols stand in for the 1st edition's symbol cards (the view names them 1-6).
const SYMBOLS = { 1: "●", 2: "▲", 3: "■", 4: "◆", 5: "★", 6: "✚" };

export function cardMark(view, label) {
  if (label === null || label === undefined) return "";
  return view.edition === "first" ? SYMBOLS[label] || label : label;
}

// The language of the words on the cards (the room's deck), for screen
// readers; the interface may be in another.
// options: {spent: Set, mine: {label, number}, onWord(number, label), replace(label), canReplace, lang}
export function wordCards(view, options = {}) {
  const spent = options.spent || new Set();
  const mine = options.mine;
  const cards = view.cards || [];
  return h(
    "div",
    {
      class: `word-cards n${cards.length}`,
      testid: "word-cards",
      lang: options.lang || view.language,
      // the cards are laid out in as many columns as hold the widest word
      // whole, and the words shrink only where one column is narrower
      // (styles.css, .word-cards): no word is ever cut
      style: { "--word-w": String(widestWord(cards.flatMap((card) => card.words))) },
    },
    cards.map((card) =>
      h(
        "section",
        { class: `word-card level-${card.level}`, testid: "word-card", dataset: { label: card.label } },
        h(
          "header",
          { class: "word-card-head" },
          h("span", { class: "card-mark", title: t("pm.card", { label: card.label }) }, cardMark(view, card.label)),
          options.replace
            ? h(
                "button",
                {
                  class: "btn small ghost replace",
                  type: "button",
                  testid: `replace-${card.label}`,
                  disabled: !options.canReplace,
                  onclick: () => options.replace(card.label),
                },
                view.edition === "first" ? t("pm.swap") : t("pm.replace"),
              )
            : null,
        ),
        h(
          "ol",
          { class: "words" },
          card.words.map((word, i) => {
            const number = i + 1;
            const isMine = mine && mine.number === number && (mine.label === card.label || mine.label === null);
            const used = spent.has(number);
            const attrs = {
              class: `word ${used ? "spent" : ""} ${isMine ? "mine" : ""}`,
              testid: `word-${card.label}-${number}`,
              dataset: { number: String(number) },
            };
            const body = [h("span", { class: "num" }, number), h("span", { class: "text" }, wholeWords(word))];
            if (options.onWord) {
              return h(
                "li",
                {},
                h(
                  "button",
                  { ...attrs, type: "button", disabled: used, onclick: () => options.onWord(number, card.label) },
                  body,
                ),
              );
            }
            return h("li", attrs, body);
          }),
        ),
      ),
    ),
  );
}

// The seven guessing cards, spent ones crossed out.
export function guessChips(spent, ownNumber) {
  return h(
    "div",
    { class: "guess-chips", testid: "guess-chips", "aria-label": t("pm.your_guess_cards") },
    [1, 2, 3, 4, 5, 6, 7].map((n) =>
      h(
        "span",
        {
          class: `chip ${spent.has(n) ? "spent" : ""} ${n === ownNumber ? "own" : ""}`,
          testid: `chip-${n}`,
          title: spent.has(n) ? t("pm.spent") : "",
        },
        n,
      ),
    ),
  );
}
