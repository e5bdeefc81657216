// The lobby's panel for a room's own Pictomania cards (docs/decks.md): the
// host picks a file or pastes text and chooses how the cards are used; the
// server checks the deck and makes it part of the room's settings. Everyone
// sees the summary and may download the deck.

import { h, toast } from "./dom.js";
import { gameOf } from "./games.js";
import { errorText, lang, t } from "./i18n.js";
import { storedToken } from "./net.js";

const MAX_BYTES = 64 * 1024; // atelier.content.custom.MAX_BYTES
const LEVELS = [1, 2, 3, 4];

// The lobby re-renders on every state message: what the host typed, chose or
// was told lives here, per room, so it survives.
const drafts = new Map();

function draftFor(code, settings) {
  if (!drafts.has(code)) {
    drafts.set(code, {
      text: "",
      fileName: "",
      mode: settings.custom_mode === "instead" ? "instead" : "alongside",
      error: null,
      notice: "",
      busy: false,
    });
  }
  return drafts.get(code);
}

function refresh(room) {
  const old = document.querySelector("[data-testid=deck-panel]");
  if (!old || room.state?.room?.phase !== "lobby") return;
  const next = deckPanel(room);
  if (next) old.replaceWith(next);
}

function summary(settings) {
  const cards = settings.custom_cards || [];
  if (cards.length === 0) return h("p", { class: "hint", testid: "deck-none" }, t("decks.none"));
  const counts = LEVELS.map((level) => cards.filter((c) => c.level === level).length);
  return h(
    "div",
    { class: "deck-summary", testid: "deck-summary", dataset: { cards: String(cards.length) } },
    h("strong", {}, t("decks.summary", { count: cards.length })),
    h(
      "div",
      { class: "inline", testid: "deck-levels" },
      LEVELS.map((level, i) =>
        h(
          "span",
          { class: "badge", dataset: { level: String(level) } },
          t("decks.level", { level: t(`level.${level}`), count: counts[i] }),
        ),
      ),
    ),
    h("p", { class: "hint" }, settings.custom_mode === "instead" ? t("decks.used_instead") : t("decks.used_alongside")),
  );
}

function exportLinks(code) {
  const link = (fmt) =>
    h(
      "a",
      {
        class: "btn small",
        href: `/api/rooms/${code}/deck.${fmt}?lang=${lang()}`,
        download: `atelier-${code}-deck.${fmt}`,
        testid: `deck-export-${fmt}`,
      },
      fmt.toUpperCase(),
    );
  return h("div", { class: "actions" }, h("span", { class: "label" }, t("decks.download")), link("json"), link("csv"));
}

async function readFile(file, draft) {
  if (file.size > MAX_BYTES) {
    draft.error = { code: "custom_too_big", params: { size: Math.ceil(file.size / 1024), max: MAX_BYTES / 1024 } };
    return;
  }
  const bytes = await file.arrayBuffer();
  try {
    // Fatal: a spreadsheet's legacy encoding must be refused, not silently garbled.
    draft.text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    draft.fileName = file.name;
    draft.error = null;
  } catch {
    draft.error = { code: "content_not_utf8", params: {} };
  }
}

async function send(room, draft, method, query = "") {
  const code = room.state.room.code;
  const headers = { Authorization: `Bearer ${storedToken(code) || ""}` };
  if (method === "POST") headers["Content-Type"] = "text/plain; charset=utf-8";
  draft.busy = true;
  draft.notice = "";
  refresh(room);
  try {
    const response = await fetch(`/api/rooms/${code}/deck?lang=${lang()}${query}`, {
      method,
      headers,
      body: method === "POST" ? draft.text : undefined,
    });
    const body = await response.json().catch(() => null);
    if (response.ok) {
      draft.error = null;
      return body;
    }
    draft.error = body && body.code ? body : { code: "internal", params: {} };
  } catch {
    draft.error = { code: "network", message: t("app.error_network"), params: {} };
  } finally {
    draft.busy = false;
  }
  return null;
}

function uploadForm(room, draft) {
  // Keep typing across re-renders: the old textarea is still in the page while this one is built.
  const active = document.activeElement;
  const hadFocus = active?.dataset?.testid === "deck-text";
  const selection = hadFocus ? [active.selectionStart, active.selectionEnd] : null;

  const text = h("textarea", {
    class: "input deck-text",
    testid: "deck-text",
    id: "deck-text",
    rows: 5,
    spellcheck: "false",
    placeholder: t("decks.placeholder"),
    style: { width: "100%", fontFamily: "monospace", resize: "vertical" },
    oninput: (e) => {
      draft.text = e.target.value;
      draft.fileName = "";
    },
  });
  text.value = draft.text;
  if (hadFocus) {
    queueMicrotask(() => {
      text.focus();
      text.setSelectionRange(...selection);
    });
  }

  const file = h("input", {
    type: "file",
    class: "input",
    testid: "deck-file",
    id: "deck-file",
    accept: ".json,.csv,.tsv,.txt,application/json,text/csv,text/plain",
    onchange: async (e) => {
      const chosen = e.target.files?.[0];
      if (!chosen) return;
      await readFile(chosen, draft);
      refresh(room);
    },
  });

  const modes = h(
    "div",
    { class: "field", role: "radiogroup", "aria-label": t("decks.mode") },
    h("span", { class: "label" }, t("decks.mode")),
    ["alongside", "instead"].map((mode) =>
      h(
        "label",
        { class: "inline" },
        h("input", {
          type: "radio",
          name: "deck-mode",
          value: mode,
          testid: `deck-mode-${mode}`,
          checked: draft.mode === mode,
          onchange: () => {
            draft.mode = mode;
          },
        }),
        t(`decks.mode.${mode}`),
      ),
    ),
  );

  const use = h(
    "button",
    {
      class: "btn primary",
      type: "submit",
      testid: "deck-use",
      disabled: draft.busy,
    },
    draft.busy ? t("decks.sending") : t("decks.use"),
  );

  return h(
    "form",
    {
      class: "deck-form",
      style: { display: "grid", gap: ".6rem" },
      onsubmit: async (event) => {
        event.preventDefault();
        if (draft.busy) return;
        if (!draft.text.trim()) {
          draft.error = { code: "deck_empty_input", message: t("decks.empty_input"), params: {} };
          refresh(room);
          return;
        }
        const result = await send(room, draft, "POST", `&mode=${draft.mode}`);
        if (result) {
          draft.text = "";
          draft.fileName = "";
          draft.notice = t("decks.accepted", { count: result.cards });
          toast(draft.notice, "info");
        }
        refresh(room);
      },
    },
    h("p", { class: "hint" }, t("decks.help")),
    h(
      "label",
      { class: "field" },
      h("span", { class: "label" }, t("decks.file")),
      file,
      draft.fileName ? h("span", { class: "hint", testid: "deck-file-name" }, draft.fileName) : null,
    ),
    h("label", { class: "field", for: "deck-text" }, h("span", { class: "label" }, t("decks.paste")), text),
    modes,
    draft.error
      ? h(
          "p",
          {
            class: "deck-error",
            role: "alert",
            testid: "deck-error",
            style: { color: "var(--bad)", fontWeight: "600", margin: "0" },
          },
          errorText(draft.error),
        )
      : null,
    draft.notice
      ? h("p", { class: "hint", testid: "deck-notice", role: "status", style: { margin: "0" } }, draft.notice)
      : null,
    h("div", { class: "actions" }, use),
  );
}

// null when the room's game shows no custom deck card (games.js: deckPanel).
export function deckPanel(room) {
  const state = room.state;
  const settings = state.room.settings || {};
  if (!gameOf(state.room.game).deckPanel || !Array.isArray(settings.custom_cards)) return null;
  const code = state.room.code;
  const amHost = state.you.host;
  const draft = draftFor(code, settings);
  const hasDeck = settings.custom_cards.length > 0;

  const remove = h(
    "button",
    {
      class: "btn small danger",
      type: "button",
      testid: "deck-remove",
      disabled: draft.busy,
      onclick: async () => {
        if (await send(room, draft, "DELETE")) {
          draft.notice = t("decks.removed");
          toast(draft.notice, "info");
        }
        refresh(room);
      },
    },
    t("decks.remove"),
  );

  return h(
    "section",
    { class: "card deck-panel", testid: "deck-panel" },
    h("h2", {}, t("decks.title")),
    summary(settings),
    hasDeck ? exportLinks(code) : null,
    hasDeck && amHost ? h("div", { class: "actions" }, remove) : null,
    amHost ? uploadForm(room, draft) : null,
  );
}
