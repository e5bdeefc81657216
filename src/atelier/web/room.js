// One room: the connection, the latest state, and which screen shows it (its
// game's descriptor names it: games.js).

import { h, toast } from "./dom.js";
import { errorText, lang, setDeckLanguage, t } from "./i18n.js";
import { renderLobby } from "./lobby.js";
import { RoomConnection } from "./net.js";
import { gameOf } from "./games.js";
import { syncClock } from "./clock.js";
import { PresenceBar } from "./absent.js";
import { HostMenu } from "./host_menu.js";
import { followGame, renderTvLobby, tvCorner } from "./tv.js";
import { CueWatcher } from "./cues.js";
import { setRole } from "./sound.js";
import { keepAwake } from "./wake.js";
import { keepGame, keptGame } from "./kept.js";

// Which game a taken-out note is for: a new game in the room says nothing of it.
const takenOutOf = (state) => `game:${state.room.ink_prefix || ""}`;

export class Room {
  constructor(code, { shell, tv = false }) {
    this.code = code;
    this.tv = tv; // the table view: always a spectator
    // The TV's top bar keeps the room code and QR code in a corner during play.
    this.shell = tv
      ? (middle, ...body) =>
          shell(this.state && this.state.room.phase !== "lobby" ? [middle, tvCorner(code)].flat() : middle, ...body)
      : shell;
    this.follower = null;
    this.state = null;
    this.screen = null;
    this.status = "connecting";
    this.fatal = null;
    this.waiting = null; // with no state yet: whether the page says the server is out of reach
    this.presence = new PresenceBar(this);
    this.hostMenu = new HostMenu(this);
    this.conn = new RoomConnection(
      code,
      lang(),
      {
        message: (msg) => this.onMessage(msg),
        ink: (seat, bytes) => this.screen?.onInk?.(seat, bytes),
        status: (status) => this.onStatus(status),
        closed: (code) => this.onClosed(code),
      },
      { hostKey: !tv },
    );
    this.conn.spectator = tv;
    this.cues = new CueWatcher();
  }

  start() {
    if (this.tv) this.follower = setInterval(followGame, 400);
    syncClock();
    this.render();
    this.conn.connect();
  }

  close() {
    clearInterval(this.follower);
    this.screen?.destroy?.();
    this.screen = null;
    this.cues.stop();
    this.conn.close();
    keepAwake(false);
  }

  languageChanged(code) {
    this.conn.setLanguage(code);
  }

  // Actions return a promise; refusals were already toasted by onMessage.
  send(msg) {
    return this.conn.request(msg).catch(() => null);
  }

  onStatus(status) {
    this.status = status;
    document.body.dataset.connection = this.conn.offline && status !== "open" ? "offline" : status;
    const badge = document.querySelector("[data-testid=connection]");
    if (badge) {
      badge.hidden = status === "open";
      badge.textContent = this.statusText();
    }
    if (this.state || status === "connecting") return;
    // no server and nothing from it yet: a finished game this device kept
    // opens as it ended (its replays too: sw.js kept the drawings)
    this.state = this.cutOff ? keptGame(this.code) : null;
    this.keptCopy = Boolean(this.state);
    // else the page says why it waits, drawn again only when that changes
    if (this.keptCopy || this.waiting !== this.cutOff) this.render();
  }

  // No network, or the server does not answer.
  get cutOff() {
    return this.conn.offline || this.conn.unreachable;
  }

  statusText() {
    return this.conn.offline ? t("room.offline") : t("room.reconnecting");
  }

  onClosed(code) {
    if (code === 4404) {
      this.fatal = "unknown_room";
      this.render();
    }
  }

  onMessage(msg) {
    switch (msg.t) {
      case "state":
        setRole(Boolean(msg.you?.player));
        this.cues.onState(msg);
        this.state = msg;
        this.keptCopy = false;
        if (msg.room.phase === "over" && !this.tv) keepGame(this.code, msg);
        this.noteTakenOut(msg);
        setDeckLanguage(msg.room?.settings?.language || msg.room?.language);
        this.render();
        break;
      case "error":
        if (msg.code === "bad_token") break; // quietly continue as a spectator
        if (msg.code === "kicked") this.onTakenOut();
        if (msg.code === "unknown_room") {
          this.fatal = "unknown_room";
          this.render();
          break;
        }
        toast(errorText(msg));
        break;
      case "ink_sync":
        this.screen?.onInkSync?.(msg);
        break;
      case "joined":
        break;
      default:
        this.screen?.onMessage?.(msg);
    }
  }

  // "kicked": net.js has just forgotten the token. The note is kept in the same
  // task, so a page shut before the next state arrives (a tab closed as the
  // host acts) still says why it only watches when it is opened again. Without
  // a state yet (back with the old token), the next state says of which game.
  onTakenOut() {
    this.takenOut = true;
    if (this.state?.room.phase === "lobby") this.noteTakenOut(this.state); // nothing to keep
    else if (this.state) this.keepTakenOut(this.state);
  }

  // The host took this browser's player out of the game (the page was open, or
  // it came back with the old token): remembered for that game, so the page
  // says why it only watches, also after a reload.
  noteTakenOut(state) {
    if (state.room.phase === "lobby") {
      localStorage.removeItem(this.takenOutKey);
      this.takenOut = false;
    } else if (this.takenOut && !state.you.player) {
      this.keepTakenOut(state);
    }
  }

  keepTakenOut(state) {
    localStorage.setItem(this.takenOutKey, takenOutOf(state));
    this.takenOut = false;
  }

  get takenOutKey() {
    return `atelier.out.${this.code.toUpperCase()}`;
  }

  get wasTakenOut() {
    const state = this.state;
    if (!state || state.you.player || state.room.phase === "lobby") return false;
    return localStorage.getItem(this.takenOutKey) === takenOutOf(state);
  }

  get isPlayer() {
    return Boolean(this.state?.you?.player);
  }

  render() {
    this.draw();
    keepAwake(this.awake());
  }

  draw() {
    if (this.fatal) {
      this.dropScreen();
      this.shell(
        null,
        h(
          "main",
          { class: "page", testid: "room-missing" },
          h(
            "section",
            { class: "card" },
            h("h2", {}, t("room.unknown")),
            h("a", { class: "btn primary", href: "/" }, t("room.back_home")),
          ),
        ),
      );
      return;
    }
    const state = this.state;
    if (!state) {
      this.dropScreen();
      this.waiting = this.cutOff;
      this.shell(
        null,
        this.waiting
          ? this.offlinePage()
          : h(
              "main",
              { class: "page center", testid: "room-loading" },
              h("p", { class: "muted" }, t("room.connecting")),
            ),
      );
      return;
    }
    const phase = state.room.phase;
    if (phase === "lobby") {
      this.dropScreen();
      if (this.tv) renderTvLobby(this);
      else renderLobby(this, gameOf(state.room.game).lobbyCards?.(this) ?? {});
      return;
    }
    const Screen = gameOf(state.room.game).screen;
    if (!Screen) {
      this.dropScreen();
      this.shell(null, h("main", { class: "page" }, h("p", { class: "card" }, t("room.no_screen"))));
      return;
    }
    if (!this.screen || !(this.screen instanceof Screen) || !this.screen.mounted()) {
      this.dropScreen();
      this.screen = new Screen(this);
    }
    this.screen.update(state);
    this.presence.update(state);
    this.hostMenu.update(state);
  }

  // A room that needs the server, and no way to it (no network, or the
  // server does not answer): says so; the connection comes back by itself
  // (net.js) and the room shows.
  offlinePage() {
    return h(
      "main",
      { class: "page", testid: "room-offline" },
      h(
        "section",
        { class: "card", role: "status" },
        h("h2", {}, t("room.offline_title")),
        h("p", {}, t("room.offline_body")),
        h("a", { class: "btn", href: "/" }, t("room.back_home")),
      ),
    );
  }

  // The screen stays on while a round needs this device: a player's (or the
  // TV's) during play; a screen may narrow it (Piet: while it is this page's move).
  awake() {
    const state = this.state;
    if (this.fatal || this.keptCopy || state?.room.phase !== "playing" || !(this.isPlayer || this.tv)) return false;
    return this.screen?.awake?.() ?? true;
  }

  dropScreen() {
    this.hostMenu.close();
    this.screen?.destroy?.();
    this.screen = null;
  }

  connectionBadge() {
    return h("span", { class: "conn-badge", testid: "connection", hidden: this.status === "open" }, this.statusText());
  }
}
