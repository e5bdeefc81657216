// The rules summary of a game (strings rules.<game>.*, written by content),
// shown as a dialog reachable from the start page and the lobby.

import { h } from "./dom.js";
import { keys, t } from "./i18n.js";

export function rulesBody(game) {
  const parts = [];
  for (const key of keys(`rules.${game}.`)) {
    const text = t(key);
    const last = key.split(".").pop();
    if (last === "title" || last.endsWith("_title") || last.startsWith("heading")) {
      parts.push(h(parts.length === 0 ? "h2" : "h3", {}, text));
    } else if (text.includes("\n")) {
      for (const line of text.split("\n")) if (line.trim()) parts.push(h("p", {}, line));
    } else {
      parts.push(h("p", {}, text));
    }
  }
  if (parts.length === 0) parts.push(h("p", {}, t("app.rules_missing")));
  return parts;
}

export function openRules(game) {
  const dialog = h(
    "dialog",
    { class: "sheet rules", testid: "rules-dialog" },
    h("div", { class: "sheet-body" }, rulesBody(game)),
    h(
      "form",
      { method: "dialog", class: "sheet-actions" },
      h("button", { class: "btn primary", testid: "rules-close" }, t("common.close")),
    ),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
}

export function rulesButton(game, extraClass = "") {
  return h(
    "button",
    { class: `btn ghost ${extraClass}`, type: "button", testid: "rules-open", onclick: () => openRules(game) },
    t("app.rules_open"),
  );
}
