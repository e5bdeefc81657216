// Piet's cards in the lobby. Two people on one device: in a room without a
// computer opponent, a card lets this page seat a second player through its
// own connection (seat.js). A record to start from: the host loads or removes
// it (the setting "record"), everyone sees how many moves it holds. The lobby
// belongs to lobby.js, which has no hook for games, so the cards are added
// whenever the lobby is drawn (a DOM observer).

import { h, playerColours, toast } from "../dom.js";
import { errorText, lang, t } from "../i18n.js";
import { fileButton, recordErrorText, recordMoves, sendAsHost } from "./record.js";
import { secondSeat, seatToken } from "./seat.js";

const ROOM_PATH = /^\/r\/([A-Za-z0-9]{4,12})\/?$/;
const NAME_KEY = "atelier.piet.hotseat.name";

let draft = null;

function roomSummary(code) {
  return fetch(`/api/rooms/${code}`)
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
}

function card(code, data) {
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
              refresh();
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
          refresh();
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
// every state, and opening the host's second connection itself sends one.
const refusals = new Map();

function recordCard(code, data, host) {
  const record = data.settings?.record;
  if (!record && !host) return null;
  const refusal = refusals.get(code);
  const error = h("p", { class: "piet-record-error", testid: "piet-record-error", role: "alert", hidden: !refusal }, refusal ? recordErrorText(refusal) : "");
  const change = async (patch, done) => {
    refusals.delete(code);
    error.hidden = true;
    try {
      await sendAsHost(code, { t: "settings", settings: patch });
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
    { class: "btn ghost", type: "button", testid: "piet-record-remove", onclick: () => change({ record: null }, t("pietui.record.removed")) },
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

// The settings editor shows every setting: the record's text is not for
// reading there, and while a record is loaded its headers fix setup and brushes.
function adjustSettings(lobby, record) {
  lobby.querySelector("label[for=setting-record]")?.closest(".setting-row")?.setAttribute("hidden", "");
  for (const field of ["setup", "brushes"]) {
    const control = lobby.querySelector(`select#setting-${field}, input#setting-${field}`);
    if (control) control.disabled = Boolean(record);
  }
}

async function decorate(lobby, code) {
  adjustSettings(lobby, null);
  const data = await roomSummary(code);
  if (!data || data.game !== "piet" || data.phase !== "lobby" || !lobby.isConnected) return;
  adjustSettings(lobby, data.settings?.record);
  // The host's settings are controls, everyone else's are text.
  const host = Boolean(lobby.querySelector("select#setting-setup"));
  lobby.querySelector("[data-testid=piet-record-card]")?.remove();
  const records = recordCard(code, data, host);
  const settings = lobby.querySelector("[data-testid=settings]")?.closest("section");
  if (records) {
    if (settings) settings.after(records);
    else lobby.append(records);
  }
  // Only a seated player may add the second one (the join form shows otherwise).
  if (lobby.querySelector("[data-testid=lobby-join]")) return;
  lobby.querySelector("[data-testid=piet-hotseat]")?.remove();
  const box = card(code, data);
  if (!box) return;
  const players = lobby.querySelector("[data-testid=lobby-players]")?.closest("section");
  if (players) players.after(box);
  else lobby.append(box);
}

let pending = false;

function check() {
  pending = false;
  const match = location.pathname.match(ROOM_PATH);
  const lobby = document.querySelector("[data-testid=lobby]");
  if (!match || !lobby || lobby.dataset.pietSeen) return;
  lobby.dataset.pietSeen = "1";
  decorate(lobby, match[1].toUpperCase());
}

export function watchLobby() {
  const root = document.getElementById("app");
  if (!root || root.dataset.pietLobby) return;
  root.dataset.pietLobby = "1";
  new MutationObserver(() => {
    if (!pending) {
      pending = true;
      queueMicrotask(check);
    }
  }).observe(root, { childList: true });
}

// Draw the card again (after this page changed the seats itself).
function refresh() {
  const lobby = document.querySelector("[data-testid=lobby]");
  if (lobby) delete lobby.dataset.pietSeen;
  check();
}
