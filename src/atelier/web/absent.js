// During a game whose descriptor asks for it (games.js: presence): who is away (no connection) or out of
// the game, on one line, and the host's "Go on" once only absent players hold
// the game up (the rest of the host's controls are in host_menu.js).

import { colourCss, h, replace } from "./dom.js";
import { gameOf } from "./games.js";
import { t } from "./i18n.js";

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
    const show = state && gameOf(state.room.game).presence && state.room.phase === "playing" && state.game;
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
      // One line, names shortened: the strip never grows into the game's room.
      parts.push(
        h(
          "ul",
          { class: "presence-list" },
          away.map((p) =>
            h(
              "li",
              {
                testid: "away-player",
                title: `${p.name} (${p.removed ? t("party.removed") : t("party.away")})`,
                dataset: { player: p.id, state: p.removed ? "removed" : "away" },
              },
              h("span", { class: "swatch small", style: { background: colourCss(p.colour) } }),
              h("span", { class: "presence-name" }, p.name),
              h(
                "span",
                { class: `badge ${p.removed ? "out-badge" : "away-badge"}` },
                p.removed ? t("party.removed") : t("party.away"),
              ),
            ),
          ),
        ),
      );
    }
    // The host's controls live in the host menu (host_menu.js); only going on,
    // which the whole table waits for, is also offered here.
    const waiting = state.you.host ? onlyAbsentWaiting(state) : null;
    if (waiting) {
      const names = waiting.map((p) => p.name).join(", ");
      parts.push(
        h(
          "button",
          {
            class: "btn small primary presence-go-on",
            type: "button",
            testid: "go-on",
            title: t("party.go_on", { names }),
            onclick: () => this.room.send({ t: "go_on" }),
          },
          t("party.go_on_short"),
        ),
      );
    }
    // Where the screen has no place of its own for the host's sheet (the
    // reveal, the vote), its button sits at the end of this strip.
    if (state.you.host && !main.querySelector("[data-testid=host-menu]:not(.in-strip)")) {
      const button = this.room.hostMenu.button();
      button?.classList.add("in-strip");
      parts.push(button);
    }
    replace(this.el, parts);
    this.el.hidden = parts.length === 0;
  }
}
