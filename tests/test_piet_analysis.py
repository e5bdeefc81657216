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
    # plus, where a ply may be a turning point, the best and played move again
    confirm = 2 * max(2, BUDGET // analysis.CONFIRM_SHARE)
    assert 0 < played <= len(plies) * (BUDGET + analysis.CANDIDATES + 1 + confirm)
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
        assert ply.turning == analysis.is_turning(ply.loss, ply.noise, before, ply.margin_after)
        assert ply.noise == 0 if ply.exact else ply.noise > 0 or ply.loss == 0
        before = ply.margin_after
    assert any(ply.turning for ply in sample_review)


def test_a_turning_point_needs_a_loss_the_noise_cannot_explain() -> None:
    turning = analysis.is_turning
    # proved: the bare thresholds, as before
    assert turning(3.0, 0.0, 0.5, 0.5) and not turning(2.9, 0.0, 0.5, 0.5)
    assert turning(1.0, 0.0, 2.0, -2.0) and not turning(0.9, 0.0, 2.0, -2.0)
    assert not turning(0.0, 0.0, 2.0, -2.0)
    # estimated: a loss under two standard errors is not one, however big
    assert not turning(3.5, 2.0, 0.0, 0.0) and turning(4.0, 2.0, 0.0, 0.0)
    # a change of leader inside the noise's band is no change
    assert not turning(1.5, 0.7, 1.2, -1.2) and turning(1.5, 0.7, 1.6, -1.6)
    assert not turning(1.5, 0.4, 0.5, -0.5)


def test_standard_errors_of_played_out_games() -> None:
    assert analysis.standard_error([2.0]) == 0.0
    assert analysis.standard_error([1.0, 3.0]) == pytest.approx(1.0)
    # the same games for both moves: a constant difference has no noise at all
    best, played = [5.0, -3.0, 8.0, 1.0], [3.0, -5.0, 6.0, -1.0]
    assert analysis.paired_noise(best, played) == 0.0
    assert analysis.paired_noise(None, played) == analysis.standard_error(played)


def test_a_review_marks_fewer_turning_points_than_bare_thresholds_would() -> None:
    """The review confirms a possible loss on fresh games: the best move was the
    highest of several noisy means, so its own games overrate it."""
    record = SAMPLE.read_text(encoding="utf-8")
    plies = review(record, 60, 3)
    naive = sum(p.loss >= analysis.TURNING_LOSS for p in plies)
    assert sum(p.turning for p in plies) <= naive
    assert all(p.loss >= analysis.SIGNIFICANCE * p.noise for p in plies if p.turning)


@pytest.mark.parametrize("state", [EARLY, MIDDLE, LATE], ids=["early", "middle", "late"])
def test_a_hint_compares_the_engines_move_and_the_players_on_one_evaluation(
        state: State) -> None:
    given = hint(state, BUDGET, 4)
    for mine in legal_moves(state)[:: max(1, len(legal_moves(state)) // 6)]:
        both = analysis.compare(state, given.move, mine, BUDGET, 4)
        assert both.best.move == given.move and both.mine.move == mine
        assert both.best.exact == both.mine.exact
        diff = both.mine.margin - both.best.margin
        if mine == given.move:
            assert both.verdict == "same" and diff == 0
        elif both.verdict == "worse":
            assert diff < 0
        elif both.verdict == "better":
            # said only on the rechecked games, beyond their noise
            assert diff >= max(1.0, analysis.SIGNIFICANCE * both.noise)
            assert both.games in (0, BUDGET * analysis.RECHECK)
        else:
            assert both.verdict == "equal"
            assert abs(diff) <= max(1.0, analysis.SIGNIFICANCE * both.noise)
        if diff > 0 and not both.best.exact:
            # the player's move ahead: both were played out on the larger, same games
            assert both.games == BUDGET * analysis.RECHECK
        if both.best.exact:
            assert both.best.margin == solved_after(state, format_move(given.move))
            assert both.mine.margin == solved_after(state, format_move(mine))


def test_a_hint_that_rates_the_players_move_higher_says_why() -> None:
    """The case a newcomer met: the engine's pick (chosen on a few games per
    move) rated below the player's move. The comparison now says which is
    ahead on the same games, and only calls the player's better past the noise."""
    seen = set()
    for state in STATES[:12]:
        if state.phase != PAINTING:
            continue
        given = hint(state, BUDGET, 7)
        for mine in legal_moves(state)[:10]:
            both = analysis.compare(state, given.move, mine, BUDGET, 7)
            if both.mine.margin > both.best.margin:
                assert both.verdict in ("equal", "better"), both
                seen.add(both.verdict)
    assert seen, "no position where the player's move came out ahead"
