// "My games" on the start page: every game this device holds a seat in, found
// from the player tokens it keeps (net.js keeps them as atelier.token.<CODE>),
// asked of the server in one request (POST /api/my-games). Your turn first,
// then the others running, the lobbies, and the finished ones, which can be
// removed from the list (their token is forgotten).

import { h, nameList } from "./dom.js";
import { t, tn } from "./i18n.js";
import { serverNow, syncClock } from "./clock.js";
import { durationText } from "./duration.js";
import { forgetNudges } from "./push.js";

const PREFIX = "atelier.token.";
const MAX_LISTED = 40; // as the server's bound

export function heldSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(PREFIX)) seats.push({ room: key.slice(PREFIX.length), token: localStorage.getItem(key) });
  }
  return seats.sort((a, b) => a.room.localeCompare(b.room)).slice(0, MAX_LISTED);
}

function forget(code) {
  localStorage.removeItem(PREFIX + code);
  localStorage.removeItem(`atelier.hostkey.${code}`);
  forgetNudges(code);
}

function rank(game) {
  if (game.phase === "playing") return game.your_turn ? 0 : 1;
  return game.phase === "lobby" ? 2 : 3;
}

function statusText(game) {
  if (game.phase === "lobby") return t("mygames.waiting");
  if (game.phase === "over") {
    const r = game.result || { outcome: "draw" };
    const by = r.by ? ` ${t(`mygames.by.${r.by}`)}` : "";
    return `${t(`mygames.${r.outcome}`)}${r.outcome === "draw" ? "" : by}`;
  }
  if (game.your_turn) return t("mygames.your_turn");
  return tn("mygames.their_turn", { name: nameList(game.opponents) });
}

function row(game, redraw) {
  const left =
    game.phase === "playing" && game.deadline ? durationText(Math.max(0, game.deadline - serverNow())) : null;
  const code = game.room;
  return h(
    "li",
    { class: `my-game ${game.your_turn ? "mine" : ""} phase-${game.phase}`, testid: `my-game-${code}` },
    h(
      "a",
      { class: "my-game-link", href: `/r/${code}`, "aria-label": t("mygames.open", { room: code }) },
      h("strong", {}, t(`game.${game.game}`), " · ", h("code", {}, code)),
      h("span", { class: "my-game-status", testid: "my-game-status" }, statusText(game)),
      game.opponents.length ? h("small", {}, tn("mygames.against", { names: nameList(game.opponents) })) : null,
      left ? h("small", { testid: "my-game-left" }, t("mygames.left", { left })) : null,
    ),
    game.phase === "over"
      ? h(
          "button",
          {
            class: "btn small",
            type: "button",
            testid: "my-game-remove",
            "aria-label": t("mygames.remove", { room: code }),
            onclick: () => {
              forget(code);
              redraw();
            },
          },
          "✕",
        )
      : null,
  );
}

// The card, filled in when the server answers; nothing shows without seats.
export function myGamesCard(go) {
  const list = h("ul", { class: "my-games", testid: "my-games-list" });
  const card = h("section", { class: "card", testid: "my-games", hidden: true }, h("h2", {}, t("mygames.title")), list);
  let games = [];
  const draw = () => {
    const held = new Set(heldSeats().map((s) => s.room));
    games = games.filter((g) => held.has(g.room));
    card.hidden = games.length === 0;
    list.replaceChildren(...games.map((g) => row(g, draw)));
    for (const link of list.querySelectorAll("a")) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        go(link.getAttribute("href"));
      });
    }
  };
  const seats = heldSeats();
  if (seats.length) {
    Promise.all([
      syncClock(),
      fetch("/api/my-games", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ seats }),
      }).then((r) => (r.ok ? r.json() : { games: [] })),
    ])
      .then(([, data]) => {
        games = (data.games || []).sort((a, b) => rank(a) - rank(b) || (a.deadline ?? 0) - (b.deadline ?? 0));
        draw();
      })
      .catch(() => {});
  }
  return card;
}
