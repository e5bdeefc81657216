"""Piet's analysis: ratings, hints and reviews agree with the hard engine and
the exact solver, stay within their budget, and never change between runs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from atelier.errors import RuleError
from atelier.games.piet import analysis
from atelier.games.piet.ai import choose_move, endgame_in_reach, playout
from atelier.games.piet.analysis import hint, rate_moves, review, value_of
from atelier.games.piet.endgame import solve
from atelier.games.piet.notation import RecordError, format_move, read_record
from atelier.games.piet.rules import OVER, PAINTING, Move, State, legal_moves, new_game, play

SAMPLE = Path(analysis.__file__).with_name("sample_game.txt")
BUDGET = 24


def game_states(seed: int, setup: str = "beginner", brushes: bool = False) -> list[State]:
    """Every position of a game between the greedy and easy players."""
    rng = random.Random(seed)
    state = new_game(setup, brushes)
    states = []
    while state.phase != OVER:
        states.append(state)
        level = ("greedy", "easy")[state.to_move]
        state = play(state, choose_move(state, level, rng.randrange(1 << 30)))[0]
    return states


def solved_after(state: State, move_text: str) -> int:
    """The solver's margin for the player to move in ``state`` after a move."""
    child = play(state, read_move(state, move_text))[0]
    if child.phase == OVER:
        return child.scores[state.to_move] - child.scores[1 - state.to_move]
    solved = solve(child, 2_000_000)
    assert solved is not None
    return solved[0] if child.to_move == state.to_move else -solved[0]


def read_move(state: State, text: str) -> Move:
    matches = [m for m in legal_moves(state) if format_move(m) == text]
    assert len(matches) == 1, text
    return matches[0]


STATES = game_states(3)
EARLY, MIDDLE = STATES[2], STATES[len(STATES) // 2]
LATE = next(s for s in STATES
            if endgame_in_reach(s) and s.phase == PAINTING and len(legal_moves(s)) > 3)
BRUSHES = game_states(4, "empty", brushes=True)[12]


@pytest.mark.parametrize("state", [EARLY, MIDDLE, LATE, BRUSHES],
                         ids=["early", "middle", "late", "brushes"])
def test_a_hint_is_the_hard_engines_move_with_its_value(state: State) -> None:
    for seed in (1, 2):
        given = hint(state, BUDGET, seed)
        assert given.move == choose_move(state, "hard", seed, BUDGET)
        assert given == value_of(state, given.move, BUDGET, seed)
    if state is LATE:
        # Proved: the solver's move, worth what the solver says.
        solved = solve(state, 2_000_000)
        assert solved is not None
        assert given.exact and given.margin == solved[0]


@pytest.mark.parametrize("state", [EARLY, MIDDLE, LATE], ids=["early", "middle", "late"])
def test_every_legal_move_is_rated_once_best_first(state: State) -> None:
    rated = rate_moves(state, BUDGET, 5)
    assert sorted(map(format_move, (r.move for r in rated))) == sorted(
        map(format_move, legal_moves(state)))
    margins = [r.margin for r in rated]
    assert margins == sorted(margins, reverse=True)
    if state is LATE:
        solved = solve(state, 2_000_000)
        assert solved is not None
        assert all(r.exact for r in rated) and margins[0] == solved[0]
        for r in rated[:6]:
            assert r.margin == solved_after(state, format_move(r.move))
    else:
        assert not rated[0].exact


def test_the_same_inputs_give_the_same_answers() -> None:
    assert rate_moves(MIDDLE, BUDGET, 9) == rate_moves(MIDDLE, BUDGET, 9)
    assert value_of(EARLY, legal_moves(EARLY)[0], BUDGET, 9) == value_of(
        EARLY, legal_moves(EARLY)[0], BUDGET, 9)
    head = "\n".join(SAMPLE.read_text(encoding="utf-8").splitlines()[:14])
    assert review(head, BUDGET, 9) == review(head, BUDGET, 9)


def test_a_rating_plays_out_no_more_games_than_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    played = 0
    real = playout

    def counted(state: State, seed: int) -> State:
        nonlocal played
        played += 1
        return real(state, seed)

    monkeypatch.setattr(analysis, "playout", counted)
    for budget in (12, 60, 200):
        played = 0
        rate_moves(MIDDLE, budget, 1)
        # At least one game for each move played out, then within the budget.
        assert 0 < played <= max(budget, analysis.CANDIDATES) + analysis.CANDIDATES
        played = 0
        value_of(MIDDLE, legal_moves(MIDDLE)[0], budget, 1)
        assert played == budget
    # A review: each ply within its own budget, the played move's games included.
    played = 0
    head = "\n".join(SAMPLE.read_text(encoding="utf-8").splitlines()[:14])
    plies = review(head, BUDGET, 1)
    assert 0 < played <= len(plies) * (BUDGET + analysis.CANDIDATES + 1)
    # No budget at all still rates every move, on one game each at least.
    assert len(rate_moves(MIDDLE, 0, 1)) == len(legal_moves(MIDDLE))


def test_an_illegal_move_or_a_finished_game_is_refused() -> None:
    assert EARLY.phase == PAINTING
    taken = next(m for m in legal_moves(STATES[0]) if m not in legal_moves(EARLY))
    with pytest.raises(RuleError):
        value_of(EARLY, taken, BUDGET, 1)
    over = read_record(SAMPLE.read_text(encoding="utf-8")).final
    with pytest.raises(RuleError):
        rate_moves(over, BUDGET, 1)
    with pytest.raises(RecordError):
        review("setup: beginner\na1>a1\na1>b1\n", BUDGET, 1)  # a1 is taken already


@pytest.fixture(scope="module")
def sample_review() -> list[analysis.PlyReview]:
    return review(SAMPLE.read_text(encoding="utf-8"), BUDGET, 0)


def test_the_review_of_the_shipped_game_gives_the_solved_margins_at_its_end(
        sample_review: list[analysis.PlyReview]) -> None:
    replayed = read_record(SAMPLE.read_text(encoding="utf-8"))
    assert len(sample_review) == len(replayed.record.moves)
    proved = 0
    for ply, state in zip(sample_review, replayed.states, strict=False):
        assert ply.player == state.to_move
        assert ply.played == format_move(replayed.record.moves[ply.ply])
        assert ply.loss == round(ply.best_margin - ply.played_margin, 2) >= 0
        sign = 1 if ply.player == 0 else -1
        assert ply.margin_after == sign * ply.played_margin
        if endgame_in_reach(state):
            solved = solve(state, 2_000_000)
            assert solved is not None
            assert ply.exact
            assert ply.best_margin == solved[0]
            assert ply.played_margin == solved_after(state, ply.played)
            assert solved_after(state, ply.best) == ply.best_margin
            proved += 1
    assert proved >= 5
    final = replayed.final
    assert sample_review[-1].margin_after == final.scores[0] - final.scores[1]


def test_turning_points_follow_the_documented_rule(
        sample_review: list[analysis.PlyReview]) -> None:
    before = 0.0
    for ply in sample_review:
        flips = analysis._lead(ply.margin_after) != analysis._lead(before)
        expected = ply.loss >= analysis.TURNING_LOSS or (flips and ply.loss >= analysis.FLIP_LOSS)
        assert ply.turning == expected
        before = ply.margin_after
    assert any(ply.turning for ply in sample_review)
