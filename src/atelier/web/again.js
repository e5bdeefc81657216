// After game over: the room's running totals over every game played in it, and
// the host's "Play again" (back to the lobby with everyone still joined).

import { colourCss, h, scoreTable } from "./dom.js";
import { t } from "./i18n.js";

// Wins and points per player over the room's finished games, best first.
export function roomTotals(played) {
  const rows = new Map();
  for (const game of played || []) {
    for (const p of game.players) {
      const row = rows.get(p.id) || { id: p.id, name: p.name, colour: p.colour, wins: 0, points: 0, games: 0 };
      row.name = p.name;
      row.wins += p.won ? 1 : 0;
      row.points += p.score;
      row.games += 1;
      rows.set(p.id, row);
    }
  }
  return [...rows.values()].sort((a, b) => b.wins - a.wins || b.points - a.points);
}

export function againPanel(room) {
  const state = room.state;
  const played = state?.room?.played || [];
  const parts = [];
  if (played.length > 1) {
    parts.push(
      h("h2", {}, t("party.room_totals")),
      h("p", { class: "muted", testid: "games-played" }, t("party.games_played", { n: played.length })),
      scoreTable(
        "room-totals",
        [t("pm.col_player"), t("party.col_wins"), t("party.col_points")],
        roomTotals(played).map((row) =>
          h(
            "tr",
            {
              testid: "room-total-row",
              dataset: { player: row.id, wins: String(row.wins), points: String(row.points) },
            },
            h(
              "th",
              { scope: "row" },
              h("span", { class: "swatch small", style: { background: colourCss(row.colour) } }),
              row.name,
            ),
            h("td", {}, String(row.wins)),
            h("td", { class: "total" }, String(row.points)),
          ),
        ),
      ),
    );
  }
  if (state?.you?.host) {
    parts.push(
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          { class: "btn primary big", type: "button", testid: "play-again", onclick: () => room.send({ t: "again" }) },
          t("party.play_again"),
        ),
      ),
    );
  } else if (state?.you?.player) {
    parts.push(h("p", { class: "hint", testid: "wait-again" }, t("party.wait_again")));
  }
  if (!parts.length) return null;
  return h("section", { class: "card room-again", testid: "room-again" }, parts);
}
