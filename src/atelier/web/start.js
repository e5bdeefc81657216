// The start page: create a room, or join one by its short code.

import { h, radioKeys, toast } from "./dom.js";
import { formIsValid } from "./field_check.js";
import { errorText, lang, LANGUAGES, t } from "./i18n.js";
import { rulesButton } from "./rules.js";
import { startChoices } from "./settings.js";
import { storeHostKey } from "./net.js";
import { gameNames, gameOf } from "./games.js";
import { scrollBehavior } from "./motion.js";
import { myGamesCard } from "./my_games.js";

const CODE_CHARS = /[^23456789ABCDEFGHJKMNPQRSTUVWXYZ]/g;

export function renderStart({ shell, go }) {
  const names = gameNames(); // the games with screens, in the server's order
  let game = names[0];
  let choices = {};
  const gameList = h("div", { class: "choice-row", role: "radiogroup", "aria-label": t("start.game") });
  const choiceBox = h("div", { class: "start-choices" });

  function drawGames() {
    gameList.replaceChildren(
      ...names.map((name) =>
        h(
          "button",
          {
            type: "button",
            class: `choice ${name === game ? "selected" : ""}`,
            role: "radio",
            "aria-checked": String(name === game),
            testid: `game-${name}`,
            onclick: () => {
              game = name;
              drawGames();
            },
          },
          h("strong", {}, t(`game.${name}`)),
          h("small", {}, t(`game.${name}.tagline`)),
        ),
      ),
    );
    radioKeys(gameList);
    choices = {};
    choiceBox.replaceChildren(...startChoices(game, choices));
  }
  drawGames();

  const wordLang = h(
    "select",
    { testid: "create-language", class: "input" },
    LANGUAGES.map((code) => h("option", { value: code, selected: code === lang() }, t(`lang.${code}`))),
  );
  const createButton = h(
    "button",
    { class: "btn primary big", type: "submit", testid: "create-room" },
    t("start.create"),
  );

  async function create(event) {
    event.preventDefault();
    // a refused field says why under itself and gets focus (field_check.js)
    if (!formIsValid(event.target)) return;
    createButton.disabled = true;
    try {
      const response = await fetch(`/api/rooms?lang=${lang()}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          game,
          settings: gameOf(game).wordLanguage ? { ...choices, language: wordLang.value } : choices,
          language: wordLang.value,
        }),
      });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw data;
      storeHostKey(data.code, data.host_key);
      go(`/r/${data.code}`);
    } catch (error) {
      toast(errorText(error));
      createButton.disabled = false;
    }
  }

  const codeInput = h("input", {
    class: "input code-input",
    testid: "join-code",
    maxlength: 6,
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    id: "join-code",
    // words, not letters: a sample code in grey reads as one already filled in
    placeholder: t("start.code_hint"),
    oninput: (event) => {
      event.target.value = event.target.value.toUpperCase().replace(CODE_CHARS, "");
    },
  });

  function join(event) {
    event.preventDefault();
    const code = codeInput.value.trim().toUpperCase();
    if (code.length !== 6) {
      toast(t("start.code_invalid"));
      return;
    }
    go(`/r/${code}`);
  }

  // a game's own card under the forms (Piet: its guided game and puzzles),
  // with a link to it at the top: on a phone it is far below the fold
  const cards = names.map((name) => {
    const card = gameOf(name).startCard?.(go, shell);
    if (card) card.id = `start-card-${name}`;
    return card ?? null;
  });
  const jumps = cards.filter(Boolean).map((card) =>
    h(
      "a",
      {
        class: "hero-link",
        href: `#${card.id}`,
        testid: `jump-${card.id}`,
        onclick: (event) => {
          event.preventDefault(); // the page is not routed anew, only scrolled
          card.scrollIntoView({ behavior: scrollBehavior(), block: "start" });
          card.querySelector("button, a")?.focus({ preventScroll: true });
        },
      },
      card.querySelector("h2")?.textContent ?? "",
      h("span", { "aria-hidden": "true" }, " ↓"),
    ),
  );

  shell(
    null,
    h(
      "main",
      { class: "page start", testid: "start-page" },
      h(
        "section",
        { class: "hero" },
        h("h1", {}, t("start.title")),
        h("p", {}, t("start.tagline")),
        jumps.length ? h("p", { class: "hero-links" }, jumps) : null,
      ),
      // the games this device holds a seat in, your turn first (hidden when none)
      myGamesCard(go),
      // Joining first: most people at the table join a room someone made, and a
      // phone shows this without scrolling.
      h(
        "form",
        { class: "card", testid: "join-form", onsubmit: join },
        h("h2", {}, t("start.join_room")),
        h("label", { class: "label", for: "join-code" }, t("start.code")),
        h(
          "div",
          { class: "inline" },
          codeInput,
          h("button", { class: "btn primary", type: "submit", testid: "join-room" }, t("start.join")),
        ),
      ),
      h(
        "form",
        // novalidate: the page shows why a field is refused, in its own language
        { class: "card", testid: "create-form", onsubmit: create, novalidate: true },
        h("h2", {}, t("start.new_room")),
        h("div", { class: "field" }, h("span", { class: "label" }, t("start.game")), gameList),
        h("label", { class: "field" }, h("span", { class: "label" }, t("start.word_language")), wordLang),
        choiceBox,
        h("p", { class: "hint" }, t("start.more_settings")),
        h("div", { class: "actions" }, createButton, rulesButton(game)),
      ),
      cards,
    ),
  );
}
