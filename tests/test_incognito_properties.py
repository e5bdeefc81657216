"""Properties over random Incognito games: replay, refused actions, legal random placement,
and no view that leaks a word or a vote number before the reveal."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from atelier.errors import RuleError
from atelier.games.actions import as_json
from atelier.games.core import JSON, SYSTEM
from atelier.games.incognito import GAME, State
from atelier.games.incognito.engine import place_remaining
from atelier.games.incognito.legal import legal_actions
from support.actions import apply_json
from support.log_replay import LoggedAction, Replay

WORDS = [f"W{i:03d}X" for i in range(80)]
LOCATIONS = [f"L{i:03d}X" for i in range(80)]
KINDS = ["done_drawing", "vote", "done_voting", "confirm", "timeout", "advance", "dance"]


def legal_moves(state: State) -> list[tuple[int, dict[str, JSON]]]:
    """Every player's legal action, and the host's "advance" between rounds."""
    moves: list[tuple[int, dict[str, JSON]]] = (
        [(SYSTEM, {"type": "advance"})] if state.phase == "scored" else [])
    for seat in range(state.players):
        moves += [(seat, as_json(action)) for action in legal_actions(state, seat)]
    return moves


def is_legal(state: State, seat: int, action: dict[str, Any]) -> bool:
    """Whether ``action`` is listed (compared as JSON: ``true`` is not ``1``)."""
    return json.dumps(action, sort_keys=True) in {
        json.dumps(as_json(a), sort_keys=True) for a in legal_actions(state, seat)}


def fuzz_move(rng: random.Random, n: int) -> tuple[int, dict[str, Any]]:
    seat = rng.choice([SYSTEM, *range(n + 1)])
    action: dict[str, Any] = {"type": rng.choice(KINDS)}
    if action["type"] == "vote":
        action["author"] = rng.choice([-1, *range(n + 1), "x"])
        action["tile"] = rng.choice([0, 1, 3, 6, 7, True, "2"])
    return seat, action


def play(n: int, seed: int, driver: int, limit: float | None,
         rounds: int) -> tuple[dict[str, JSON], list[LoggedAction], list[State]]:
    """A random game with some refused actions mixed in; every state along the way."""
    settings_: dict[str, JSON] = {"custom_words": WORDS, "custom_locations": LOCATIONS,
                                  "rounds": rounds, "countdown": 3, "drawing_time_limit": limit}
    rng = random.Random(driver)
    state = GAME.new(settings_, [f"p{i}" for i in range(n)], seed)
    log: list[LoggedAction] = []
    states = [state]
    now = 0.0
    for _ in range(400):
        if GAME.is_over(state):
            break
        now += rng.choice([0.0, 0.5, 1.0, 4.0])
        due = GAME.deadline(state)
        action: dict[str, JSON]
        if due is not None and now >= due:
            seat, action = SYSTEM, {"type": "timeout"}
        elif rng.random() < 0.25:
            seat, action = fuzz_move(rng, n)
        else:
            moves = legal_moves(state)
            if not moves:  # waiting for a deadline
                now = max(now, due or now)
                continue
            seat, action = rng.choice(moves)
        before = json.dumps(GAME.dump(state))
        try:
            nxt = apply_json(GAME, state, seat, action, now)
        except RuleError as err:
            assert json.dumps(GAME.dump(state)) == before  # refused: nothing changed
            # a player's legal action is refused only once its time is up
            legal = seat != SYSTEM and is_legal(state, seat, action)
            assert not legal or err.code == "incognito.time_up", err.code
            continue
        assert json.dumps(GAME.dump(state)) == before  # the input is never modified
        log.append(LoggedAction(seat, copy.deepcopy(action), now))
        state = nxt
        states.append(state)
        check_invariants(state)
    return settings_, log, states


def check_invariants(state: State) -> None:
    for voter, ballot in enumerate(state.votes):
        assert voter not in ballot
        assert len(set(ballot.values())) == len(ballot)
        assert all(1 <= t <= 6 for t in ballot.values())
    results: Any = state.results
    assert sum(state.totals) == sum(sum(r["points"]) for r in results)


games = st.tuples(st.integers(3, 6), st.integers(0, 2**32), st.integers(0, 2**32),
                  st.sampled_from([None, 5.0, 30.0]), st.integers(1, 3))


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_games_finish_and_replay_exactly(game: tuple[Any, ...]) -> None:
    n, seed, driver, limit, rounds = game
    settings_, log, states = play(n, seed, driver, limit, rounds)
    final = states[-1]
    replay = Replay(settings_, [f"p{i}" for i in range(n)], seed, log).run(GAME)
    assert GAME.dump(replay) == GAME.dump(final)
    if GAME.is_over(final):
        assert len(final.results) == rounds
        view: Any = GAME.view(final, None)
        assert view["winners"] and all(view["totals"][w] == max(view["totals"])
                                       for w in view["winners"])


def secrets_hidden_from(state: State, viewer: int | None) -> list[State]:
    """Variants of ``state`` that differ only in what ``viewer`` may not know yet: other
    players' words, deck words and other voters' numbers. Their views must be equal."""
    if state.phase not in ("drawing", "voting"):
        return []
    r = state.round - 1
    hidden = [i for i in range(6) if i != viewer]  # deal slots whose owner is secret
    variants = []

    renamed = replace(state, deal_words=[list(w) for w in state.deal_words],
                      tiles=list(state.tiles))
    if state.phase == "drawing":
        # other words are not on the table yet: any other words would do
        for i in hidden:
            old = renamed.deal_words[r][i]
            renamed.deal_words[r][i] = "Z" + old
            renamed.tiles[renamed.tiles.index(old)] = "Z" + old
    else:
        # the words are on the table; which one belongs to whom is the secret
        words = [renamed.deal_words[r][i] for i in hidden]
        words = words[1:] + words[:1]
        for i, w in zip(hidden, words, strict=True):
            renamed.deal_words[r][i] = w
    variants.append(renamed)

    relabelled = replace(state, votes=list(state.votes))
    swap = {1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 1}
    for voter in range(state.players):
        if voter != viewer:
            relabelled.votes[voter] = {a: swap[t] for a, t in state.votes[voter].items()}
    variants.append(relabelled)
    return variants


@settings(max_examples=30, deadline=None)
@given(games)
def test_no_view_leaks_a_word_or_a_vote_number_before_the_reveal(game: tuple[Any, ...]) -> None:
    n, seed, driver, limit, rounds = game
    _, _, states = play(n, seed, driver, limit, rounds)
    for state in states:
        for viewer in [None, *range(n)]:
            seen = GAME.view(state, viewer)
            for variant in secrets_hidden_from(state, viewer):
                assert GAME.view(variant, viewer) == seen
            text = json.dumps(seen)
            later = [w for rnd in state.deal_words[state.round:] for w in rnd]
            later += [x for rnd in state.deal_locations[state.round:] for x in rnd]
            assert not any(w in text for w in later)  # nothing of rounds to come
            if state.phase == "drawing":
                mine = state.word_of(viewer) if viewer is not None else None
                assert not any(w in text for w in state.tiles if w != mine)


@st.composite
def partial_ballots(draw: st.DrawFn) -> tuple[int, list[dict[int, int]], int]:
    n = draw(st.integers(3, 6))
    ballots = []
    for voter in range(n):
        cards = draw(st.permutations(range(1, 7)))
        others = [a for a in range(n) if a != voter]
        keep = draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1))
        ballots.append({a: cards[i] for i, a in enumerate(others) if keep[i]})
    return n, ballots, draw(st.integers(0, 2**32))


@given(partial_ballots())
def test_random_placement_is_always_legal_complete_and_seeded(
        case: tuple[int, list[dict[int, int]], int]) -> None:
    n, ballots, seed = case
    placed = copy.deepcopy(ballots)
    randoms = place_remaining(random.Random(seed), n, placed)
    again = copy.deepcopy(ballots)
    place_remaining(random.Random(seed), n, again)
    assert again == placed
    for voter in range(n):
        assert sorted(placed[voter]) == [a for a in range(n) if a != voter]
        assert len(set(placed[voter].values())) == n - 1
        assert all(1 <= t <= 6 for t in placed[voter].values())
        assert all(placed[voter][a] == t for a, t in ballots[voter].items())
        assert sorted(randoms[voter]) == sorted(set(placed[voter]) - set(ballots[voter]))
