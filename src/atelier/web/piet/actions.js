// The panel under the boards: what the player to move can do now (pick
// palette cells, place, brush, fill), the wait for the other side, or the
// result with the record and the next game.

import { h, nameList, radioKeys, replace } from "../dom.js";
import { t, tn } from "../i18n.js";
import { againPanel } from "../again.js";
import { colourName, pieceLetter } from "./board.js";
import { brushAllowed, pendingPaint } from "./choice.js";
import { COLOURS, PER_COLOUR, brushText, colourCounts, selectionFits } from "./moves.js";
import { downloadRecord } from "./record.js";

function piece(c) {
  return h("span", { class: "piet-piece" }, h("span", { class: "piet-letter" }, pieceLetter(c)));
}

function resultPanel(screen) {
  return h(
    "div",
    { class: "piet-result", testid: "piet-result" },
    h("strong", {}, screen.turnText()),
    againPanel(screen.room),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { class: "btn primary", type: "button", testid: "piet-download-end", onclick: () => downloadRecord(screen) },
        t("pietui.record.download"),
      ),
      screen.extraEndActions?.() ?? null,
      h("a", { class: "btn", href: "/" }, t("pietui.new_game")),
    ),
  );
}

function fillPanel(screen) {
  const counts = colourCounts(screen.model.palette);
  const group = h(
    "div",
    { class: "piet-colours", role: "radiogroup", "aria-label": t("pietui.fill.colour") },
    COLOURS.map((c) => {
      const left = PER_COLOUR - counts[c];
      return h(
        "button",
        {
          type: "button",
          class: `piet-colour has-${c} ${screen.fillColour === c ? "selected" : ""}`,
          role: "radio",
          "aria-checked": String(screen.fillColour === c),
          testid: `piet-fill-${c}`,
          disabled: left <= 0,
          onclick: () => {
            screen.fillColour = c;
            screen.refresh();
          },
        },
        piece(c),
        h("span", {}, colourName(c)),
        h("small", {}, t("pietui.fill.left", { n: Math.max(0, left) })),
      );
    }),
  );
  radioKeys(group);
  return [h("p", { class: "hint" }, t("pietui.fill.hint")), group];
}

function brushColours(screen, opponent) {
  const current = screen.model.canvases[opponent][screen.brushCell];
  const none = h(
    "button",
    {
      class: "btn small ghost",
      type: "button",
      testid: "piet-brush-none",
      onclick: () => {
        screen.brushCell = null;
        screen.brushColour = null;
        screen.refresh();
      },
    },
    t("pietui.brush.none"),
  );
  return h(
    "div",
    { class: "piet-colours" },
    COLOURS.filter((c) => c !== current).map((c) =>
      h(
        "button",
        {
          type: "button",
          class: `piet-colour has-${c} ${screen.brushColour === c ? "selected" : ""}`,
          testid: `piet-brush-${c}`,
          onclick: () => {
            screen.brushColour = screen.brushColour === c ? null : c;
            screen.refresh();
          },
        },
        piece(c),
        h("span", {}, colourName(c)),
      ),
    ),
    none,
  );
}

function paintPanel(screen) {
  const m = screen.model;
  const actor = screen.actor;
  if (screen.sel.length === 0) return [h("p", { class: "hint" }, t("pietui.paint.pick"))];
  const cancel = h(
    "button",
    {
      class: "btn ghost",
      type: "button",
      testid: "piet-cancel",
      onclick: () => {
        screen.resetChoice();
        screen.refresh();
      },
    },
    t("pietui.cancel"),
  );
  const pending = pendingPaint(screen);
  if (!pending) {
    const fits = selectionFits(m.legal, screen.sel);
    return [
      h("p", { class: "hint" }, fits ? t("pietui.paint.where") : t("pietui.paint.no_room")),
      h("div", { class: "actions" }, cancel),
    ];
  }
  let text = pending.text;
  const rows = [];
  if (brushAllowed(screen, pending)) {
    const opponent = 1 - actor;
    rows.push(
      h(
        "p",
        { class: "hint" },
        tn("pietui.brush.hint", { name: nameList([screen.name(opponent)]), n: m.brushes[actor] }),
      ),
    );
    if (screen.brushCell !== null) {
      rows.push(brushColours(screen, opponent));
      if (screen.brushColour) text += brushText(screen.brushCell, screen.brushColour);
    }
  }
  const place = h(
    "button",
    {
      class: "btn primary big",
      type: "button",
      testid: "piet-place",
      disabled: screen.sending,
      onclick: () => screen.send(text),
    },
    t("pietui.paint.place"),
  );
  return [
    h("p", { class: "piet-pending" }, t("pietui.paint.ready"), " ", h("code", { testid: "piet-pending" }, text)),
    rows,
    h("div", { class: "actions" }, place, cancel),
  ];
}

// The move the player has in mind (for a hint's comparison), or null.
export function movePending(screen) {
  const pending = pendingPaint(screen);
  if (!pending) return null;
  let text = pending.text;
  if (screen.brushCell !== null && screen.brushColour) text += brushText(screen.brushCell, screen.brushColour);
  return text;
}

export function drawActions(screen) {
  const m = screen.model;
  const box = screen.parts.actions;
  if (m.phase === "over") {
    replace(box, resultPanel(screen));
    return;
  }
  if (screen.actor === null) {
    const watching = screen.state.you.seat === null && !screen.second;
    replace(box, h("p", { class: "hint" }, watching ? t("lobby.watching") : t("pietui.wait")));
    return;
  }
  const body = m.phase === "filling" ? fillPanel(screen) : paintPanel(screen);
  replace(box, body, screen.extraActions?.() ?? null);
}
