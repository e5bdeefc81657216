// The palette (3x3) and the two canvases (4x4) as grids of buttons: each
// piece shows its colour, a pattern and a letter, so colours never have to be
// told apart by hue alone.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { CANVAS_W, PALETTE_W, canvasName, paletteName } from "./moves.js";

export function pieceLetter(colour) {
  return t(`pietui.letter.${colour}`);
}

export function colourName(colour) {
  return t(`piet.colour.${colour}`);
}

// A grid whose cells keep their elements between updates, so a pointer
// resting on a cell keeps its hover while the board changes around it.
export class Grid {
  constructor({ kind, width, testid, label, onTap, onHover }) {
    this.kind = kind;
    this.width = width;
    this.cells = [];
    const size = width * width;
    const name = kind === "palette" ? paletteName : canvasName;
    this.el = h("div", {
      class: `piet-grid piet-${kind}`,
      testid,
      // A group of buttons (not role=grid: a grid needs rows and gridcells).
      role: "group",
      "aria-label": label,
      style: { "--n": String(width) },
    });
    for (let i = 0; i < size; i += 1) {
      const cell = h(
        "button",
        {
          type: "button",
          class: "piet-cell",
          testid: `${testid}-${name(i)}`,
          dataset: { cell: name(i) },
          onclick: () => onTap?.(i),
          onpointerenter: (e) => {
            if (e.pointerType === "mouse") onHover?.(i);
          },
          onpointerleave: (e) => {
            if (e.pointerType === "mouse") onHover?.(null);
          },
          // Keyboard users get the same preview as a hovering mouse.
          onfocus: () => onHover?.(i),
        },
        h("span", { class: "piet-piece" }, h("span", { class: "piet-letter" })),
        h("span", { class: "piet-name" }, name(i)),
      );
      this.cells.push(cell);
      this.el.append(cell);
    }
  }

  // look: {colour, classes: [...], label, disabled}
  set(i, look) {
    const cell = this.cells[i];
    const colour = look.colour || "";
    cell.className = ["piet-cell", colour ? `has-${colour}` : "empty", ...(look.classes || [])].join(" ");
    cell.dataset.colour = colour;
    cell.disabled = Boolean(look.disabled);
    cell.querySelector(".piet-letter").textContent = colour ? pieceLetter(colour) : "";
    const where = cell.dataset.cell;
    cell.setAttribute("aria-label", look.label || (colour ? `${where}: ${colourName(colour)}` : where));
  }
}

export const PALETTE_SIZE = PALETTE_W * PALETTE_W;
export const CANVAS_SIZE = CANVAS_W * CANVAS_W;
