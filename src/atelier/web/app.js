// Entry point: language, header, and routing between the start page and a room.

import { h, replace, toast } from "./dom.js";
import { LANGUAGES, lang, onLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import { Room } from "./room.js";
import { renderStart } from "./start.js";
import { loadSettingsSchemas } from "./settings.js";
import { loadGames } from "./games.js";
import { TV_PATH } from "./tv.js";
import { soundButton } from "./sound.js";
import { claimFromLink } from "./seat_move.js";
import { registerWorker, takeWaitingVersion } from "./pwa.js";

const LANGUAGE_NAMES = { en: "English", de: "Deutsch", uk: "Українська" };
const ROOM_PATH = /^\/r\/([A-Za-z0-9]{4,12})\/?$/;

let room = null;

function header(rightSide) {
  const select = h(
    "select",
    {
      class: "lang-select",
      testid: "lang-select",
      "aria-label": t("app.language"),
      onchange: (event) => switchLanguage(event.target.value),
    },
    LANGUAGES.map((code) => h("option", { value: code, selected: code === lang() }, LANGUAGE_NAMES[code])),
  );
  return h(
    "header",
    { class: "topbar" },
    h("a", { class: "brand", href: "/", testid: "brand" }, h("span", { class: "brand-dot" }), "Atelier"),
    h("div", { class: "topbar-middle" }, rightSide || null),
    room ? soundButton() : null,
    select,
  );
}

async function switchLanguage(code) {
  try {
    await setLanguage(code);
  } catch {
    toast(t("app.error_network"));
  }
}

let shownScreen = null;

export function shell(middle, ...body) {
  const root = document.getElementById("app");
  const hadFocus = root.contains(document.activeElement) && document.activeElement !== document.body;
  replace(root, header(middle), ...body);
  newScreen(root, middle, hadFocus);
  return root;
}

// A different screen (not a re-render of the same one) starts at its top,
// takes the focus (so keyboard and screen reader users are not left on a
// removed element) and is announced in a live region outside #app.
function newScreen(root, middle, hadFocus) {
  const main = root.querySelector("main");
  const name = main?.dataset.testid || null;
  if (!main || name === shownScreen) return;
  const first = shownScreen === null;
  shownScreen = name;
  window.scrollTo(0, 0);
  main.tabIndex = -1;
  if (!first || hadFocus) main.focus({ preventScroll: true });
  const heading = main.querySelector("h1, h2");
  const title = [middle].flat().find((el) => el?.classList?.contains("room-title"));
  announce((heading || title)?.textContent || document.title);
}

export function announce(text) {
  let region = document.getElementById("announcer");
  if (!region) {
    region = h("div", {
      id: "announcer",
      class: "sr-only",
      role: "status",
      "aria-live": "polite",
      testid: "announcer",
    });
    document.body.appendChild(region);
  }
  // Cleared first, so the same words said twice are still announced.
  region.textContent = "";
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}

function render() {
  const tvMatch = location.pathname.match(TV_PATH);
  const match = tvMatch || location.pathname.match(ROOM_PATH);
  const tv = Boolean(tvMatch);
  document.title = t("app.title");
  document.body.classList.toggle("tv", tv);
  if (match) {
    const code = match[1].toUpperCase();
    if (!room || room.code !== code || room.tv !== tv) {
      room?.close();
      room = new Room(code, { shell, tv });
      room.start();
    } else {
      room.render();
    }
  } else {
    room?.close();
    room = null;
    renderStart({ shell, go });
  }
}

export function go(path) {
  history.pushState({}, "", path);
  render();
}

async function main() {
  // a new version waiting since the last visit: this load switches to it
  if (await takeWaitingVersion()) return;
  registerWorker();
  // the games' descriptors, then their settings schemas, read while the strings load
  const schemas = loadGames().then(loadSettingsSchemas);
  try {
    await setLanguage(preferredLanguage());
  } catch {
    await setLanguage("en").catch(() => {});
  }
  await schemas;
  onLanguage((code) => {
    room?.languageChanged(code);
    render();
  });
  window.addEventListener("popstate", render);
  // a seat moved here by a one-time link: claimed before the room connects
  const linked = location.pathname.match(ROOM_PATH);
  if (linked) await claimFromLink(linked[1].toUpperCase());
  render();
}

main();
