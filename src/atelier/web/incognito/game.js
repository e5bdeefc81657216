// Incognito in the shared modules: its screen, settings form and cues.

import { drawingCues } from "../cues.js";
import { IncognitoScreen } from "./screen.js";

export default {
  name: "incognito",
  screen: IncognitoScreen,
  hints: {
    language: { type: "select", labels: "lang" },
    rounds: { type: "int" },
    countdown: { type: "int" },
    drawing_time_limit: { type: "optional" }, // its step and ticked value: the schema
    custom_words: { type: "count" },
    custom_locations: { type: "count" },
  },
  startFields: ["drawing_time_limit"],
  wordLanguage: true,
  cues: drawingCues({
    // the last round goes from the vote straight to the end, which shows that
    // round's reveal too
    reveals: ["scored", "over"],
    // someone voted on your drawing (not who)
    guessesOn: (view, me) => (view.players || []).filter((p) => (p.voted_on || []).includes(me)).length,
  }),
  presence: true,
};
