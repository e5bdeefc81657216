"""Incognito's scoring rules, on the pure function the engine and the scorer share."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atelier.errors import RuleError
from atelier.games.incognito.scoring import check_round, score_round

FOUR = ["ann", "bob", "cy", "dee"]
WORDS = {"ann": 2, "bob": 5, "cy": 1, "dee": 6}


def test_rulebook_example_marjolaine_scores_4() -> None:
    # Five players; Marjolaine finds Romeo's carrot (tile 3) and Ada's word, misses the
    # other two, and 3 of the 4 others find her word.
    players = ["marjolaine", "romeo", "ada", "ben", "cleo"]
    words = {"marjolaine": 1, "romeo": 3, "ada": 4, "ben": 5, "cleo": 6}
    votes = {
        "marjolaine": {"romeo": 3, "ada": 4, "ben": 6, "cleo": 2},
        "romeo": {"marjolaine": 1},
        "ada": {"marjolaine": 1},
        "ben": {"marjolaine": 1},
        "cleo": {"marjolaine": 2},
    }
    result = score_round(players, words, votes)
    assert result.found["marjolaine"] == ["romeo", "ada"]
    assert result.found_by["marjolaine"] == ["romeo", "ada", "ben"]
    assert result.finding_points["marjolaine"] == 2
    assert result.author_points["marjolaine"] == 2
    assert result.totals["marjolaine"] == 4


def test_issue_example() -> None:
    votes = {"ann": {"bob": 5, "cy": 3, "dee": 6}, "bob": {"ann": 2, "cy": 1, "dee": 4}}
    result = score_round(FOUR, WORDS, votes)
    assert result.totals == {"ann": 4, "bob": 4, "cy": 2, "dee": 2}


def test_each_correct_vote_scores_one_for_the_voter() -> None:
    votes = {"ann": {"bob": 5, "cy": 1, "dee": 6}}
    assert score_round(FOUR, WORDS, votes).finding_points["ann"] == 3


def test_author_scores_nothing_when_everyone_finds_the_word() -> None:
    votes = {"bob": {"ann": 2}, "cy": {"ann": 2}, "dee": {"ann": 2}}
    result = score_round(FOUR, WORDS, votes)
    assert result.author_points["ann"] == 0
    assert result.finding_points == {"ann": 0, "bob": 1, "cy": 1, "dee": 1}


def test_author_scores_nothing_when_nobody_finds_the_word() -> None:
    votes = {"bob": {"ann": 1}, "cy": {"ann": 3}, "dee": {"ann": 4}}
    assert score_round(FOUR, WORDS, votes).author_points["ann"] == 0


def test_a_missing_vote_counts_as_not_found() -> None:
    # bob and cy found it and dee left no card on it: found by some, not all
    votes = {"bob": {"ann": 2}, "cy": {"ann": 2}}
    assert score_round(FOUR, WORDS, votes).author_points["ann"] == 2


def test_a_vote_on_a_deck_word_finds_nothing() -> None:
    votes = {"ann": {"bob": 3}}  # tile 3 holds a deck word in this round
    assert score_round(FOUR, WORDS, votes).totals["ann"] == 0


@pytest.mark.parametrize(
    ("players", "words", "votes", "code"),
    [
        (["a", "b"], {"a": 1, "b": 2}, {}, "seat_count"),
        (list("abcdefg"), {p: 1 for p in "abcdefg"}, {}, "seat_count"),
        (["a", "b", "a"], {"a": 1, "b": 2}, {}, "incognito.duplicate_player"),
        (["a", "b", "c"], {"a": 1, "b": 2}, {}, "incognito.missing_word"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 2}, {}, "incognito.shared_tile"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 7}, {}, "incognito.bad_tile"),
        (["a", "b", "c"], {"a": 0, "b": 2, "c": 3}, {}, "incognito.bad_tile"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 3, "z": 4}, {}, "incognito.unknown_player"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 3}, {"z": {"a": 1}}, "incognito.unknown_player"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 3}, {"a": {"z": 1}}, "incognito.unknown_player"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 3}, {"a": {"a": 1}}, "incognito.own_vote"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 3}, {"a": {"b": 7}}, "incognito.bad_tile"),
        (["a", "b", "c"], {"a": 1, "b": 2, "c": 3}, {"a": {"b": 4, "c": 4}},
         "incognito.tile_twice"),
    ],
)
def test_rounds_that_break_a_rule_are_refused(
    players: list[str], words: dict[str, int], votes: dict[str, dict[str, int]], code: str
) -> None:
    with pytest.raises(RuleError) as err:
        check_round(players, words, votes)
    assert err.value.code == code


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[int], dict[int, int], dict[int, dict[int, int]]]:
    n = draw(st.integers(3, 6))
    players = list(range(n))
    tiles = draw(st.permutations(range(1, 7)))
    words = {p: tiles[p] for p in players}
    votes: dict[int, dict[int, int]] = {}
    for voter in players:
        cards = draw(st.permutations(range(1, 7)))
        others = [a for a in players if a != voter]
        keep = draw(st.lists(st.booleans(), min_size=len(others), max_size=len(others)))
        votes[voter] = {a: cards[i] for i, a in enumerate(others) if keep[i]}
    return players, words, votes


@given(rounds())
def test_points_add_up(case: tuple[list[int], dict[int, int], dict[int, dict[int, int]]]) -> None:
    players, words, votes = case
    result = score_round(players, words, votes)
    correct = sum(votes[v].get(a) == words[a] for v in players for a in players if a != v)
    assert sum(result.finding_points.values()) == correct
    for author in players:
        hits = len(result.found_by[author])
        assert result.author_points[author] == (2 if 0 < hits < len(players) - 1 else 0)
        assert result.totals[author] <= len(players) - 1 + 2
