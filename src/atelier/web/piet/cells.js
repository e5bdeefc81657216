// Drawing the palette and both canvases for the position and the choice in
// progress: which cells can be picked, the preview of a paint, brushable pieces.

import { colourCss, h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { Grid, PALETTE_SIZE } from "./board.js";
import { brushAllowed, hoverCanvas, pendingPaint, previewCells, tapCanvas, tapPalette } from "./choice.js";
import { selectionFits, usableCells } from "./moves.js";

// The palette and both canvases as tappable grids wired to the screen's choice
// (choice.js); a game and a puzzle build the same board.
export function boardGrids(screen) {
  const palette = new Grid({
    kind: "palette",
    width: 3,
    testid: "piet-palette",
    label: t("pietui.palette"),
    onTap: (i) => tapPalette(screen, i),
  });
  const canvases = [0, 1].map(
    (seat) =>
      new Grid({
        kind: "canvas",
        width: 4,
        testid: `piet-canvas-${seat}`,
        label: t("pietui.canvas_of", { name: screen.name(seat) }),
        onTap: (i) => tapCanvas(screen, seat, i),
        onHover: (i) => hoverCanvas(screen, seat, i),
      }),
  );
  return { palette, canvases };
}

// The two canvases either side of the palette, each with its caption above.
export function boardsLayout(parts, tag = "section") {
  const board = (seat) =>
    h("div", { class: `piet-board piet-board-${seat}` }, parts.captions[seat], parts.canvases[seat].el);
  return h(
    tag,
    { class: "piet-boards" },
    board(0),
    h(
      "div",
      { class: "piet-board piet-board-palette" },
      h("div", { class: "piet-caption" }, t("pietui.palette")),
      parts.palette.el,
    ),
    board(1),
  );
}

export function drawPalette(screen) {
  const m = screen.model;
  const actor = screen.actor;
  const painting = m.phase === "painting" && actor !== null;
  const filling = m.phase === "filling" && actor !== null;
  const usable = painting ? usableCells(m.legal) : new Set();
  const freeFill = new Set(filling ? m.legal.filter((x) => x.includes("@")).map((x) => x.split("@")[1]) : []);
  const palette = screen.parts.palette;
  for (let i = 0; i < PALETTE_SIZE; i += 1) {
    const colour = m.palette[i];
    const classes = [];
    let disabled = true;
    if (painting && colour) {
      disabled = !usable.has(i);
      if (screen.sel.includes(i)) classes.push("selected");
      if (disabled) classes.push("unusable");
    }
    const name = palette.cells[i].dataset.cell;
    if (filling && !colour) {
      disabled = !freeFill.has(name);
      if (!disabled) classes.push("fillable");
      if (screen.fillColour && !disabled) classes.push(`ghost-${screen.fillColour}`);
    }
    screen.marks?.palette?.(i, name, classes);
    palette.set(i, { colour, classes, disabled });
  }
}

function canvasLooks(screen, seat, preview, pending) {
  const m = screen.model;
  const actor = screen.actor;
  const mine = seat === actor && m.phase === "painting";
  const looks = m.canvases[seat].map((colour) => ({ colour, classes: [], disabled: true }));
  if (mine) {
    const fits = selectionFits(m.legal, screen.sel);
    looks.forEach((look, i) => {
      look.disabled = screen.sel.length === 0 || Boolean(look.colour);
      if (screen.sel.length && !look.colour && fits) look.classes.push("target");
      if (screen.target === i) look.classes.push("anchor");
    });
  }
  if (mine && preview) {
    for (const { from, to } of preview.landed) {
      if (to === null) continue;
      const look = looks[to];
      look.classes.push(preview.legal ? "preview" : "preview-bad");
      if (!look.colour) {
        look.colour = m.palette[from];
        look.classes.push("ghost");
      }
    }
    if (!preview.legal) looks[preview.anchor].classes.push("preview-bad");
  }
  if (pending && seat !== actor && brushAllowed(screen, pending)) {
    looks.forEach((look, i) => {
      if (!look.colour) return;
      look.disabled = false;
      look.classes.push("brushable");
      if (screen.brushCell === i) {
        look.classes.push("brush-cell");
        if (screen.brushColour) look.colour = screen.brushColour;
      }
    });
  }
  return { looks, mine };
}

export function drawCanvases(screen) {
  const m = screen.model;
  const preview = m.phase === "painting" && screen.actor !== null ? previewCells(screen) : null;
  const pending = pendingPaint(screen);
  for (const seat of [0, 1]) {
    const grid = screen.parts.canvases[seat];
    const { looks, mine } = canvasLooks(screen, seat, preview, pending);
    looks.forEach((look, i) => {
      screen.marks?.canvas?.(seat, i, look.classes);
      grid.set(i, look);
    });
    grid.el.classList.toggle("active", mine);
    replace(
      screen.parts.captions[seat],
      h("span", { class: "swatch small", style: { background: colourCss(screen.player(seat)?.colour || "grey") } }),
      // the whole translated caption as one text on one line, so a line never
      // breaks between a name and its "’s canvas" nor inside a long name; what
      // does not fit ends in an ellipsis, the whole caption in its title
      captionText(t("pietui.canvas_of", { name: screen.name(seat) })),
    );
  }
}

function captionText(text) {
  return h("span", { class: "piet-caption-text", title: text }, text);
}
