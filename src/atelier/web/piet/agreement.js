// Hints between two people are each player's own say: in the lobby every
// player ticks "I agree to hints" for themselves (the message "agree"), and
// everyone sees who has. The server turns hints on at the start only if all
// the room's people agreed; a page that holds the second seat of a game on one
// device (seat.js) answers for that player too.

import { h, toast } from "../dom.js";
import { errorText, lang, t } from "../i18n.js";
import { secondSeat, seatToken } from "./seat.js";

const NAME = "hints";

async function agree(connection, on) {
  try {
    await (await connection())?.request({ t: "agree", name: NAME, on }, { quiet: true });
  } catch (error) {
    toast(errorText(error));
  }
}

// A real checkbox with its own label, one per player this page speaks for.
function toggle(player, text, connection) {
  const id = `piet-agree-${player.id}`;
  return h(
    "div",
    { class: "piet-agree-row" },
    h("input", {
      type: "checkbox",
      class: "toggle",
      id,
      testid: `piet-agree-${player.id}`,
      checked: player.agreed.includes(NAME),
      onchange: (e) => agree(connection, e.target.checked),
    }),
    h("label", { for: id }, text),
  );
}

export function agreementCard(room) {
  const state = room.state;
  const data = state.room;
  if (!(data.agreements || []).includes(NAME)) return null;
  // against the computer hints are always allowed: nothing to agree to
  if (data.settings?.opponent) return null;
  const people = data.players.filter((p) => !p.computer);
  const agreed = (p) => (p.agreed || []).includes(NAME);
  const mine = people.find((p) => p.id === state.you.player);
  const second = seatToken(data.code) ? people.find((p) => p.id !== state.you.player) : null;
  const toggles = [
    mine ? toggle(mine, t("agree.piet.hints"), async () => room.conn) : null,
    second
      ? toggle(second, t("agree.piet.hints_for", { name: second.name }), () => secondSeat(data.code, lang()))
      : null,
  ];
  const everyone = people.length > 1 && people.every(agreed);
  return h(
    "section",
    { class: "card piet-agree", testid: "piet-agree" },
    h("h2", {}, t("agree.piet.title")),
    h("p", { class: "hint" }, t("agree.piet.about")),
    toggles,
    h(
      "ul",
      { class: "piet-agreed", testid: "piet-agreed", "aria-live": "polite" },
      people.map((p) =>
        h(
          "li",
          { class: agreed(p) ? "yes" : "no", testid: `piet-agreed-${p.id}` },
          t(agreed(p) ? "agree.yes" : "agree.not_yet", { name: p.name }),
        ),
      ),
    ),
    everyone ? h("p", { testid: "piet-agree-all" }, t("agree.all")) : null,
  );
}
