// Hints: the player to move asks, the server logs the request (the rules say
// whether this game allows hints, and the record says which moves were
// hinted), then the engine's best move is shown on the board with what it is
// worth against the move the player had in mind.

import { h, toast } from "../dom.js";
import { errorText, t } from "../i18n.js";
import { points, roomAdvice, spread } from "./advice.js";
import { movePending } from "./actions.js";
import { landing, moveCells } from "./moves.js";
import { connectionFor } from "./seats.js";

const CANVAS = "abcd";

function canvasCell(name) {
  return (Number(name[1]) - 1) * 4 + CANVAS.indexOf(name[0]);
}

// The cells a move text touches: palette cells taken or filled, canvas cells painted.
export function moveFootprint(text) {
  const move = String(text || "");
  if (move.includes("@")) {
    const [, cell] = move.split("@");
    return { palette: [(Number(cell[1]) - 1) * 3 + "abc".indexOf(cell[0])], canvas: [] };
  }
  const cells = moveCells(move);
  const target = canvasCell(move.split(">")[1].trim().slice(0, 2));
  const canvas = landing(cells, target)
    .map((x) => x.to)
    .filter((x) => x !== null);
  return { palette: cells, canvas };
}

// The hint for the position on the board now, or null.
export function currentHint(screen) {
  const hint = screen.hint;
  return hint && hint.ply === screen.model.moves.length ? hint : null;
}

// Marks the hinted move's cells (cells.js asks through screen.marks).
export function hintMarks(screen) {
  return {
    palette: (i, _name, classes) => {
      const hint = currentHint(screen);
      if (hint && hint.footprint.palette.includes(i)) classes.push("hinted");
    },
    canvas: (seat, i, classes) => {
      const hint = currentHint(screen);
      if (hint && seat === hint.seat && hint.footprint.canvas.includes(i)) classes.push("hinted");
    },
  };
}

export async function askHint(screen) {
  const seat = screen.actor;
  if (seat === null || screen.asking) return;
  const ply = screen.model.moves.length;
  const against = movePending(screen);
  screen.asking = true;
  screen.refresh();
  try {
    await connectionFor(screen, seat).request({ t: "act", action: { type: "hint" } }, { quiet: true });
    const data = await roomAdvice(screen.room.code, "hint", against ? { against } : {});
    screen.hint = { ply, seat, ...data, footprint: moveFootprint(data.move) };
  } catch (error) {
    toast(errorText(error));
  } finally {
    screen.asking = false;
    screen.refresh();
  }
}

// What the player's move is worth beside the engine's, both valued on the same
// games (analysis.compare): when theirs comes out ahead, the sentence says why.
function verdictText(hint) {
  const { verdict, noise } = hint.against;
  const loss = Math.round(hint.margin) - Math.round(hint.against.margin);
  if (verdict === "better") return t("learn.hint.better");
  if (verdict === "worse" && loss > 0) return t("learn.hint.loss", { n: loss });
  if (hint.against.margin > hint.margin || (verdict === "equal" && loss !== 0)) {
    return t("learn.hint.noise", { noise: spread(noise) });
  }
  return t("learn.hint.as_good");
}

// The hint button, or the hint itself once it came.
export function hintPanel(screen) {
  if (!screen.model.hints || screen.actor === null) return null;
  const hint = currentHint(screen);
  if (!hint) {
    return h(
      "div",
      { class: "actions piet-hint-ask" },
      h(
        "button",
        {
          class: "btn ghost",
          type: "button",
          testid: "piet-hint",
          disabled: Boolean(screen.asking),
          onclick: () => askHint(screen),
        },
        screen.asking ? t("learn.hint.thinking") : t("learn.hint.ask"),
      ),
    );
  }
  const rows = [
    h(
      "p",
      {},
      t("learn.hint.best"),
      " ",
      h("code", { testid: "piet-hint-move" }, hint.move),
      " ",
      h("span", { testid: "piet-hint-margin" }, t("learn.hint.worth", { points: points(hint.margin) })),
    ),
  ];
  if (hint.against) {
    rows.push(
      h(
        "p",
        { testid: "piet-hint-against", dataset: { verdict: hint.against.verdict || "" } },
        t("learn.hint.yours", { move: hint.against.move, points: points(hint.against.margin) }),
        " ",
        verdictText(hint),
      ),
    );
  }
  return h("div", { class: "piet-hint", testid: "piet-hint-box", role: "status" }, rows);
}
