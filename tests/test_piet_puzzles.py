"""Piet's shipped puzzles: in each, exactly one legal move wins (the solver
proves it), and the generator makes such positions from engine games."""

from __future__ import annotations

import json

import pytest

from atelier.games.piet import puzzles
from atelier.games.piet.endgame import Endgame
from atelier.games.piet.notation import format_move, read_record
from atelier.games.piet.rules import OVER, Move, State, legal_moves, play

SHIPPED = puzzles.load()


def wins(state: State, move: Move, search: Endgame) -> tuple[bool, int]:
    """Whether ``move`` wins for the player to move, and a bound on (or the
    value of) their final margin, from a null-window search around zero."""
    child = play(state, move)[0]
    mover = state.to_move
    if child.phase == OVER:
        margin = child.scores[mover] - child.scores[1 - mover]
        return margin > 0, margin
    same = child.to_move == mover
    # The mover wins when their margin is at least 1: for the opponent to
    # move that is the opponent's margin at most -1.
    found = search.value(child, 0, 1) if same else search.value(child, -1, 0)
    assert found is not None, "the solver ran out of budget"
    margin = found if same else -found
    return margin >= 1, margin


def test_a_few_dozen_puzzles_ship_with_their_fields() -> None:
    assert 30 <= len(SHIPPED) <= 40
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)
    raw = json.loads(puzzles.SHIPPED.read_text(encoding="utf-8"))
    for item in raw:
        assert {"id", "record", "answer", "margin", "moves_left"} <= set(item)
    # Both kinds of phase, and not every answer is simply the most points now.
    assert {p.phase for p in SHIPPED} == {"painting", "filling"}
    assert any(not p.most_points for p in SHIPPED)


@pytest.mark.parametrize("puzzle", SHIPPED, ids=[p.id for p in SHIPPED])
def test_exactly_one_move_wins(puzzle: puzzles.Puzzle) -> None:
    replayed = read_record(puzzle.record)
    state = replayed.final
    assert state.phase == puzzle.phase != OVER
    assert state.to_move + 1 == puzzle.to_move
    assert state.brushes == (0, 0)
    moves = legal_moves(state)
    assert len(moves) == puzzle.choices >= puzzles.MIN_CHOICES
    search = Endgame(500_000)
    winning = []
    for move in moves:
        won, _ = wins(state, move, search)
        if won:
            winning.append(format_move(move))
    assert winning == [puzzle.answer]
    answer = next(m for m in moves if format_move(m) == puzzle.answer)
    child = play(state, answer)[0]
    if child.phase == OVER:
        margin = child.scores[state.to_move] - child.scores[1 - state.to_move]
    else:
        value = search.value(child)
        assert value is not None
        margin = value if child.to_move == state.to_move else -value
    assert margin == puzzle.margin > 0
    assert puzzle.moves_left >= 1


def test_the_generator_makes_a_puzzle_the_solver_confirms() -> None:
    made = puzzles.generate(1, 1)
    assert len(made) == 1
    puzzle = made[0]
    state = puzzles.position(puzzle)
    found = puzzles.the_winning_move(state)
    assert found is not None
    assert format_move(found[0]) == puzzle.answer and found[1] == puzzle.margin
    # The shipped set is the generator's, seed 1: its first puzzle comes out again.
    assert puzzle == SHIPPED[0]
