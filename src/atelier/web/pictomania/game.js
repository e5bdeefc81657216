// Pictomania in the shared modules: its screen, settings form and cues.

import { drawingCues } from "../cues.js";
import { PictomaniaScreen } from "./screen.js";

const first = (s) => s.edition === "first";
const second = (s) => s.edition !== "first";

export default {
  name: "pictomania",
  screen: PictomaniaScreen,
  hints: {
    edition: {
      type: "select",
      options: ["second", "first"],
      // Edition-specific choices start over, so the server's defaults apply.
      patch: (v) => ({
        edition: v,
        rounds: null,
        levels: null,
        competitive: false,
        kids: false,
        learning_round: false,
      }),
    },
    language: { type: "select", labels: "lang" },
    rounds: { type: "int", patch: (v) => ({ rounds: v, levels: null }) },
    levels: { type: "levels" },
    competitive: { type: "bool", when: second },
    learning_round: { type: "bool", when: second },
    kids: { type: "bool", when: first, patch: (v) => ({ kids: v, levels: null }) },
    card_swaps: { type: "int", when: first },
    time_limit: { type: "optional" }, // its step and ticked value: the schema
    player_token_values: { type: "numbers" },
    black_token_values: { type: "numbers" },
    custom_cards: { type: "count" },
    custom_mode: { type: "select", when: (s) => (s.custom_cards || []).length > 0 },
  },
  startFields: ["edition", "time_limit"],
  wordLanguage: true,
  // someone guessed your drawing (not who, nor whether right)
  cues: drawingCues({ reveals: ["review"], guessesOn: (view, me) => view.players?.[me]?.guessed_by?.length ?? 0 }),
  presence: true,
  deckPanel: true,
};
