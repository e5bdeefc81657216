// The table view (/r/{code}/tv): a spectator connection for a shared screen.
// In the lobby: the room code, a large QR code of the join link and who has
// joined; during the game the ordinary spectator screens, made large by
// body.tv in party.css, with the reveals at a pace a table can follow.

import { colourCss, h } from "./dom.js";
import { t } from "./i18n.js";
import { scrollBehavior } from "./motion.js";

export const TV_PATH = /^\/r\/([A-Za-z0-9]{4,12})\/tv\/?$/;
export const TV_STEP_MS = 2600; // one card of a reveal, on the TV

// How long each reveal step shows: slower on the table view.
export function revealStep(room, normal) {
  return room?.tv ? Math.max(normal, TV_STEP_MS) : normal;
}

export function renderTvLobby(room) {
  const state = room.state;
  const code = state.room.code;
  const link = `${location.origin}/r/${code}`;
  const players = state.room.players.filter((p) => !p.computer);
  room.shell(
    h("span", { class: "room-title" }, t("tv.title"), room.connectionBadge()),
    h(
      "main",
      { class: "page tv-lobby", testid: "tv-lobby" },
      h(
        "section",
        { class: "tv-join" },
        h("img", {
          class: "tv-qr",
          testid: "tv-qr",
          src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`,
          alt: t("tv.qr_alt", { code }),
          width: 480,
          height: 480,
        }),
        h(
          "div",
          { class: "tv-join-text" },
          h("p", { class: "tv-game" }, t(`game.${state.room.game}`)),
          h("p", { class: "tv-code-label" }, t("tv.code")),
          h("p", { class: "tv-code", testid: "tv-code" }, code),
          h("p", { class: "tv-hint" }, t("tv.join_with")),
          h("p", { class: "tv-link", testid: "tv-link" }, link),
        ),
      ),
      h(
        "section",
        { class: "tv-players" },
        h("h2", {}, t("tv.players")),
        players.length
          ? h(
              "ul",
              { class: "tv-player-list", testid: "tv-players" },
              players.map((p) =>
                h(
                  "li",
                  { class: "tv-player", style: { "--c": colourCss(p.colour) } },
                  h("span", { class: "swatch", style: { background: colourCss(p.colour) } }),
                  p.name,
                ),
              ),
            )
          : h("p", { class: "hint" }, t("tv.no_players")),
        h("p", { class: "hint", testid: "tv-waiting" }, t("tv.waiting")),
      ),
    ),
  );
}

// During play, a corner of the top bar keeps the room code and a small QR code,
// so a latecomer can still join or watch.
export function tvCorner(code) {
  return h(
    "span",
    { class: "tv-corner", testid: "tv-corner" },
    h(
      "span",
      { class: "tv-corner-code" },
      h("span", { class: "tv-corner-label" }, t("tv.code")),
      h("strong", {}, code),
    ),
    h("img", {
      class: "tv-corner-qr",
      src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`,
      alt: t("tv.qr_alt", { code }),
      width: 96,
      height: 96,
    }),
  );
}

// Nobody touches the TV: it keeps what matters now in view. The stack or
// drawing being turned over, else the winners once the game is over, else the scores.
const FOLLOW = [
  ".stack-card.current",
  ".ig-reveal-card.current",
  "[data-testid=winners]",
  "[data-testid=ig-winners]",
  "[data-testid=summary]:not([hidden])",
  "[data-testid=ig-score-table]",
];

export function followGame() {
  for (const selector of FOLLOW) {
    const el = document.querySelector(`#app main ${selector}`);
    if (!el || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const top = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
    const fits = r.height <= innerHeight - top;
    const inView = r.top >= top - 1 && r.bottom <= innerHeight + 1;
    if (!inView || (!fits && Math.abs(r.top - top) > 2)) {
      // An absolute target: asked again mid-scroll, it names the same place.
      const target = scrollY + r.top - top - (fits ? (innerHeight - top - r.height) / 2 : 0);
      window.scrollTo({ top: Math.max(0, target), behavior: scrollBehavior() });
    }
    return el;
  }
  return null;
}

// The lobby's way to the table view: open it on the TV or laptop on the table.
export function tvLink(code) {
  return h(
    "a",
    {
      class: "btn small ghost tv-open",
      href: `/r/${encodeURIComponent(code)}/tv`,
      target: "_blank",
      rel: "noopener",
      testid: "tv-open",
    },
    t("tv.open"),
  );
}
