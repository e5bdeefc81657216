// Entry point: language, header, and routing between the start page and a room.

import { h, replace, toast } from "./dom.js";
import { LANGUAGES, lang, onLanguage, preferredLanguage, setLanguage, t } from "./i18n.js";
import { Room } from "./room.js";
import { renderStart } from "./start.js";

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
    LANGUAGES.map((code) =>
      h("option", { value: code, selected: code === lang() }, LANGUAGE_NAMES[code]),
    ),
  );
  return h(
    "header",
    { class: "topbar" },
    h("a", { class: "brand", href: "/", testid: "brand" }, h("span", { class: "brand-dot" }), "Atelier"),
    h("div", { class: "topbar-middle" }, rightSide || null),
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

export function shell(middle, ...body) {
  const root = document.getElementById("app");
  replace(root, header(middle), ...body);
  return root;
}

function render() {
  const match = location.pathname.match(ROOM_PATH);
  document.title = t("app.title");
  if (match) {
    const code = match[1].toUpperCase();
    if (!room || room.code !== code) {
      room?.close();
      room = new Room(code, { shell });
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
  try {
    await setLanguage(preferredLanguage());
  } catch {
    await setLanguage("en").catch(() => {});
  }
  onLanguage((code) => {
    room?.languageChanged(code);
    render();
  });
  window.addEventListener("popstate", render);
  render();
}

main();
