// When to play which cue, from the states the server sends (nothing here is
// more than the view already tells this seat): a round starts, someone
// guessed (Pictomania) or voted on (Incognito) your drawing — not who nor
// whether right —, the last 10 seconds of a countdown, your turn in Piet,
// the reveal.

import { serverNow } from "./clock.js";
import { cue } from "./sound.js";

// The cues for going from state ``prev`` to ``next`` (both whole state messages).
export function cuesBetween(prev, next) {
  const out = [];
  const a = prev?.game || null;
  const b = next?.game || null;
  if (!b) return out;
  const me = next.you?.seat ?? null;
  const game = next.room.game;
  const samePlay = a && a.phase !== undefined && prev.room.phase === next.room.phase;
  if (game === "pictomania" || game === "incognito") {
    const started = b.phase === "drawing" && (!a || a.phase !== "drawing" || a.round !== b.round);
    if (started && prev) out.push("round");
    // Incognito's last round goes from the vote straight to the end, which
    // shows that round's reveal too
    const reveals = game === "pictomania" ? ["review"] : ["scored", "over"];
    if (a && reveals.includes(b.phase) && !reveals.includes(a.phase)) out.push("reveal");
    if (a && me !== null && a.round === b.round && guessesOn(game, b, me) > guessesOn(game, a, me)) {
      out.push("guessed");
    }
  } else if (game === "piet") {
    if (prev && prev.room.phase === "lobby" && next.room.phase === "playing") out.push("round");
    const mine = (s) => s.to_move !== null && s.to_move !== undefined && s.to_move === me;
    if (me !== null && next.room.phase === "playing" && mine(b) && (!a || !mine(a)) && samePlay) out.push("turn");
    if (a && b.phase === "over" && a.phase !== "over") out.push("reveal");
  }
  return out;
}

function guessesOn(game, view, me) {
  if (game === "pictomania") return view.players?.[me]?.guessed_by?.length ?? 0;
  return (view.players || []).filter((p) => (p.voted_on || []).includes(me)).length;
}

function deadlineOf(state) {
  const g = state?.game;
  if (!g) return null;
  // every game's view says when its clock runs out as `deadline`; the last
  // seconds are counted while drawing
  return g.phase === "drawing" ? g.deadline ?? null : null;
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
