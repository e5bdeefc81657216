"""Piet's rules (docs/piet.md, Rulings): the state, legal moves, and playing a move.

Players are 0 and 1 here (1 and 2 in records and on screen). Everything is
pure: a move returns a new state and never changes the one passed in.
"""

from __future__ import annotations

from typing import NamedTuple

from atelier.errors import RuleError
from atelier.games.piet.board import (
    BEGINNER_PALETTE,
    CANVAS_NAMES,
    COLOURS,
    EMPTY,
    FULL_BONUS,
    FULL_CANVAS,
    FULL_PALETTE,
    PALETTE_NAMES,
    PER_COLOUR,
    SHAPE_BY_CELLS,
    SHAPES,
    Masks,
    colour_at,
    is_connected,
    move_score,
    occupied,
    with_cell,
)

PAINTING, FILLING, OVER = "painting", "filling", "over"
SETUPS = ("beginner", "empty")
BRUSHES_EACH = 2


class State(NamedTuple):
    palette: Masks
    canvases: tuple[Masks, Masks]
    scores: tuple[int, int]
    brushes: tuple[int, int]
    """Brushes left; (0, 0) when the game is played without them."""
    phase: str
    to_move: int
    """Whose turn it is (0 or 1); when the game is over, whoever would be next."""
    starter: int
    """Who started the current phase."""
    next_painter: int
    """During a filling phase: who starts the painting phase after it."""
    brushes_on: bool
    finisher: int
    """Who filled their canvas and took the bonus, or -1."""


class Paint(NamedTuple):
    cells: tuple[int, ...]
    """Palette cells taken, in reading order."""
    anchor: int
    """Canvas cell that receives ``cells[0]``; the others keep their offsets."""
    brush: tuple[int, int] | None = None
    """(cell of the opponent's canvas, new colour), spent right after painting."""


class Fill(NamedTuple):
    colour: int
    cell: int


Move = Paint | Fill


def new_game(setup: str = "beginner", brushes: bool = False) -> State:
    if setup not in SETUPS:
        raise RuleError("piet.bad_setup", setup=setup)
    brush_count = (BRUSHES_EACH, BRUSHES_EACH) if brushes else (0, 0)
    if setup == "beginner":
        return State(BEGINNER_PALETTE, (EMPTY, EMPTY), (0, 0), brush_count, PAINTING, 0, 0, 0,
                     brushes, -1)
    # Master rule 1: player 1 fills first, player 2 paints first.
    return State(EMPTY, (EMPTY, EMPTY), (0, 0), brush_count, FILLING, 0, 0, 1, brushes, -1)


def winner(state: State) -> int | None:
    """0 or 1 for a won game, -1 for a draw, None while it goes on."""
    if state.phase != OVER:
        return None
    a, b = state.scores
    return 0 if a > b else 1 if b > a else -1


# --- legal moves --------------------------------------------------------------


def paint_moves(state: State) -> list[Paint]:
    """Every painting move for the player to move, brushes aside."""
    if state.phase != PAINTING:
        return []
    have = occupied(state.palette)
    free = FULL_CANVAS & ~occupied(state.canvases[state.to_move])
    moves = []
    for shape in SHAPES:
        if have & shape.mask != shape.mask:
            continue
        for anchor, place in shape.by_anchor.items():
            if free & place.mask == place.mask:
                moves.append(Paint(shape.cells, anchor))
    return moves


def fill_moves(state: State) -> list[Fill]:
    if state.phase != FILLING:
        return []
    free = [cell for cell in range(9) if not occupied(state.palette) >> cell & 1]
    return [
        Fill(colour, cell)
        for colour in range(3)
        if state.palette[colour].bit_count() < PER_COLOUR
        for cell in free
    ]


def legal_moves(state: State) -> list[Move]:
    """Every legal move without brushes (a brush only ever adds to a painting move)."""
    if state.phase == PAINTING:
        return list(paint_moves(state))
    return list(fill_moves(state))


def brush_options(state: State, player: int) -> list[tuple[int, int]]:
    """(cell, colour) changes ``player`` may make with a brush on the opponent's
    canvas in ``state``, if they have a brush left."""
    if not state.brushes_on or state.brushes[player] <= 0:
        return []
    canvas = state.canvases[1 - player]
    out: list[tuple[int, int]] = []
    for cell in range(16):
        current = colour_at(canvas, cell)
        if current >= 0:
            out.extend((cell, colour) for colour in range(3) if colour != current)
    return out


# --- playing a move -------------------------------------------------------------


def play(state: State, move: Move) -> tuple[State, int]:
    """The state after ``move`` and the points it scored; RuleError if illegal."""
    if state.phase == OVER:
        raise RuleError("game_over")
    if isinstance(move, Fill):
        return _fill(state, move), 0
    return _paint(state, move)


def apply(state: State, move: Move) -> State:
    return play(state, move)[0]


def _fill(state: State, move: Fill) -> State:
    if state.phase != FILLING:
        raise RuleError("piet.not_filling")
    name = PALETTE_NAMES[move.cell]
    if occupied(state.palette) >> move.cell & 1:
        raise RuleError("piet.palette_cell_taken", cell=name)
    if state.palette[move.colour].bit_count() >= PER_COLOUR:
        raise RuleError("piet.colour_full", colour=COLOURS[move.colour])
    palette = with_cell(state.palette, move.cell, move.colour)
    if occupied(palette) == FULL_PALETTE:
        painter = state.next_painter
        return state._replace(palette=palette, phase=PAINTING, to_move=painter, starter=painter)
    return state._replace(palette=palette, to_move=1 - state.to_move)


def paint_move(listed: tuple[int, ...], target: int, brush: tuple[int, int] | None = None) -> Paint:
    """A painting move from palette cells in any order, ``target`` receiving the
    first listed one: the same move with its cells in reading order. A
    placement off the canvas gets anchor -1, which ``play`` refuses."""
    if len(set(listed)) != len(listed) or not 1 <= len(listed) <= 3:
        raise RuleError("piet.piece_count")
    cells = tuple(sorted(listed))
    first_r, first_c = divmod(listed[0], 3)
    lead_r, lead_c = divmod(cells[0], 3)
    row = target // 4 + lead_r - first_r
    col = target % 4 + lead_c - first_c
    if not (0 <= row < 4 and 0 <= col < 4):
        return Paint(cells, -1, brush)
    return Paint(cells, row * 4 + col, brush)


def check_paint(state: State, move: Paint) -> None:
    """Raise RuleError unless ``move``'s pieces may go where it says (brush aside)."""
    if state.phase != PAINTING:
        raise RuleError("piet.not_painting")
    cells = move.cells
    if len(set(cells)) != len(cells) or not 1 <= len(cells) <= 3:
        raise RuleError("piet.piece_count")
    if list(cells) != sorted(cells):
        raise RuleError("piet.bad_move")
    for cell in cells:
        if colour_at(state.palette, cell) < 0:
            raise RuleError("piet.palette_cell_empty", cell=PALETTE_NAMES[cell])
    if not is_connected(tuple(sorted(cells))):
        raise RuleError("piet.not_connected")
    shape = SHAPE_BY_CELLS[cells]
    place = shape.by_anchor.get(move.anchor)
    if place is None:
        raise RuleError("piet.off_canvas")
    canvas = state.canvases[state.to_move]
    for target in place.cells:
        if colour_at(canvas, target) >= 0:
            raise RuleError("piet.canvas_cell_taken", cell=CANVAS_NAMES[target])


def _paint(state: State, move: Paint) -> tuple[State, int]:
    check_paint(state, move)
    player = state.to_move
    shape = SHAPE_BY_CELLS[move.cells]
    place = shape.by_anchor[move.anchor]
    new = [0, 0, 0]
    for src, dst in zip(shape.cells, place.cells, strict=True):
        new[colour_at(state.palette, src)] |= 1 << dst
    after, points = paint_unchecked(state, shape.mask, (new[0], new[1], new[2]))
    if move.brush is not None:
        after = _brush(state, after, player, move.brush)
    return after, points


def _brush(before: State, after: State, player: int, brush: tuple[int, int]) -> State:
    cell, colour = brush
    if not before.brushes_on:
        raise RuleError("piet.brushes_off")
    if after.phase == OVER:
        raise RuleError("piet.brush_after_end")
    if before.brushes[player] <= 0:
        raise RuleError("piet.no_brushes_left")
    opponent = 1 - player
    current = colour_at(after.canvases[opponent], cell)
    if current < 0:
        raise RuleError("piet.brush_empty_cell", cell=CANVAS_NAMES[cell])
    if current == colour:
        raise RuleError("piet.brush_same_colour", cell=CANVAS_NAMES[cell])
    return apply_brush(after, player, cell, colour)


def apply_brush(state: State, player: int, cell: int, colour: int) -> State:
    """``player`` spends a brush on the opponent's ``cell`` (no checks)."""
    canvases = list(state.canvases)
    canvases[1 - player] = with_cell(canvases[1 - player], cell, colour)
    brushes = list(state.brushes)
    brushes[player] -= 1
    return state._replace(canvases=(canvases[0], canvases[1]), brushes=(brushes[0], brushes[1]))


def paint_unchecked(state: State, taken: int, new: Masks) -> tuple[State, int]:
    """The player to move takes palette cells ``taken`` and places ``new`` on
    their canvas; returns the next state and the points scored. No checks:
    the search calls this on moves it generated itself."""
    player = state.to_move
    canvas = state.canvases[player]
    points = move_score(canvas, new)
    canvas = (canvas[0] | new[0], canvas[1] | new[1], canvas[2] | new[2])
    keep = ~taken
    palette = (state.palette[0] & keep, state.palette[1] & keep, state.palette[2] & keep)
    canvases = (canvas, state.canvases[1]) if player == 0 else (state.canvases[0], canvas)
    score = state.scores[player] + points
    finisher = -1
    if occupied(canvas) == FULL_CANVAS:
        # The game ends at once, even mid-phase, with the bonus to the finisher.
        score += FULL_BONUS
        finisher = player
    scores = (score, state.scores[1]) if player == 0 else (state.scores[0], score)
    if finisher >= 0:
        return state._replace(palette=palette, canvases=canvases, scores=scores, phase=OVER,
                              to_move=1 - player, finisher=finisher), points
    if palette == EMPTY:
        first = filling_starter(scores, canvases, state.starter)
        return state._replace(palette=palette, canvases=canvases, scores=scores, phase=FILLING,
                              to_move=first, starter=first, next_painter=first), points
    return state._replace(palette=palette, canvases=canvases, scores=scores,
                          to_move=1 - player), points


def filling_starter(scores: tuple[int, int], canvases: tuple[Masks, Masks], painter: int) -> int:
    """Lower score first; then fewer pieces on the canvas; then whoever started
    the painting phase that just ended."""
    if scores[0] != scores[1]:
        return 0 if scores[0] < scores[1] else 1
    pieces = [occupied(c).bit_count() for c in canvases]
    if pieces[0] != pieces[1]:
        return 0 if pieces[0] < pieces[1] else 1
    return painter
