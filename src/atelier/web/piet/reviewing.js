// Opening the review: from the game-over screen, from a room link that asks
// for it (/r/CODE?review), or for a record file loaded from this device.

import { h } from "../dom.js";
import { playerName, t } from "../i18n.js";
import { recordReview, roomAdvice } from "./advice.js";
import { ReviewView } from "./review.js";

export function wantsReview(screen) {
  if (screen.reviewOffered) return false;
  screen.reviewOffered = true;
  return new URLSearchParams(location.search).has("review");
}

function open(screen, load, names, colours, hinted = []) {
  const view = new ReviewView({
    load,
    names,
    colours,
    hinted,
    onClose: () => {
      screen.reviewing = null;
      screen.built = null;
      screen.update(screen.state);
    },
  });
  screen.reviewing = view;
  screen.room.shell(
    h("span", { class: "room-title" }, t("learn.review.title"), screen.room.connectionBadge()),
    view.el,
  );
  view.el.querySelector("h1")?.focus?.();
  view.start();
}

export function openGameReview(screen) {
  const players = [0, 1].map((seat) => screen.player(seat));
  open(
    screen,
    () => roomAdvice(screen.room.code, "review"),
    players.map((p, seat) => (p ? playerName(p) : t("pietui.player_n", { n: seat + 1 }))),
    players.map((p) => p?.colour || null),
    screen.model.hinted,
  );
}

export function openRecordReview(screen, record) {
  open(
    screen,
    () => recordReview(record),
    [1, 2].map((n) => t("pietui.player_n", { n })),
    [null, null],
  );
}

export function reviewButton(screen) {
  return h(
    "button",
    { class: "btn", type: "button", testid: "piet-review-open", onclick: () => openGameReview(screen) },
    t("learn.review.open"),
  );
}
