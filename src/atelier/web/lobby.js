// The room before the start: share, join with a name and a free colour,
// the host's settings, removals, host hand-over and the start.

import { colourCss, h, nameTag, playerColours, radioKeys, toast } from "./dom.js";
import { deckPanel } from "./decks.js";
import { playerName, t } from "./i18n.js";
import { rulesButton } from "./rules.js";
import { settingsEditor } from "./settings.js";
import { storedHostKey } from "./net.js";
import { tvLink } from "./tv.js";
import { awakeNote } from "./wake.js";

const NAME_KEY = "atelier.name";

export function shareBox(code) {
  const url = `${location.origin}/r/${code}`;
  const copy = h(
    "button",
    {
      class: "btn",
      type: "button",
      testid: "copy-link",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(url);
        } catch {
          // Clipboard needs a secure context; select the text so it can be copied by hand.
          const range = document.createRange();
          range.selectNodeContents(link);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          document.execCommand?.("copy");
        }
        toast(t("lobby.copied"), "info");
      },
    },
    t("lobby.copy"),
  );
  const link = h("a", { class: "share-url", href: url, testid: "share-link" }, url);
  return h(
    "section",
    { class: "card share" },
    h("div", { class: "label" }, t("lobby.code")),
    h("div", { class: "room-code", testid: "room-code" }, code),
    h("div", { class: "share-line" }, link, copy),
  );
}

function playerRow(room, player, state) {
  const me = state.you.player === player.id;
  const isHost = state.room.host === player.id;
  const amHost = state.you.host;
  const actions = [];
  if (amHost && !me && !player.computer) {
    actions.push(
      h(
        "button",
        {
          class: "btn small",
          type: "button",
          testid: `make-host-${player.name}`,
          onclick: () => room.send({ t: "host", player: player.id }),
        },
        t("lobby.make_host"),
      ),
      h(
        "button",
        {
          class: "btn small danger",
          type: "button",
          testid: `kick-${player.name}`,
          onclick: () => room.send({ t: "kick", player: player.id }),
        },
        t("lobby.remove"),
      ),
    );
  }
  return h(
    "li",
    { class: `player ${player.connected ? "" : "away"}`, testid: "lobby-player", dataset: { name: player.name } },
    h("span", { class: "swatch", style: { background: colourCss(player.colour) } }),
    nameTag(playerName(player), "player-name"),
    isHost ? h("span", { class: "badge", testid: "host-badge" }, t("lobby.host")) : null,
    me ? h("span", { class: "badge you" }, t("lobby.you")) : null,
    player.connected ? null : h("span", { class: "badge muted" }, t("lobby.away")),
    h("span", { class: "spacer" }),
    actions,
  );
}

function joinForm(room, state) {
  const taken = new Set(state.room.players.map((p) => p.colour));
  const free = playerColours().filter((c) => !taken.has(c));
  // Drafts survive the re-render that every state message causes.
  let colour = free.includes(room.draftColour) ? room.draftColour : free[0];
  const nameInput = h("input", {
    class: "input",
    testid: "join-name",
    maxlength: 20,
    required: true,
    autocomplete: "nickname",
    value: room.draftName ?? (localStorage.getItem(NAME_KEY) || ""),
    oninput: (event) => {
      room.draftName = event.target.value;
    },
    placeholder: t("lobby.name_placeholder"),
    "aria-label": t("lobby.name"),
  });
  const swatches = h("div", { class: "swatches", role: "radiogroup", "aria-label": t("lobby.colour") });
  function drawSwatches() {
    swatches.replaceChildren(
      ...playerColours().map((c) =>
        h("button", {
          type: "button",
          class: `swatch-btn ${c === colour ? "selected" : ""}`,
          role: "radio",
          "aria-checked": String(c === colour),
          "aria-label": t(`colour.${c}`),
          title: t(`colour.${c}`),
          disabled: taken.has(c),
          testid: `colour-${c}`,
          style: { "--c": colourCss(c) },
          onclick: () => {
            colour = c;
            room.draftColour = c;
            drawSwatches();
          },
        }),
      ),
    );
    radioKeys(swatches);
  }
  drawSwatches();
  const submit = h(
    "button",
    { class: "btn primary big", type: "submit", testid: "join-submit", disabled: free.length === 0 },
    t("lobby.join"),
  );
  return h(
    "form",
    {
      class: "card join",
      testid: "lobby-join",
      onsubmit: (event) => {
        event.preventDefault();
        const name = nameInput.value.trim();
        if (!name) return;
        localStorage.setItem(NAME_KEY, name);
        const hostKey = storedHostKey(room.code);
        room.send(hostKey ? { t: "join", name, colour, host_key: hostKey } : { t: "join", name, colour });
      },
    },
    h("h2", {}, t("lobby.join_title")),
    h("label", { class: "field" }, h("span", { class: "label" }, t("lobby.name")), nameInput),
    h("div", { class: "field" }, h("span", { class: "label" }, t("lobby.colour")), swatches),
    free.length === 0 ? h("p", { class: "hint" }, t("lobby.full")) : null,
    h("div", { class: "actions" }, submit),
  );
}

// parts: a game's own cards (its descriptor's lobbyCards(room), games.js), placed
// after the players (afterPlayers) and after the settings (afterSettings).
export function renderLobby(room, parts = {}) {
  const state = room.state;
  const game = state.room.game;
  const players = state.room.players;
  const amPlayer = Boolean(state.you.player);
  const amHost = state.you.host;

  const playersCard = h(
    "section",
    { class: "card" },
    h("h2", {}, t("lobby.players", { count: players.length })),
    h(
      "ul",
      { class: "player-list", testid: "lobby-players" },
      players.map((p) => playerRow(room, p, state)),
    ),
    state.room.spectators ? h("p", { class: "hint" }, t("lobby.spectators", { count: state.room.spectators })) : null,
    amPlayer
      ? h(
          "div",
          { class: "actions" },
          h(
            "button",
            { class: "btn ghost", type: "button", testid: "leave", onclick: () => room.send({ t: "leave" }) },
            t("lobby.leave"),
          ),
        )
      : null,
  );

  const settingsCard = h(
    "section",
    { class: "card" },
    h("h2", {}, t("lobby.settings")),
    amHost
      ? null
      : h(
          "p",
          { class: "hint", testid: "host-decides" },
          !amPlayer && storedHostKey(room.code) ? t("lobby.creator_sit") : t("lobby.host_decides"),
        ),
    settingsEditor(game, state.room.settings, {
      editable: amHost,
      // each player agrees to these themselves (the game's own lobby card), not the host
      skip: state.room.agreements || [],
      onChange: (patch) => room.send({ t: "settings", settings: patch }),
    }),
  );

  const startRow = h(
    "div",
    { class: "card start-row" },
    amHost
      ? h(
          "button",
          { class: "btn primary big", type: "button", testid: "start-game", onclick: () => room.send({ t: "start" }) },
          t("lobby.start"),
        )
      : h("p", { class: "hint", testid: "wait-host" }, amPlayer ? t("lobby.wait_host") : t("lobby.watching")),
    rulesButton(game),
  );

  room.shell(
    h("span", { class: "room-title" }, t(`game.${game}`), room.connectionBadge()),
    h(
      "main",
      { class: "page lobby", testid: "lobby" },
      shareBox(state.room.code),
      tvLink(state.room.code),
      amPlayer ? null : joinForm(room, state),
      awakeNote(),
      playersCard,
      parts.afterPlayers ?? null,
      startRow,
      settingsCard,
      parts.afterSettings ?? null,
      deckPanel(room),
    ),
  );
}
