// The rules summary of a game (strings rules.<game>.*, written by content),
// shown as a dialog reachable from the start page and the lobby.

import { h } from "./dom.js";
import { has, t } from "./i18n.js";

// docs/decks.md: sections rules.<game>, rules.<game>.first/.second, each a
// title and paragraphs p1, p2, ... until the next is missing.
export function rulesBody(game) {
  const parts = [];
  for (const section of [game, `${game}.first`, `${game}.second`]) {
    const base = `rules.${section}`;
    if (!has(`${base}.title`)) continue;
    parts.push(h(parts.length === 0 ? "h2" : "h3", {}, t(`${base}.title`)));
    for (let i = 1; has(`${base}.p${i}`); i += 1) parts.push(h("p", {}, t(`${base}.p${i}`)));
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
  if (document.body.classList.contains("tv")) return null; // nobody reads rules off the TV
  return h(
    "button",
    { class: `btn ghost ${extraClass}`, type: "button", testid: "rules-open", onclick: () => openRules(game) },
    t("app.rules_open"),
  );
}
