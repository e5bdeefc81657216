// Piet in the shared modules: its screen, lobby cards, settings form and cues.

import { pietLobbyCards } from "./lobbycard.js";
import { PietScreen } from "./screen.js";
import { tutorialCard } from "./tutorial.js";

export default {
  name: "piet",
  screen: PietScreen,
  lobbyCards: pietLobbyCards,
  // the start page's card: the guided first game and the puzzles
  startCard: tutorialCard,
  hints: {
    // A loaded record's headers fix setup and brushes.
    setup: { type: "select", disabled: (s) => Boolean(s.record) },
    brushes: { type: "bool", disabled: (s) => Boolean(s.record) },
    // The record has a card of its own in the lobby (web/piet/lobbycard.js).
    record: { type: "readonly", when: () => false },
    // null (no computer) shows as the first option, "friend".
    opponent: {
      type: "select",
      options: ["friend", "easy", "medium", "hard"],
      patch: (v) => ({ opponent: v === "friend" ? null : v }),
    },
    // correspondence play: a time per move in days, or none (a live game)
    move_days: {
      type: "select",
      options: ["live", 1, 3, 7],
      patch: (v) => ({ move_days: v === "live" ? null : Number(v) }),
    },
    computer_seat: {
      type: "select",
      options: [1, 0],
      patch: (v) => ({ computer_seat: Number(v) }),
      when: (s) => s.opponent !== null && s.opponent !== undefined,
    },
  },
  startFields: ["opponent", "computer_seat", "move_days"],
  // a board game: no words, so the start page's word language is the room's language only
  wordLanguage: false,
  cues(prev, next, me) {
    const out = [];
    const a = prev?.game || null;
    const b = next.game;
    const samePlay = a && a.phase !== undefined && prev.room.phase === next.room.phase;
    if (prev && prev.room.phase === "lobby" && next.room.phase === "playing") out.push("round");
    const mine = (s) => s.to_move !== null && s.to_move !== undefined && s.to_move === me;
    if (me !== null && next.room.phase === "playing" && mine(b) && (!a || !mine(a)) && samePlay) out.push("turn");
    if (a && b.phase === "over" && a.phase !== "over") out.push("reveal");
    return out;
  },
};
