// Piet over days and the end of a game before its canvases are full
// (docs/piet.md, "Correspondence play"): the time left for the move, resigning
// (any Piet game), turning on nudges for this seat, and moving the seat to
// another device.

import { h, nameList, replace, toast } from "../dom.js";
import { errorText, lang, t, tn } from "../i18n.js";
import { serverNow } from "../clock.js";
import { durationText } from "../duration.js";
import { disableNudges, enableNudges, nudgesOn, pushSupported } from "../push.js";
import { transferPanel } from "../seat_move.js";

// The result line of a game that ended by resignation or on time, or null.
export function earlyResult(screen) {
  const m = screen.model;
  const by = m.result?.by;
  if (!by || m.result.winner === null) return null;
  const score = `${m.scores[0]} : ${m.scores[1]}`;
  return tn(`corr.result.${by}`, { name: nameList([screen.name(m.result.winner)]), score });
}

// "Time for this move: 2 days 3 hours." while a correspondence game runs.
export function clockLine(screen) {
  const clock = screen.model.clock;
  if (!clock || screen.model.phase === "over") return null;
  const left = clock.deadline - serverNow();
  return h(
    "small",
    { class: "piet-clock", testid: "piet-clock" },
    left > 0 ? t("corr.time_left", { left: durationText(left) }) : t("corr.time_up"),
  );
}

function resignControl(screen) {
  const box = h("div", { class: "piet-resign", testid: "piet-resign" });
  const ask = () => {
    const other = screen.name(1 - screen.mySeat);
    replace(
      box,
      h("p", { role: "alert" }, tn("corr.resign_confirm", { name: nameList([other]) })),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          {
            class: "btn danger",
            type: "button",
            testid: "piet-resign-yes",
            onclick: async () => {
              try {
                await screen.room.conn.request({ t: "act", action: { type: "resign" } });
              } catch (error) {
                if (error?.code) toast(errorText(error));
              }
            },
          },
          t("corr.resign_yes"),
        ),
        h("button", { class: "btn", type: "button", onclick: () => replace(box, first()) }, t("corr.resign_no")),
      ),
    );
  };
  const first = () =>
    h("button", { class: "btn", type: "button", testid: "piet-resign-ask", onclick: ask }, t("corr.resign"));
  box.append(first());
  return box;
}

function nudgeControl(screen) {
  const code = screen.room.code;
  const box = h("div", { class: "piet-nudges", testid: "piet-nudges" });
  const draw = () => {
    if (nudgesOn(code)) {
      replace(
        box,
        h("p", { class: "hint", testid: "piet-nudges-on" }, t("corr.notify_on")),
        h(
          "button",
          {
            class: "btn",
            type: "button",
            onclick: async () => {
              await disableNudges(code);
              draw();
            },
          },
          t("corr.notify_off"),
        ),
      );
      return;
    }
    if (!pushSupported()) {
      replace(box, h("p", { class: "hint", testid: "piet-nudges-unsupported" }, t("corr.notify_unsupported")));
      return;
    }
    const button = h(
      "button",
      {
        class: "btn primary",
        type: "button",
        testid: "piet-nudges-ask",
        onclick: async () => {
          button.disabled = true;
          try {
            const answer = await enableNudges(code, lang());
            if (answer === "denied") toast(t("corr.notify_denied"));
          } catch (error) {
            // the server's refusals have a code of theirs; the browser's (a
            // DOMException: no push service reachable) get our own words
            toast(error instanceof DOMException || !error?.code ? t("corr.notify_failed") : errorText(error));
          }
          draw();
        },
      },
      t("corr.notify"),
    );
    replace(box, button);
  };
  draw();
  return box;
}

// Under the actions: what a seated player may do besides moving.
export function seatTools(screen) {
  const m = screen.model;
  if (screen.mySeat === null || m.phase === "over" || screen.coach) return null;
  const correspondence = Boolean(screen.state.room.settings.move_days);
  return h(
    "section",
    { class: "piet-seat-tools", testid: "piet-seat-tools" },
    correspondence ? nudgeControl(screen) : null,
    resignControl(screen),
    correspondence ? transferPanel(screen.room.code) : null,
  );
}
