// The ink tool buttons every drawing screen shows: pen/eraser, undo and
// clear, as the server's ink_tools allow. `board` is the screen's ink board
// (tool, setTool, undo, clear); `redraw` redraws the buttons after a switch.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function toolButtons(board, inkTools, redraw) {
  const tools = new Set(inkTools || []);
  const out = [];
  if (tools.has("pen") && tools.has("eraser")) {
    for (const tool of ["pen", "eraser"]) {
      out.push(
        h(
          "button",
          {
            class: `btn tool ${board.tool === tool ? "selected" : ""}`,
            type: "button",
            testid: `tool-${tool}`,
            "aria-pressed": String(board.tool === tool),
            title: t(`tool.${tool}`),
            onclick: () => {
              board.setTool(tool);
              redraw();
            },
          },
          tool === "pen" ? "✎" : "⌫",
          h("span", { class: "tool-label" }, t(`tool.${tool}`)),
        ),
      );
    }
  }
  if (tools.has("undo")) {
    out.push(
      h(
        "button",
        { class: "btn tool", type: "button", testid: "tool-undo", title: t("tool.undo"), onclick: () => board.undo() },
        "↶",
        h("span", { class: "tool-label" }, t("tool.undo")),
      ),
    );
  }
  if (tools.has("clear")) {
    out.push(
      h(
        "button",
        {
          class: "btn tool",
          type: "button",
          testid: "tool-clear",
          title: t("tool.clear"),
          onclick: () => {
            if (confirm(t("tool.clear_confirm"))) board.clear();
          },
        },
        "✕",
        h("span", { class: "tool-label" }, t("tool.clear")),
      ),
    );
  }
  return out;
}
