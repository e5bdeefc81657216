// Tally in the shared modules (web/games.js): its screen and its cues; the
// settings form infers the one setting's control from its value.

import { TallyScreen } from "./screen.js";

export default {
  name: "tally",
  screen: TallyScreen,
  startFields: ["target"],
  cues(prev, next, me) {
    const before = prev?.game;
    const now = next.game;
    if (me !== null && now.to_move === me && before && before.to_move !== me) return ["turn"];
    return now.phase === "over" && before && before.phase !== "over" ? ["reveal"] : [];
  },
  presence: true,
};
