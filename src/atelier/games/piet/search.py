"""Piet's one game-tree search: negamax alpha-beta over score margins.

Positions are bit masks kept relative to the player to move (their canvas
first, the score difference from their side), so one transposition-table entry
serves both players; moves are ordered by the points they score now, and the
table's best move of a position is tried first. Brushes are left out (the
computer decides a brush after its move, ai.py).

Two uses, one search:

- **exact** (endgame.py, hints, reviews and puzzles): the whole rest of the
  game, painting and filling phases and the end with its bonus; past its
  budget of positions it gives up (``OutOfBudget``), so a caller can try it
  wherever the game might be small enough and fall back otherwise;
- **depth-limited** (the medium computer): ``depth`` plies deep, the moves at
  each ply below the root cut to a ``beam``, a position at the horizon worth
  its score difference so far; past its budget it settles for the deepest
  finished iteration.

Budgets count positions, so an answer never depends on the clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from atelier.games.piet.board import (
    FULL_BONUS,
    FULL_CANVAS,
    FULL_PALETTE,
    PER_COLOUR,
    SHAPES,
    move_score,
)
from atelier.games.piet.rules import FILLING, OVER, PAINTING, Fill, Move, Paint, State

# Per shape: its palette mask, its palette cells, and per placement the anchor
# and the canvas bit of each of the shape's cells.
_SHAPES = tuple(
    (shape.mask, shape.cells,
     tuple((anchor, place.mask, tuple(1 << t for t in place.cells))
           for anchor, place in shape.by_anchor.items()))
    for shape in SHAPES
)

EXACT, LOWER, UPPER = 0, 1, 2
WHOLE_GAME = 1 << 20
"""The depth of an exact search: more plies than any game has."""
_FILL_ID = 1 << 12
"""Set in the id of a filling move; a painting move's id is shape << 5 | anchor."""

Key = tuple[int, int, int, int, int, int, int, int, int, int, bool, bool]
Masks3 = tuple[int, int, int]
Args = tuple[Masks3, Masks3, Masks3, int, bool, bool]
"""A position for ``search``: palette, mover's canvas, other canvas, score
difference, filling, key_me."""
Child = tuple[int, int, int, int, Args | None]
"""(move id, order, kind, final margin when kind is 0, position otherwise)."""
_NONE: Args | None = None


class OutOfBudget(Exception):
    """The search visited more positions than it was allowed."""


@dataclass
class Search:
    """One search (its table is kept between calls on the same game)."""

    budget: int
    """Positions to visit: an exact search gives up past it, a depth-limited one
    settles for the deepest iteration it finished."""
    exact: bool = True
    beam: tuple[int, ...] = (0,)
    """Moves tried at each ply below the root (0: all); the last repeats."""
    nodes: int = 0
    table: dict[Key, tuple[int, int, int, int]] = field(default_factory=dict)
    """Position -> (value, bound kind, best move id, depth searched)."""

    # --- the recursive search ------------------------------------------------------

    def search(self, pal: Masks3, me: Masks3, them: Masks3, diff: int, filling: bool, key_me: bool,
               alpha: int, beta: int, depth: int = WHOLE_GAME, ply: int = 0) -> int:
        """Final (my score - their score) under best play, ``diff`` being the
        difference now (at the horizon of a depth-limited search: ``diff``).
        ``key_me``: in a painting phase, whether I started it; in a filling
        phase, whether I start the painting phase after it."""
        self.nodes += 1
        if self.nodes > self.budget:
            if self.exact:
                raise OutOfBudget
            return diff
        if depth <= 0:
            return diff
        key = (pal[0], pal[1], pal[2], me[0], me[1], me[2], them[0], them[1], them[2],
               diff, filling, key_me)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            value, flag, first, searched = entry
            if searched >= depth and (
                flag == EXACT or (flag == LOWER and value >= beta)
                or (flag == UPPER and value <= alpha)
            ):
                return value
        start_alpha = alpha
        best, best_move = -10_000, -1
        children = self._fills(pal, me, them, diff, key_me) if filling else self._paints(
            pal, me, them, diff, key_me)
        if first >= 0:
            for i, item in enumerate(children):
                if item[0] == first:
                    children.insert(0, children.pop(i))
                    break
        width = self.beam[min(ply, len(self.beam) - 1)]
        if width:
            children = children[:width]
        for move_id, _, kind, final, child in children:
            if child is None:  # the game is over
                value = final
            elif kind == 1:  # the same player moves again
                value = self.search(*child, alpha, beta, depth - 1, ply + 1)
            else:
                value = -self.search(*child, -beta, -alpha, depth - 1, ply + 1)
            if value > best:
                best, best_move = value, move_id
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if self.nodes <= self.budget:  # a search cut short by its budget is not kept
            flag = LOWER if best >= beta else UPPER if best <= start_alpha else EXACT
            self.table[key] = (best, flag, best_move, depth)
        return best

    # --- children (Child) -------------------------------------------------------------
    # kind 0: game over; kind 1: the mover moves again; kind 2: the opponent moves.

    def _paints(
        self, pal: Masks3, me: Masks3, them: Masks3, diff: int, started: bool
    ) -> list[Child]:
        pr, py, pb = pal
        have = pr | py | pb
        mr, my, mb = me
        mine = mr | my | mb
        free = FULL_CANVAS & ~mine
        out: list[Child] = []
        for index, (smask, cells, placements) in enumerate(_SHAPES):
            if have & smask != smask:
                continue
            colours = [0 if pr >> c & 1 else 1 if py >> c & 1 else 2 for c in cells]
            keep = ~smask
            left = (pr & keep, py & keep, pb & keep)
            for anchor, pmask, bits in placements:
                if free & pmask != pmask:
                    continue
                new = [0, 0, 0]
                for colour, bit in zip(colours, bits, strict=True):
                    new[colour] |= bit
                points = move_score(me, (new[0], new[1], new[2]))
                after = (mr | new[0], my | new[1], mb | new[2])
                now = diff + points
                move_id = index << 5 | anchor
                if mine | pmask == FULL_CANVAS:
                    out.append((move_id, points + 100, 0, now + FULL_BONUS, _NONE))
                elif left[0] | left[1] | left[2]:
                    child = (left, them, after, -now, False, not started)
                    out.append((move_id, points, 2, 0, child))
                else:
                    # The palette is empty: a filling phase, lower score first,
                    # then fewer pieces, then whoever started this painting phase.
                    if now != 0:
                        i_fill = now < 0
                    else:
                        mine_n = (mine | pmask).bit_count()
                        theirs_n = (them[0] | them[1] | them[2]).bit_count()
                        i_fill = mine_n < theirs_n if mine_n != theirs_n else started
                    if i_fill:
                        out.append((move_id, points, 1, 0, (left, after, them, now, True, True)))
                    else:
                        out.append((move_id, points, 2, 0, (left, them, after, -now, True, True)))
        out.sort(key=lambda item: -item[1])
        return out

    def _fills(
        self, pal: Masks3, me: Masks3, them: Masks3, diff: int, paint_next: bool
    ) -> list[Child]:
        have = pal[0] | pal[1] | pal[2]
        out: list[Child] = []
        for colour in (0, 1, 2):
            if pal[colour].bit_count() >= PER_COLOUR:
                continue
            for cell in range(9):
                bit = 1 << cell
                if have & bit:
                    continue
                masks = [pal[0], pal[1], pal[2]]
                masks[colour] |= bit
                after = (masks[0], masks[1], masks[2])
                move_id = _FILL_ID | colour << 4 | cell
                if have | bit != FULL_PALETTE:
                    out.append((move_id, 0, 2, 0, (after, them, me, -diff, True, not paint_next)))
                elif paint_next:
                    out.append((move_id, 0, 1, 0, (after, me, them, diff, False, True)))
                else:
                    out.append((move_id, 0, 2, 0, (after, them, me, -diff, False, True)))
        return out

    # --- the root ----------------------------------------------------------------------

    def value(self, state: State, alpha: int = -10_000, beta: int = 10_000) -> int | None:
        """The final margin for the player to move in ``state`` under best play,
        or None if the budget ran out first (an exact search). With a narrower
        window than the default the answer is only a bound when it falls outside
        the window (value <= alpha: at most that; value >= beta: at least that),
        which is cheaper when a caller only asks whether a position is won."""
        if state.phase == OVER:
            raise ValueError("the game is over")
        try:
            return self.search(*_args(state), alpha, beta)
        except OutOfBudget:
            return None

    def solve(self, state: State) -> tuple[int, Move] | None:
        """(final margin for the player to move, a move that achieves it) under
        best play, or None if the budget ran out first."""
        value = self.value(state)
        if value is None:
            return None
        pal, me, them, diff, filling, key_me = _args(state)
        move_id = self.table[(*pal, *me, *them, diff, filling, key_me)][2]
        return value, move_of(state, move_id)

    def best_move(self, state: State, rng: random.Random, max_depth: int) -> Move:
        """A depth-limited search's move: iterative deepening up to ``max_depth``
        plies while the budget lasts, the best moves of the deepest finished
        iteration tied by ``rng``."""
        pal, me, them, diff, filling, key_me = _args(state)
        kids = self._fills(pal, me, them, diff, key_me) if filling else self._paints(
            pal, me, them, diff, key_me)
        if len(kids) == 1:
            return move_of(state, kids[0][0])
        order = list(range(len(kids)))
        choice = kids[0][0]
        for depth in range(1, max_depth + 1):
            alpha = -10_000
            scores: dict[int, int] = {}
            for index in order:
                _, _, kind, final, child = kids[index]
                if child is None:
                    v = final
                elif kind == 1:
                    v = self.search(*child, alpha, 10_000, depth - 1, 1)
                else:
                    v = -self.search(*child, -10_000, -alpha, depth - 1, 1)
                if self.nodes > self.budget:
                    break
                scores[index] = v
                alpha = max(alpha, v)
            else:
                top = max(scores.values())
                tied = [i for i in order if scores[i] == top]
                choice = kids[rng.choice(tied) if len(tied) > 1 else tied[0]][0]
                order.sort(key=lambda i: -scores[i])
                if self.nodes * 3 > self.budget:
                    break
                continue
            break
        return move_of(state, choice)


def _args(state: State) -> Args:
    """``state`` as the search sees it, from the side of the player to move."""
    player = state.to_move
    filling = state.phase == FILLING
    key_me = (state.next_painter if filling else state.starter) == player
    diff = state.scores[player] - state.scores[1 - player]
    return (state.palette, state.canvases[player], state.canvases[1 - player], diff, filling,
            key_me)


def position(state: State) -> tuple[int, int, int, int, int, int, int, int, int, int, bool, bool]:
    """``_args`` spread out, as the compiled search (_engine.Table) takes a position."""
    pal, me, them, diff, filling, key_me = _args(state)
    return (*pal, *me, *them, diff, filling, key_me)


def move_of(state: State, move_id: int) -> Move:
    """The move a search's move id stands for in ``state``."""
    if move_id & _FILL_ID:
        return Fill(move_id >> 4 & 3, move_id & 15)
    assert state.phase == PAINTING
    return Paint(SHAPES[move_id >> 5].cells, move_id & 31)


__all__ = ["OutOfBudget", "Search", "move_of", "position"]
