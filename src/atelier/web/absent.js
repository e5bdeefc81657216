// During a Pictomania or Incognito game: who is away (no connection) or out of
// the game, the host's "Go on without them" once only absent players hold the
// game up, and the host's way to take a player out of the game.

import { colourCss, h, replace } from "./dom.js";
import { t } from "./i18n.js";

const GAMES = new Set(["pictomania", "incognito"]);

// The seats the game waits for, if every one of them is away; else null.
export function onlyAbsentWaiting(state) {
  const waiting = state?.game?.waiting_for || [];
  if (!waiting.length) return null;
  const bySeat = new Map(state.room.players.map((p) => [p.seat, p]));
  const away = waiting.map((seat) => bySeat.get(seat));
  return away.every((p) => p && !p.connected && !p.computer) ? away : null;
}

export class PresenceBar {
  constructor(room) {
    this.room = room;
    this.el = h("section", { class: "presence-bar", testid: "presence-bar", "aria-live": "polite" });
  }

  // Repaints the bar and keeps it at the top of the screen's <main> (screens rebuild theirs).
  update(state) {
    const show = state && GAMES.has(state.room.game) && state.room.phase === "playing" && state.game;
    const main = document.querySelector("#app main");
    if (!show || !main) {
      this.el.remove();
      return;
    }
    if (this.el.parentNode !== main) main.prepend(this.el);
    const players = state.room.players.filter((p) => p.seat !== null && p.seat !== undefined);
    const away = players.filter((p) => !p.connected || p.removed);
    const parts = [];
    if (this.room.wasTakenOut) parts.push(h("p", { class: "notice", testid: "taken-out" }, t("party.taken_out")));
    if (away.length) {
      parts.push(
        h(
          "ul",
          { class: "presence-list" },
          away.map((p) =>
            h(
              "li",
              { testid: "away-player", dataset: { player: p.id, state: p.removed ? "removed" : "away" } },
              h("span", { class: "swatch small", style: { background: colourCss(p.colour) } }),
              h("span", {}, p.name),
              h("span", { class: `badge ${p.removed ? "out-badge" : "away-badge"}` }, p.removed ? t("party.removed") : t("party.away")),
            ),
          ),
        ),
      );
    }
    if (state.you.host) {
      const waiting = onlyAbsentWaiting(state);
      if (waiting) {
        const names = waiting.map((p) => p.name).join(", ");
        parts.push(
          h("p", { class: "hint" }, t("party.go_on_hint")),
          h("button", { class: "btn primary", type: "button", testid: "go-on", onclick: () => this.room.send({ t: "go_on" }) }, t("party.go_on", { names })),
        );
      }
      const others = players.filter((p) => !p.removed && p.id !== state.you.player);
      if (others.length) {
        parts.push(
          h(
            "details",
            { class: "presence-remove", testid: "remove-players" },
            h("summary", {}, t("party.remove_menu")),
            others.map((p) =>
              h(
                "button",
                {
                  class: "btn small ghost",
                  type: "button",
                  testid: `remove-${p.id}`,
                  onclick: () => {
                    if (window.confirm(t("party.remove_confirm", { name: p.name }))) this.room.send({ t: "kick", player: p.id });
                  },
                },
                t("party.remove", { name: p.name }),
              ),
            ),
          ),
        );
      }
    }
    replace(this.el, parts);
    this.el.hidden = parts.length === 0;
  }
}
