// The end of the game: the winner(s), the final totals, and a gallery of
// every drawing with its word and drawer, each downloadable as PNG.

import { colourCss, h, nameList, nameTag, wholeWords } from "./dom.js";
import { deckLanguage, t, tn } from "./i18n.js";
import { againPanel } from "./again.js";
import { replayButton } from "./replay_player.js";

export function pngUrl(code, key, seat, size) {
  const query = size ? `?size=${size}` : "";
  return `/api/rooms/${encodeURIComponent(code)}/drawings/${encodeURIComponent(key)}/${seat}.png${query}`;
}

// One drawing in a gallery (Pictomania's and Incognito's): the picture, its
// word and what else the game says of it, who drew it, a PNG download and its
// replay. prefix: the testids' ("ig-" in Incognito).
export function galleryItem(screen, { key, seat, word, title, download, details = [], prefix = "" }) {
  const code = screen.room.code;
  const name = screen.name(seat);
  const file = `${code}-${key}-${name}.png`.replace(/[^\p{L}\p{N}._-]+/gu, "_");
  return h(
    "figure",
    {
      class: "gallery-item",
      testid: `${prefix}gallery-item`,
      dataset: { key, seat: String(seat) },
      style: { "--c": screen.colour(seat) },
    },
    h("img", {
      src: pngUrl(code, key, seat, 512),
      alt: title,
      loading: "lazy",
      width: 512,
      height: 512,
      // blank paper if the picture cannot be had (an empty drawing is served blank)
      onerror: (event) =>
        event.target.replaceWith(h("div", { class: "gallery-blank", testid: `${prefix}gallery-blank` })),
    }),
    h(
      "figcaption",
      {},
      h("strong", { testid: `${prefix}gallery-word`, lang: deckLanguage() }, wholeWords(word)),
      details,
      nameTag(name, "muted gallery-name"),
      h(
        "a",
        { class: "btn small", href: pngUrl(code, key, seat), download: file, testid: `${prefix}gallery-download` },
        download,
      ),
      replayButton(() => ({
        code,
        key,
        seat,
        title,
        who: (s) => ({ name: screen.name(s), colour: screen.player(s)?.colour }),
      })),
    ),
  );
}

// A gallery's rounds: each a heading and a grid of its drawings, item(drawing, key) each.
export function galleryRounds(screen, rounds, heading, item) {
  return rounds.map((round) => {
    const key = `${screen.state.room.ink_prefix || ""}round-${round.round}`;
    return h(
      "section",
      { class: "gallery-round" },
      h("h3", {}, heading(round)),
      h(
        "div",
        { class: "gallery-grid" },
        round.drawings.map((d) => item(d, key)),
      ),
    );
  });
}

export function renderGallery(screen) {
  const view = screen.view;
  const winners = new Set(view.winners || []);
  const order = view.players.map((p) => p.seat).sort((a, b) => view.totals[b] - view.totals[a]);
  const names = [...winners].map((s) => screen.name(s));

  const podium = h(
    "section",
    { class: "card winners", testid: "winners" },
    h("div", { class: "trophy", "aria-hidden": "true" }, "★"),
    h(
      "h2",
      {},
      names.length > 1
        ? tn("pm.winners_shared", { names: nameList(names) })
        : tn("pm.winner", { name: nameList(names.slice(0, 1)) }),
    ),
    h(
      "ol",
      { class: "final-list", testid: "final-scores" },
      order.map((seat) =>
        h(
          "li",
          {
            class: winners.has(seat) ? "won" : "",
            testid: "final-row",
            dataset: { seat: String(seat), total: String(view.totals[seat]) },
          },
          h("span", { class: "swatch small", style: { background: colourCss(screen.player(seat)?.colour) } }),
          nameTag(screen.name(seat), "final-name"),
          h("span", { class: "final-total" }, t("pm.points", { n: view.totals[seat] })),
        ),
      ),
    ),
  );

  const rounds = galleryRounds(
    screen,
    view.history || [],
    (round) => t("pm.round_n", { n: round.round }),
    (d, key) =>
      galleryItem(screen, {
        key,
        seat: d.seat,
        word: d.word,
        title: t("pm.drawing_of", { word: d.word, name: screen.name(d.seat) }),
        download: t("pm.download"),
      }),
  );

  const main = h(
    "main",
    { class: "page pm-over", testid: "pm-over" },
    podium,
    againPanel(screen.room),
    h("section", { class: "card gallery", testid: "gallery" }, h("h2", {}, t("pm.gallery")), rounds),
    h("div", { class: "actions" }, h("a", { class: "btn primary", href: "/" }, t("pm.new_game"))),
  );
  screen.room.shell(h("span", { class: "room-title" }, t("pm.game_over"), screen.room.connectionBadge()), main);
  return main;
}
