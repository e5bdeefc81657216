// When to play which cue, from the states the server sends (nothing here is
// more than the view already tells this seat): a round starts, someone
// guessed (Pictomania) or voted on (Incognito) your drawing — not who nor
// whether right —, the last 10 seconds of a countdown, your turn in Piet,
// the reveal.

import { serverNow } from "./clock.js";
import { gameOf } from "./games.js";
import { cue } from "./sound.js";

// The cues for going from state ``prev`` to ``next`` (both whole state
// messages): each game says which (its descriptor's cues, games.js).
export function cuesBetween(prev, next) {
  if (!next?.game) return [];
  const cues = gameOf(next.room.game).cues;
  return cues ? cues(prev, next, next.you?.seat ?? null) : [];
}

// The drawing games' cues: a round starts, someone guessed your drawing
// (``guessesOn(view, seat)`` counts how many did), the reveal (a game phase
// in ``reveals``).
export function drawingCues({ reveals, guessesOn }) {
  return (prev, next, me) => {
    const out = [];
    const a = prev?.game || null;
    const b = next.game;
    const started = b.phase === "drawing" && (!a || a.phase !== "drawing" || a.round !== b.round);
    if (started && prev) out.push("round");
    if (a && reveals.includes(b.phase) && !reveals.includes(a.phase)) out.push("reveal");
    if (a && me !== null && a.round === b.round && guessesOn(b, me) > guessesOn(a, me)) {
      out.push("guessed");
    }
    return out;
  };
}

function deadlineOf(state) {
  const g = state?.game;
  if (!g) return null;
  // every game's view says when its clock runs out as `deadline`; the last
  // seconds are counted while drawing
  return g.phase === "drawing" ? (g.deadline ?? null) : null;
}

// Plays the cues of each new state, and counts down the last 10 seconds.
export class CueWatcher {
  constructor() {
    this.prev = null;
    this.deadline = null;
    this.lastSecond = null;
    this.timer = setInterval(() => this.tick(), 200);
  }

  onState(state) {
    for (const name of cuesBetween(this.prev, state)) cue(name);
    this.prev = state;
    const deadline = deadlineOf(state);
    if (deadline !== this.deadline) {
      this.deadline = deadline;
      this.lastSecond = null;
    }
  }

  tick() {
    if (!this.deadline) return;
    const left = Math.ceil(this.deadline - serverNow());
    if (left < 1 || left > 10 || left === this.lastSecond) return;
    const first = this.lastSecond === null && left === 10;
    this.lastSecond = left;
    cue(first ? "last" : "tick");
  }

  stop() {
    clearInterval(this.timer);
  }
}
