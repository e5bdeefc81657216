"""Scoring one round (docs/pictomania.md, Scoring one round), shared by engine and scorer."""

from __future__ import annotations

import pytest

from atelier.games.core import winners
from atelier.games.pictomania import tokens
from atelier.games.pictomania.scoring import (
    Edition,
    Guess,
    RoundInput,
    black_sheep,
    score_round,
)

RED, BLUE, GREEN, YELLOW = range(4)


def rulebook_round(**over: object) -> RoundInput:
    """The English rulebook's example: Yellow gets 5, took black 2, keeps one 1-star token."""
    base: dict[str, object] = {
        "players": 4,
        "numbers": {RED: 1, BLUE: 2, GREEN: 3, YELLOW: 4},
        "stacks": {
            RED: [Guess(YELLOW, 1)],
            BLUE: [Guess(RED, 2), Guess(YELLOW, 2)],
            YELLOW: [Guess(RED, 4), Guess(BLUE, 4), Guess(GREEN, 6)],
        },
        "black": {YELLOW: 2},
        "player_tokens": tokens.player_tokens(4),
    }
    base.update(over)
    return RoundInput(**base)  # type: ignore[arg-type]


def test_rulebook_worked_example_yellow_scores_six() -> None:
    result = score_round(rulebook_round())
    yellow = result.players[YELLOW]
    assert yellow.received == ((RED, 3), (BLUE, 2))
    assert yellow.kept == (1,)
    assert yellow.black_counted == "+"
    assert yellow.score == 5 + 2 - 1
    assert result.black_sheep == GREEN


def test_first_correct_guesser_gets_the_highest_token() -> None:
    result = score_round(rulebook_round())
    assert result.players[RED].received == ((BLUE, 3), (YELLOW, 3))
    assert result.players[BLUE].received == ((YELLOW, 2),)


def test_untried_drawing_keeps_every_token_and_its_black_token_counts_zero() -> None:
    result = score_round(rulebook_round(black={GREEN: 3, YELLOW: 2}))
    green = result.players[GREEN]
    assert green.kept == (3, 2, 1)
    # Green is the black sheep here (one wrong guess, everyone else none).
    assert green.black_counted == "-" and green.score == -6 - 3


def test_not_guessed_black_token_counts_zero_when_not_sheep() -> None:
    data = rulebook_round(
        stacks={YELLOW: [Guess(RED, 4), Guess(GREEN, 6)], BLUE: [Guess(RED, 5)]},
        black={GREEN: 3},
    )
    result = score_round(data)
    assert result.black_sheep is None  # red and green tie on one wrong guess each
    assert result.players[GREEN].black_counted == "0"
    assert result.players[GREEN].score == -6


def test_shared_highest_wrong_count_means_no_black_sheep() -> None:
    assert black_sheep([1, 1, 0]) is None
    assert black_sheep([0, 0, 0, 0]) is None
    assert black_sheep([0, 2, 1]) == 1


def test_correct_number_from_another_card_still_counts() -> None:
    # Only numbers are compared; the engine/scorer know nothing of letters.
    data = rulebook_round(stacks={RED: [Guess(BLUE, 1)]}, black={})
    assert score_round(data).players[BLUE].received == ((RED, 3),)


def test_void_drawing_returns_guesses_and_keeps_tokens() -> None:
    data = rulebook_round(void=frozenset({YELLOW}))
    result = score_round(data)
    yellow = result.players[YELLOW]
    assert result.verdicts[YELLOW] == (None, None, None)
    assert yellow.kept == (3, 2, 1)
    assert yellow.black_counted == "0"  # never positive
    # Green's wrong guess on yellow is returned, so nobody is the black sheep.
    assert result.black_sheep is None
    # Yellow's own guesses still score.
    assert yellow.received == ((RED, 3), (BLUE, 2))
    assert yellow.score == 5 - 6
    # Red and blue got nothing from yellow.
    assert result.players[RED].received == ((BLUE, 3),)


@pytest.mark.parametrize(
    ("edition", "counted", "score"),
    # 2nd edition: "you return your black token to the center": 0, even for the
    # black sheep. 1st edition: "keine Pluspunkte ..., aber immer noch Minuspunkte".
    [("second", "0", -5), ("first", "-", -5 - 3)],
)
def test_void_drawer_who_is_black_sheep(edition: Edition, counted: str, score: int) -> None:
    data = RoundInput(
        players=3,
        numbers={0: 1, 1: 2, 2: 3},
        stacks={1: [Guess(0, 5)], 2: [Guess(0, 6)]},
        black={0: 3},
        player_tokens=(3, 2),
        void=frozenset({0}),
        edition=edition,
    )
    result = score_round(data)
    assert result.black_sheep == 0
    assert result.players[0].black_counted == counted
    assert result.players[0].score == score


@pytest.mark.parametrize(("edition", "score"), [("second", -6), ("first", -9)])
def test_void_black_sheep_with_a_three_star_token_of_four_players(
    edition: Edition, score: int
) -> None:
    """The issue's case: keeps 3 + 2 + 1, black token 3 (the 1st edition's table
    for four has a 3 too)."""
    data = RoundInput(
        players=4,
        numbers={0: 1, 1: 2, 2: 3, 3: 4},
        stacks={1: [Guess(0, 5)], 2: [Guess(0, 6)], 3: [Guess(0, 7)]},
        black={0: 3},
        player_tokens=tokens.player_tokens(4),
        void=frozenset({0}),
        edition=edition,
    )
    result = score_round(data)
    assert result.black_sheep == 0
    assert result.players[0].score == score


def test_void_drawer_who_is_not_black_sheep_counts_zero_in_both_editions() -> None:
    for edition in ("first", "second"):
        result = score_round(rulebook_round(void=frozenset({YELLOW}), edition=edition))
        assert result.players[YELLOW].black_counted == "0"


def test_learning_round_every_black_token_positive_and_no_sheep() -> None:
    data = RoundInput(
        players=3,
        numbers={0: 1, 1: 2, 2: 3},
        stacks={1: [Guess(0, 5)], 2: [Guess(0, 6)]},
        black={0: 3, 1: 2},
        player_tokens=(3, 2),
        learning_round=True,
    )
    result = score_round(data)
    assert result.black_sheep is None
    assert result.players[0].black_counted == "+"  # even as the most wrong
    assert result.players[1].black_counted == "+"  # even though nobody guessed it
    assert result.players[1].score == -5 + 2


def test_ties_share_the_victory() -> None:
    assert winners([4, 7, 7, 1]) == [1, 2]
    assert winners([3]) == [0]


def test_token_tables_match_rulings() -> None:
    assert [tokens.player_tokens(n) for n in range(3, 7)] == [
        (3, 2), (3, 2, 1), (3, 2, 1, 1), (3, 2, 1, 1, 1),
    ]  # fmt: skip
    assert tokens.black_tokens("second", False, 6) == (3, 3, 2, 2, 1, 1)
    assert tokens.black_tokens("second", True, 6) == (3, 3, 2, 2, 1)
    assert tokens.black_tokens("second", True, 3) == (3, 2)
    assert tokens.black_tokens("first", False, 5) == (3, 2, 2, 1)
    assert tokens.black_tokens("first", False, 4) == (3, 2, 1)
    for n in range(3, 7):
        assert len(tokens.black_tokens("first", False, n)) == n - 1
        assert len(tokens.black_tokens("second", False, n)) == n
        assert len(tokens.black_tokens("second", True, n)) == n - 1
