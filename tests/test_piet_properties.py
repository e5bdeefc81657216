"""Properties of Piet over random legal games (hypothesis)."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from atelier.errors import RuleError
from atelier.games.piet.board import CANVAS_NAMES, PALETTE_NAMES, colour_at, occupied
from atelier.games.piet.notation import Record, format_move, parse_move, read_record
from atelier.games.piet.rules import (
    FILLING,
    OVER,
    PAINTING,
    Paint,
    State,
    brush_options,
    legal_moves,
    new_game,
    play,
)


def random_game(seed: int, setup: str, brushes: bool, stop: int = 200) -> list[State]:
    rng = random.Random(seed)
    state = new_game(setup, brushes)
    states = [state]
    while state.phase != OVER and len(states) < stop:
        move = rng.choice(legal_moves(state))
        if isinstance(move, Paint) and brushes and rng.random() < 0.3:
            after, _ = play(state, move)
            options = brush_options(after, state.to_move)
            if options and after.phase != OVER:
                move = move._replace(brush=rng.choice(options))
        state, _ = play(state, move)
        states.append(state)
    return states


games = st.tuples(st.integers(0, 10**9), st.sampled_from(["beginner", "empty"]), st.booleans())


def brute_force_moves(state: State) -> set[str]:
    """Every painting move by definition: connected sets of 1-3 filled palette
    cells moved by one translation onto empty canvas cells."""
    have = [c for c in range(9) if colour_at(state.palette, c) >= 0]
    free = {c for c in range(16) if colour_at(state.canvases[state.to_move], c) < 0}
    found = set()
    for size in (1, 2, 3):
        for cells in itertools.combinations(have, size):
            spots = [divmod(c, 3) for c in cells]
            links = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
                        for a, b in itertools.combinations(spots, 2))
            if links < size - 1:
                continue
            for dr, dc in itertools.product(range(-3, 4), repeat=2):
                targets = [(r + dr, c + dc) for r, c in spots]
                if all(0 <= r < 4 and 0 <= c < 4 and r * 4 + c in free for r, c in targets):
                    r, c = targets[0]
                    taken = "".join(PALETTE_NAMES[x] for x in cells)
                    found.add(taken + ">" + CANVAS_NAMES[r * 4 + c])
    return found


def accepted_by_play(state: State) -> set[str]:
    """Every spelling of every move (any cell order, any target) that ``play``
    accepts, written canonically."""
    ok = set()
    for size in (1, 2, 3):
        for cells in itertools.permutations(range(9), size):
            for target in CANVAS_NAMES:
                text = "".join(PALETTE_NAMES[c] for c in cells) + ">" + target
                try:
                    move = parse_move(text)
                    play(state, move)
                except RuleError:
                    continue
                ok.add(format_move(move))
    return ok


@settings(max_examples=12, deadline=None)
@given(games, st.integers(0, 60))
def test_generated_moves_are_exactly_the_legal_ones(game: tuple[int, str, bool], at: int) -> None:
    states = [s for s in random_game(*game) if s.phase == PAINTING]
    if not states:
        return
    state = states[at % len(states)]
    generated = {format_move(m) for m in legal_moves(state)}
    assert generated == brute_force_moves(state)
    assert generated == accepted_by_play(state)


@settings(max_examples=60, deadline=None)
@given(games)
def test_palette_never_holds_more_than_three_of_a_colour(game: tuple[int, str, bool]) -> None:
    for state in random_game(*game):
        assert all(mask.bit_count() <= 3 for mask in state.palette)
        if state.phase == FILLING:
            assert occupied(state.palette).bit_count() < 9
    # A painting phase always begins with a full palette of 3R 3Y 3B.
    for before, after in itertools.pairwise(random_game(*game)):
        if before.phase == FILLING and after.phase == PAINTING:
            assert [m.bit_count() for m in after.palette] == [3, 3, 3]


@settings(max_examples=60, deadline=None)
@given(games)
def test_placements_are_translations_never_rotations_or_mirrors(
    game: tuple[int, str, bool],
) -> None:
    for state in random_game(*game, stop=40):
        for move in legal_moves(state):
            if not isinstance(move, Paint):
                continue
            src = [divmod(c, 3) for c in move.cells]
            r0, c0 = divmod(move.anchor, 4)
            before = state.canvases[state.to_move]
            after = play(state, move)[0].canvases[state.to_move]
            landed = [divmod(c, 4) for c in range(16)
                      if colour_at(after, c) >= 0 and colour_at(before, c) < 0]
            shifted = sorted((r - src[0][0] + r0, c - src[0][1] + c0) for r, c in src)
            assert sorted(landed) == shifted
            for (r, c), cell in zip(shifted, sorted(move.cells), strict=True):
                assert colour_at(after, r * 4 + c) == colour_at(state.palette, cell)


@settings(max_examples=80, deadline=None)
@given(games)
def test_total_score_is_the_sum_of_move_scores_plus_the_bonus(game: tuple[int, str, bool]) -> None:
    rng = random.Random(game[0])
    state = new_game(game[1], game[2])
    earned = [0, 0]
    while state.phase != OVER:
        mover = state.to_move
        state, points = play(state, rng.choice(legal_moves(state)))
        earned[mover] += points
    assert state.finisher in (0, 1)
    bonus = [2 if state.finisher == p else 0 for p in (0, 1)]
    assert [earned[p] + bonus[p] for p in (0, 1)] == list(state.scores)


@settings(max_examples=60, deadline=None)
@given(games)
def test_records_round_trip(game: tuple[int, str, bool]) -> None:
    rng = random.Random(game[0])
    state = new_game(game[1], game[2])
    record = Record(game[1], game[2])
    while state.phase != OVER:
        move = rng.choice(legal_moves(state))
        state, _ = play(state, move)
        record.moves.append(move)
    text = record.text()
    again = read_record(text)
    assert again.record.moves == record.moves
    assert again.final == state
    assert again.record.text() == text
