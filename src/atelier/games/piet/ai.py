"""Computer players: random, greedy, easy, medium and hard.

Every level is a pure function of (state, level, seed, budget): budgets count
visited positions or played-out games rather than clock time, so the same
position always gets the same answer (and a replayed game replays exactly).

Medium is a shallow negamax alpha-beta search over the score difference, and
hard searches the rest of the game exactly once it is small enough (endgame.py):
both are search.py's one search, depth-limited or exact. Before the endgame,
hard plays its best candidates out to the end of the game and keeps the one
with the best mean final margin, which is all the previous hard did (kept as
the named engine ``rollout``). See docs/piet.md for why, and for the measured
strength.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from atelier.errors import RuleError
from atelier.games.piet.board import (
    FULL_CANVAS,
    SHAPES,
    Masks,
    chain_score,
    move_score,
)
from atelier.games.piet.endgame import solve
from atelier.games.piet.rules import (
    FILLING,
    OVER,
    PAINTING,
    Fill,
    Move,
    Paint,
    State,
    apply_brush,
    brush_options,
    fill_moves,
    paint_unchecked,
    play,
)
from atelier.games.piet.search import Search

LEVELS = ("random", "greedy", "easy", "medium", "hard", "rollout")
COMPUTER_LEVELS = ("easy", "medium", "hard")


# --- move generation for the search --------------------------------------------


def _palette_colours(palette: Masks) -> list[int]:
    r, y = palette[0], palette[1]
    return [0 if r >> i & 1 else 1 if y >> i & 1 else 2 for i in range(9)]


def scored_paints(state: State) -> list[tuple[int, Paint, int, Masks]]:
    """(points, move, palette cells taken, pieces added) for every painting move."""
    pal = state.palette
    have = pal[0] | pal[1] | pal[2]
    colour_of = _palette_colours(pal)
    canvas = state.canvases[state.to_move]
    free = FULL_CANVAS & ~(canvas[0] | canvas[1] | canvas[2])
    out = []
    for shape in SHAPES:
        if have & shape.mask != shape.mask:
            continue
        cols = [colour_of[c] for c in shape.cells]
        for anchor, place in shape.by_anchor.items():
            if free & place.mask != place.mask:
                continue
            new = [0, 0, 0]
            for col, dst in zip(cols, place.cells, strict=True):
                new[col] |= 1 << dst
            added = (new[0], new[1], new[2])
            out.append((move_score(canvas, added), Paint(shape.cells, anchor), shape.mask, added))
    return out


def best_points(state: State) -> int:
    """The most points the player to move can score with one painting move."""
    return max((p for p, *_ in scored_paints(state)), default=0)


# --- evaluation ------------------------------------------------------------------


def _hooks(canvas: Masks) -> float:
    """What an unfinished canvas promises: for each empty cell, the best extra
    points (beyond the 1 any piece scores) a single piece of some colour would
    score there."""
    filled = canvas[0] | canvas[1] | canvas[2]
    empty = FULL_CANVAS & ~filled
    total = 0
    cell = 0
    while empty:
        if empty & 1:
            bit = 1 << cell
            best = 0
            for colour in (0, 1, 2):
                full = canvas[colour]
                if full:
                    gain = chain_score(full | bit, bit)
                    if gain > best:
                        best = gain
            if best > 1:
                total += best - 1
        empty >>= 1
        cell += 1
    return float(total)


# --- levels ----------------------------------------------------------------------


def _greedy(state: State, rng: random.Random) -> Move:
    if state.phase == FILLING:
        return rng.choice(fill_moves(state))
    paints = scored_paints(state)
    top = max(p for p, *_ in paints)
    return rng.choice([m for p, m, *_ in paints if p == top])


def _random(state: State, rng: random.Random) -> Move:
    if state.phase == FILLING:
        return rng.choice(fill_moves(state))
    return rng.choice([m for _, m, *_ in scored_paints(state)])


def _easy(state: State, rng: random.Random) -> Move:
    # A beginner's opponent: greedy most of the time, with a mistake (a random
    # move among the five best) one move in three.
    if state.phase == FILLING or rng.random() >= 1 / 3:
        return _greedy(state, rng)
    paints = sorted(scored_paints(state), key=lambda item: -item[0])
    return rng.choice(paints[:5])[1]


# --- hard: rollouts ---------------------------------------------------------------
#
# Measured (docs/piet.md): a depth-2/3 alpha-beta over the score difference
# barely beats greedy, because what a move is worth shows only at the end of
# the game (the race to fill a canvas, the palettes left for later phases).
# So hard plays every candidate out to the end with greedy play on both sides
# and keeps the candidate with the best mean final margin: one step of policy
# improvement over greedy, with the same random games for every candidate.


def _greedy_step(state: State, rng: random.Random) -> State:
    if state.phase == FILLING:
        moves = fill_moves(state)
        return play(state, moves[rng.randrange(len(moves))])[0]
    paints = scored_paints(state)
    top = max(item[0] for item in paints)
    best = [item for item in paints if item[0] == top]
    _, _, taken, added = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
    return paint_unchecked(state, taken, added)[0]


def _margin(state: State, player: int) -> float:
    """A finished game's worth: the margin, with a step for winning."""
    diff = state.scores[player] - state.scores[1 - player]
    return diff + 5.0 * ((diff > 0) - (diff < 0))


def playout_py(state: State, seed: int) -> State:
    """The end of the game from ``state`` with greedy play on both sides."""
    rng = random.Random(seed)
    while state.phase != OVER:
        state = _greedy_step(state, rng)
    return state


COMPILED_PLAYOUT: Callable[..., tuple[int, ...]] | None
"""The compiled play-out (_engine.c), None where it was not built."""
try:
    from atelier.games.piet._engine import playout as COMPILED_PLAYOUT
except ImportError:  # installed without a C compiler: playout_py, some 50 times slower
    COMPILED_PLAYOUT = None

_PHASE_CODE = {PAINTING: 0, FILLING: 1, OVER: 2}
_PHASES = (PAINTING, FILLING, OVER)


def playout(state: State, seed: int) -> State:
    """``playout_py``'s answer, from the compiled play-out (_engine.c) where it
    was built: the same moves and the same random numbers, so the same state."""
    if COMPILED_PLAYOUT is None or not 0 <= seed < 1 << 32:
        return playout_py(state, seed)
    (r, y, b), ((a0, a1, a2), (b0, b1, b2)) = state.palette, state.canvases
    (r, y, b, a0, a1, a2, b0, b1, b2, score0, score1, phase, to_move, starter, next_painter,
     finisher) = COMPILED_PLAYOUT(
        r, y, b, a0, a1, a2, b0, b1, b2, state.scores[0], state.scores[1],
        _PHASE_CODE[state.phase], state.to_move, state.starter, state.next_painter,
        state.finisher, seed)
    return state._replace(palette=(r, y, b), canvases=((a0, a1, a2), (b0, b1, b2)),
                          scores=(score0, score1), phase=_PHASES[phase], to_move=to_move,
                          starter=starter, next_painter=next_painter, finisher=finisher)


def rollout(state: State, player: int, seed: int) -> float:
    return _margin(playout(state, seed), player)


@dataclass
class Rollouts:
    budget: int
    """Games played out per move, in total over all candidates."""
    candidates: int = 12
    """Painting moves considered: the best by immediate points."""

    def best_move(self, state: State, rng: random.Random) -> Move:
        player = state.to_move
        kids: list[tuple[Move, State]]
        if state.phase == PAINTING:
            paints = scored_paints(state)
            paints.sort(key=lambda item: -item[0])
            kids = [(move, paint_unchecked(state, taken, added)[0])
                    for _, move, taken, added in paints[: self.candidates]]
        else:
            kids = [(move, play(state, move)[0]) for move in fill_moves(state)]
        if len(kids) == 1:
            return kids[0][0]
        totals = [0.0] * len(kids)
        counts = [0] * len(kids)
        alive = range(len(kids))
        for index in alive:
            child = kids[index][1]
            if child.phase == OVER:
                totals[index], counts[index] = _margin(child, player), 1
        live = [i for i in alive if kids[i][1].phase != OVER]
        spent = 0
        # Successive halving: every live candidate gets the same new games,
        # then the worse half drops out, until the budget is spent.
        while live and spent < self.budget:
            per = max(1, (self.budget - spent) // (len(live) * max(1, len(live).bit_length())))
            seeds = [rng.randrange(1 << 30) for _ in range(per)]
            for index in live:
                for seed in seeds:
                    totals[index] += rollout(kids[index][1], player, seed)
                counts[index] += per
            spent += per * len(live)
            if len(live) <= 2:
                break
            live.sort(key=lambda i: -totals[i] / counts[i])
            live = live[: (len(live) + 1) // 2]
        finals = live + [i for i in alive if kids[i][1].phase == OVER]
        best = max(finals, key=lambda i: totals[i] / counts[i])
        return kids[best][0]


DEFAULT_BUDGET = {"medium": 1500, "hard": 60, "rollout": 60}
ENDGAME_BUDGET = 30_000
"""Positions the exact search may visit (about a second in Python) before hard
falls back to rollouts."""


def _empties(state: State) -> int:
    return sum(16 - (c[0] | c[1] | c[2]).bit_count() for c in state.canvases)


def endgame_in_reach(state: State) -> bool:
    """Whether the exact search is worth trying: no brushes left, and the
    game ends in this painting phase or the next one. Measured: a painting
    phase that must end the game (each move places a piece, so it does when
    the palette holds at least one piece fewer than the empty canvas cells)
    takes a few thousand positions; the filling phase before it up to some
    twenty thousand once three of its nine pieces are down."""
    if state.brushes[0] > 0 or state.brushes[1] > 0 or state.phase == OVER:
        return False
    pieces = (state.palette[0] | state.palette[1] | state.palette[2]).bit_count()
    if state.phase == PAINTING:
        return pieces >= _empties(state) - 1
    return _empties(state) <= 10 and pieces >= 3


def _threat(state: State, opponent: int) -> float:
    """What the opponent can still make of their canvas: their open chain ends,
    plus their best move now if they paint next."""
    value = _hooks(state.canvases[opponent])
    if state.phase == PAINTING and state.to_move == opponent:
        value += best_points(state)
    return value


def _with_brush(state: State, move: Paint) -> Paint:
    """Spend a brush when recolouring one of the opponent's cells takes clearly
    more from them than a brush kept for later is worth."""
    player, opponent = state.to_move, 1 - state.to_move
    after, _ = play(state, move)
    if after.phase == OVER:
        return move
    base = _threat(after, opponent)
    best_gain, best_option = 0.0, None
    for cell, colour in brush_options(after, player):
        gain = base - _threat(apply_brush(after, player, cell, colour), opponent)
        if gain > best_gain:
            best_gain, best_option = gain, (cell, colour)
    threshold = 3.0 if state.brushes[player] > 1 else 4.0
    if best_option is None or best_gain < threshold:
        return move
    return move._replace(brush=best_option)


def choose_move(state: State, level: str, seed: int, budget: int | None = None) -> Move:
    """The move ``level`` plays in ``state`` (a pure function of its arguments)."""
    if state.phase == OVER:
        raise RuleError("game_over")
    rng = random.Random(seed)
    pickers: dict[str, Callable[[State, random.Random], Move]] = {
        "random": _random,
        "greedy": _greedy,
        "easy": _easy,
    }
    if level in pickers:
        return pickers[level](state, rng)
    if level not in DEFAULT_BUDGET:
        raise RuleError("piet.bad_level", level=level)
    nodes = budget if budget is not None else DEFAULT_BUDGET[level]
    move: Move
    if level == "medium":
        move = Search(nodes, exact=False, beam=(0, 6, 4)).best_move(state, rng, max_depth=2)
    else:
        solved = solve(state, ENDGAME_BUDGET) if level == "hard" and endgame_in_reach(
            state) else None
        if solved is not None:
            return solved[1]
        move = Rollouts(nodes).best_move(state, rng)
    if isinstance(move, Paint) and state.brushes_on:
        move = _with_brush(state, move)
    return move


__all__ = ["COMPILED_PLAYOUT", "COMPUTER_LEVELS", "LEVELS", "Fill", "choose_move"]
