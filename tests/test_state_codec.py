"""A game state's JSON form comes from its declaration (games/codec.py): saving and
loading any state reached in play gives the same state back, the generator
included, and the saved form keeps the shape earlier releases wrote, so a room
saved before an upgrade resumes after it."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from atelier.games.core import SYSTEM, LegalActionsGame
from atelier.games.registry import get_game
from support.actions import apply_json


def states_in_play(name: str, seats: int, settings: dict[str, Any], seed: int) -> list[Any]:
    """Every state of one game played by random legal moves (and deadlines)."""
    game = get_game(name)
    assert isinstance(game, LegalActionsGame)
    state = game.new(game.validate_settings(settings, seats),
                     [f"P{i}" for i in range(seats)], seed)
    chooser = random.Random(seed)
    now = 1000.0
    states = [state]
    while not game.is_over(state) and len(states) < 400:
        moves = [(s, a) for s in range(seats) for a in game.legal_actions(state, s)]
        deadline = game.deadline(state)
        if deadline is not None and (not moves or now + 1 >= deadline
                                     or chooser.random() < 0.05):
            now = max(now, deadline)
            state = apply_json(game, state, SYSTEM, {"type": "timeout"}, now)
        elif moves:
            seat, action = chooser.choice(moves)
            now += 1
            state = apply_json(game, state, seat, action, now)
        else:
            break
        states.append(state)
    return states


def without_themes(state: Any) -> Any:
    """A save keeps a card's id, level and words: its theme only helps deck editors."""
    if not hasattr(state, "pool"):
        return state
    return dataclasses.replace(
        state, pool=tuple(dataclasses.replace(card, theme="") for card in state.pool))


GAMES = [("pictomania", 4, {}), ("pictomania", 5, {"edition": "first"}),
         ("incognito", 4, {"countdown": 0}), ("incognito", 3, {"rounds": 2})]


@pytest.mark.parametrize(("name", "seats", "settings"), GAMES)
def test_every_state_in_play_comes_back_from_its_save(
    name: str, seats: int, settings: dict[str, Any]
) -> None:
    game = get_game(name)
    states = states_in_play(name, seats, settings, seed=7)
    assert len(states) > 20
    for state in states:
        data = game.dump(state)
        assert json.loads(json.dumps(data)) == data  # plain JSON
        again = game.load(data)
        assert again == without_themes(state)
        assert game.dump(again) == data
        # the generator comes back as random.setstate wants it, and draws the same
        a, b = random.Random(), random.Random()
        a.setstate(state.rng)
        b.setstate(again.rng)
        assert a.random() == b.random()


def test_saved_forms_keep_the_shape_earlier_releases_wrote() -> None:
    pictomania = get_game("pictomania")
    state = states_in_play("pictomania", 4, {}, seed=3)[-1]
    data: Any = pictomania.dump(state)
    card = data["pool"][0]
    assert isinstance(card, list) and len(card) == 3 and isinstance(card[2], list)
    assert all(isinstance(guess, list) for seat in data["seats"] for guess in seat["stack"])
    del data["removed"]  # written before a host could remove a player
    assert pictomania.load(data).removed == [False] * 4

    incognito = get_game("incognito")
    voting = next(s for s in states_in_play("incognito", 4, {"countdown": 0}, seed=3)
                  if any(s.votes))
    votes: Any = incognito.dump(voting)["votes"]
    assert any(votes) and all(isinstance(pair, list) and len(pair) == 2
                              for voter in votes for pair in voter)
    assert incognito.load(incognito.dump(voting)).votes == voting.votes
