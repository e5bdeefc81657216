// The end of the game: the winner(s), the final totals, and a gallery of
// every drawing with its word and drawer, each downloadable as PNG.

import { colourCss, h } from "./dom.js";
import { deckLanguage, t } from "./i18n.js";
import { againPanel } from "./again.js";
import { replayButton } from "./replay_player.js";

export function pngUrl(code, key, seat, size) {
  const query = size ? `?size=${size}` : "";
  return `/api/rooms/${encodeURIComponent(code)}/drawings/${encodeURIComponent(key)}/${seat}.png${query}`;
}

export function renderGallery(screen) {
  const view = screen.view;
  const code = screen.room.code;
  const winners = new Set(view.winners || []);
  const order = view.players.map((p) => p.seat).sort((a, b) => view.totals[b] - view.totals[a]);
  const names = [...winners].map((s) => screen.name(s));

  const podium = h(
    "section",
    { class: "card winners", testid: "winners" },
    h("div", { class: "trophy", "aria-hidden": "true" }, "★"),
    h("h2", {}, names.length > 1 ? t("pm.winners_shared", { names: names.join(", ") }) : t("pm.winner", { name: names[0] ?? "" })),
    h(
      "ol",
      { class: "final-list", testid: "final-scores" },
      order.map((seat) =>
        h(
          "li",
          { class: winners.has(seat) ? "won" : "", testid: "final-row", dataset: { seat: String(seat), total: String(view.totals[seat]) } },
          h("span", { class: "swatch small", style: { background: colourCss(screen.player(seat)?.colour) } }),
          h("span", { class: "final-name" }, screen.name(seat)),
          h("span", { class: "final-total" }, t("pm.points", { n: view.totals[seat] })),
        ),
      ),
    ),
  );

  const rounds = (view.history || []).map((round) => {
    const key = `${screen.state.room.ink_prefix || ""}round-${round.round}`;
    return h(
      "section",
      { class: "gallery-round" },
      h("h3", {}, t("pm.round_n", { n: round.round })),
      h(
        "div",
        { class: "gallery-grid" },
        round.drawings.map((d) => {
          const name = screen.name(d.seat);
          const file = `${code}-${key}-${name}.png`.replace(/[^\p{L}\p{N}._-]+/gu, "_");
          return h(
            "figure",
            { class: "gallery-item", testid: "gallery-item", dataset: { key, seat: String(d.seat) }, style: { "--c": colourCss(screen.player(d.seat)?.colour) } },
            h("img", { src: pngUrl(code, key, d.seat, 512), alt: t("pm.drawing_of", { word: d.word, name }), loading: "lazy", width: 512, height: 512 }),
            h(
              "figcaption",
              {},
              h("strong", { testid: "gallery-word", lang: deckLanguage() }, d.word),
              h("span", { class: "muted" }, name),
              h("a", { class: "btn small", href: pngUrl(code, key, d.seat), download: file, testid: "gallery-download" }, t("pm.download")),
              replayButton(() => ({
                code,
                key,
                seat: d.seat,
                who: (s) => ({ name: screen.name(s), colour: screen.player(s)?.colour }),
                title: t("pm.drawing_of", { word: d.word, name }),
              })),
            ),
          );
        }),
      ),
    );
  });

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
