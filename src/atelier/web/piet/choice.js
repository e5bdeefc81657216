// The move being made: palette cells picked, a canvas cell to paint at, a
// brush on the opponent's canvas, a colour to fill with. Taps change the
// choice; the screen draws it.

import { toast } from "../dom.js";
import { t } from "../i18n.js";
import { fillText, fillsCanvas, landing, paintText, toggleSelection } from "./moves.js";

export function emptyChoice() {
  return { sel: [], target: null, hover: null, brushCell: null, brushColour: null, fillColour: null };
}

export function tapPalette(screen, i) {
  const m = screen.model;
  if (screen.actor === null || screen.sending) return;
  if (m.phase === "filling") {
    if (!screen.fillColour) {
      toast(t("pietui.fill.pick_colour"), "info");
      return;
    }
    screen.send(fillText(screen.fillColour, i));
    return;
  }
  const { selection, restarted } = toggleSelection(screen.sel, i);
  if (restarted) toast(t("pietui.paint.connected"), "info");
  screen.sel = selection;
  screen.target = null;
  screen.brushCell = null;
  screen.brushColour = null;
  screen.refresh();
}

export function hoverCanvas(screen, seat, i) {
  if (seat !== screen.actor || screen.model.phase !== "painting" || screen.target !== null) return;
  if (screen.hover === i) return;
  screen.hover = i;
  screen.drawCanvases();
}

export function tapCanvas(screen, seat, i) {
  const m = screen.model;
  const actor = screen.actor;
  if (actor === null || m.phase !== "painting" || screen.sending) return;
  if (seat === actor) {
    if (screen.sel.length === 0) return;
    const text = paintText(screen.sel, i);
    if (!m.legal.includes(text)) {
      screen.hover = i;
      screen.target = null;
      toast(t("pietui.paint.illegal"), "info");
      screen.refresh();
      return;
    }
    screen.target = screen.target === i ? null : i;
    screen.brushCell = null;
    screen.brushColour = null;
    screen.refresh();
    return;
  }
  const pending = pendingPaint(screen);
  if (pending && brushAllowed(screen, pending) && m.canvases[seat][i]) {
    screen.brushCell = screen.brushCell === i ? null : i;
    screen.brushColour = null;
    screen.refresh();
  }
}

// The preview at the chosen target, else at the hovered cell.
export function previewCells(screen) {
  const anchor = screen.target ?? screen.hover;
  if (anchor === null || screen.sel.length === 0) return null;
  const text = paintText(screen.sel, anchor);
  const legal = screen.model.legal.includes(text);
  return { anchor, legal, landed: landing(screen.sel, anchor), text };
}

export function pendingPaint(screen) {
  if (screen.target === null || screen.sel.length === 0) return null;
  const text = paintText(screen.sel, screen.target);
  if (!screen.model.legal.includes(text)) return null;
  return { text, landed: landing(screen.sel, screen.target) };
}

export function brushAllowed(screen, pending) {
  const m = screen.model;
  const actor = screen.actor;
  if (!m.brushesOn || actor === null || m.brushes[actor] <= 0) return false;
  // A move that fills the canvas ends the game at once: no brush after it.
  return !fillsCanvas(m.canvases[actor], pending.landed);
}
