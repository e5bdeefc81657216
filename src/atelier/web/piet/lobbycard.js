// Two people on one device: in the lobby of a Piet room without a computer
// opponent, a card lets this page seat a second player through its own
// connection (seat.js). The lobby belongs to lobby.js, which has no hook for
// games, so the card is added whenever the lobby is drawn (a DOM observer).

import { h, toast } from "../dom.js";
import { errorText, lang, t } from "../i18n.js";
import { secondSeat, seatToken } from "./seat.js";

const ROOM_PATH = /^\/r\/([A-Za-z0-9]{4,12})\/?$/;
const COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"];
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
  const colour = COLOURS.find((c) => !taken.has(c));
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

async function decorate(lobby, code) {
  // Only a seated player may add the second one (the join form shows otherwise).
  if (lobby.querySelector("[data-testid=lobby-join]")) return;
  const data = await roomSummary(code);
  if (!data || data.game !== "piet" || data.phase !== "lobby" || !lobby.isConnected) return;
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
