"""The exact endgame search, checked against brute force over the rules engine."""

from __future__ import annotations

import random
from functools import cache

import pytest

from atelier.games.piet.ai import choose_move, endgame_in_reach
from atelier.games.piet.endgame import solve
from atelier.games.piet.rules import (
    FILLING,
    OVER,
    PAINTING,
    State,
    legal_moves,
    new_game,
    play,
)


@cache
def brute(state: State) -> int:
    """Final margin for the player to move under best play: every legal move
    of the rules engine, no pruning (memoised, so each position once)."""
    best = -1000
    for move in legal_moves(state):
        child = play(state, move)[0]
        if child.phase == OVER:
            value = child.scores[state.to_move] - child.scores[1 - state.to_move]
        elif child.to_move == state.to_move:
            value = brute(child)
        else:
            value = -brute(child)
        best = max(best, value)
    return best


def empties(state: State) -> int:
    return sum(16 - (c[0] | c[1] | c[2]).bit_count() for c in state.canvases)


def pieces(state: State) -> int:
    return (state.palette[0] | state.palette[1] | state.palette[2]).bit_count()


def small_position(seed: int, phase: str) -> State:
    """A position late in a game between greedy players, small enough for brute
    force: a painting phase the game cannot outlast (a filling phase after it
    is beyond brute force), or the last fills before the final painting."""
    rng = random.Random(seed)
    while True:
        state = new_game(rng.choice(["beginner", "empty"]))
        while state.phase != OVER:
            if phase == PAINTING == state.phase and empties(state) <= 7 and (
                    pieces(state) >= empties(state) - 1 and rng.random() < 0.5):
                return state
            # 7 or 8 fills down: the next to fill is or is not the next painter.
            if phase == FILLING == state.phase and empties(state) <= 5 and (
                    pieces(state) >= 7 + seed % 2):
                return state
            state = play(state, choose_move(state, "greedy", rng.randrange(1 << 30)))[0]


POSITIONS = [small_position(seed, PAINTING) for seed in range(14)] + [
    small_position(seed, FILLING) for seed in range(100, 110)]


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_the_exact_search_agrees_with_brute_force(index: int) -> None:
    state = POSITIONS[index]
    solved = solve(state, 2_000_000)
    assert solved is not None
    value, move = solved
    assert value == brute(state)
    # Its move is legal and keeps that value.
    assert move in legal_moves(state)
    child = play(state, move)[0]
    mover = state.to_move
    if child.phase == OVER:
        achieved = child.scores[mover] - child.scores[1 - mover]
    else:
        achieved = brute(child) if child.to_move == mover else -brute(child)
    assert achieved == value


def test_the_positions_cover_both_phases_and_both_painters() -> None:
    assert {state.phase for state in POSITIONS} == {PAINTING, FILLING}
    # After the last fill, either the filler or the other player paints next.
    fills = [state for state in POSITIONS if state.phase == FILLING]
    assert {state.next_painter == state.to_move for state in fills} == {True, False}


def test_the_search_gives_up_past_its_budget() -> None:
    assert solve(new_game(), 500) is None
    assert solve(POSITIONS[0], 1_000_000) == solve(POSITIONS[0], 1_000_000)


def test_hard_plays_a_best_move_in_the_endgame() -> None:
    played = 0
    for state in POSITIONS:
        if not endgame_in_reach(state):
            continue
        move = choose_move(state, "hard", 1)
        assert move == choose_move(state, "hard", 2)  # the search, not the dice
        child = play(state, move)[0]
        mover = state.to_move
        if child.phase == OVER:
            achieved = child.scores[mover] - child.scores[1 - mover]
        else:
            achieved = brute(child) if child.to_move == mover else -brute(child)
        assert achieved == brute(state)
        played += 1
    assert played >= 10


def test_the_endgame_waits_while_brushes_are_left() -> None:
    state = POSITIONS[0]
    assert endgame_in_reach(state)
    assert not endgame_in_reach(state._replace(brushes_on=True, brushes=(1, 0)))
