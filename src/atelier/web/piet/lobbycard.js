// Piet's cards in the lobby (lobby.js asks for them through PietScreen.lobbyCards,
// with the room's state). Two people on one device: in a room without a
// computer opponent, a card lets this page seat a second player through its
// own connection (seat.js). A record to start from: the host loads or removes
// it (the setting "record"), everyone sees how many moves it holds.

import { h, playerColours, toast } from "../dom.js";
import { errorText, lang, t } from "../i18n.js";
import { agreementCard } from "./agreement.js";
import { fileButton, recordErrorText, recordMoves } from "./record.js";
import { secondSeat, seatToken } from "./seat.js";
import { tutorialCard, tutorialLobbyCard, tutorialRoom } from "./tutorial.js";

const NAME_KEY = "atelier.piet.hotseat.name";

let draft = null; // the second player's name as typed: the lobby is drawn anew on every state

function hotSeatCard(room, code, data) {
  const humans = data.players.filter((p) => !p.computer);
  const token = seatToken(code);
  if (token) {
    const conn = secondSeat(code, lang());
    const me = humans.find((p) => p.name === localStorage.getItem(NAME_KEY));
    return h(
      "section",
      { class: "card piet-hotseat", testid: "piet-hotseat" },
      h("h2", {}, t("pietui.hotseat.title")),
      h("p", { class: "hint", testid: "piet-hotseat-on" }, t("pietui.hotseat.seated", { name: me?.name ?? "…" })),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          {
            class: "btn ghost",
            type: "button",
            testid: "piet-hotseat-leave",
            onclick: async () => {
              await (await conn)?.leave().catch(() => {});
              room.render(); // the state that follows may come before the leave's answer
            },
          },
          t("pietui.hotseat.undo"),
        ),
      ),
    );
  }
  if (data.settings?.opponent || humans.length !== 1) return null;
  const taken = new Set(data.players.map((p) => p.colour));
  const colour = playerColours().find((c) => !taken.has(c));
  const name = h("input", {
    class: "input",
    testid: "piet-hotseat-name",
    maxlength: 20,
    value: draft ?? localStorage.getItem(NAME_KEY) ?? "",
    placeholder: t("pietui.hotseat.name"),
    "aria-label": t("pietui.hotseat.name"),
    oninput: (e) => {
      draft = e.target.value;
    },
  });
  const submit = h("button", { class: "btn", type: "submit", testid: "piet-hotseat-join" }, t("pietui.hotseat.join"));
  return h(
    "form",
    {
      class: "card piet-hotseat",
      testid: "piet-hotseat",
      onsubmit: async (event) => {
        event.preventDefault();
        const chosen = name.value.trim();
        if (!chosen) return;
        submit.disabled = true;
        try {
          const conn = await secondSeat(code, lang(), { create: true });
          await conn.join(chosen, colour);
          localStorage.setItem(NAME_KEY, chosen);
          draft = null;
          room.render();
        } catch (error) {
          toast(errorText(error));
          submit.disabled = false;
        }
      },
    },
    h("h2", {}, t("pietui.hotseat.title")),
    h("p", { class: "hint" }, t("pietui.hotseat.hint")),
    h("div", { class: "inline" }, name, submit),
  );
}

// The last refusal of a record, kept by room: the lobby is drawn anew on
// every state, which would otherwise drop the message.
const refusals = new Map();

function recordCard(room, code, data, host) {
  const record = data.settings?.record;
  if (!record && !host) return null;
  const refusal = refusals.get(code);
  const error = h(
    "p",
    { class: "piet-record-error", testid: "piet-record-error", role: "alert", hidden: !refusal },
    refusal ? recordErrorText(refusal) : "",
  );
  const change = async (patch, done) => {
    refusals.delete(code);
    error.hidden = true;
    try {
      await room.conn.request({ t: "settings", settings: patch }, { quiet: true });
      if (done) toast(done, "info");
    } catch (err) {
      refusals.set(code, err);
      // This card may have been replaced meanwhile: show it in the current one.
      for (const box of document.querySelectorAll("[data-testid=piet-record-error]")) {
        box.textContent = recordErrorText(err);
        box.hidden = false;
      }
    }
  };
  const [load, input] = fileButton({
    testid: "piet-record-load",
    label: record ? t("pietui.record.load_other") : t("pietui.record.load"),
    hint: t("pietui.record.load_hint"),
    cls: record ? "btn ghost" : "btn",
    onText: (text) => change({ record: text }),
  });
  const status = record
    ? h(
        "p",
        { testid: "piet-record-loaded" },
        t("pietui.record.loaded", {
          n: recordMoves(record),
          setup: t(`settings.piet.setup.${data.settings.setup}`),
          brushes: data.settings.brushes ? t("settings.on") : t("settings.off"),
        }),
      )
    : h("p", { class: "hint" }, t("pietui.record.load_hint"));
  const remove = h(
    "button",
    {
      class: "btn ghost",
      type: "button",
      testid: "piet-record-remove",
      onclick: () => change({ record: null }, t("pietui.record.removed")),
    },
    t("pietui.record.remove"),
  );
  return h(
    "section",
    { class: "card piet-record-card", testid: "piet-record-card" },
    h("h2", {}, t("pietui.record.title")),
    status,
    host ? h("div", { class: "actions" }, load, record ? remove : null, input) : null,
    error,
  );
}

// The lobby's Piet cards: the record after the settings, and after the players
// who agreed to hints and (for a seated player) the second seat.
export function pietLobbyCards(room) {
  const state = room.state;
  const data = state.room;
  // the guided game's room says what to do before anything else
  const guided = tutorialRoom(data.code);
  return {
    top: guided ? [tutorialLobbyCard()] : [],
    afterSettings: [
      recordCard(room, data.code, data, state.you.host),
      guided ? null : tutorialCard((path) => location.assign(path)),
    ],
    afterPlayers: [agreementCard(room), state.you.player ? hotSeatCard(room, data.code, data) : null],
  };
}
