"""A started game is logged with its first state, so it replays the same after
a release that changed the decks (pure room model: no server needed)."""

from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.pictomania import GAME
from atelier.games.piet import GAME as PIET
from atelier.jsoncheck import as_object
from atelier.server.room.model import RoomModel, decide_join, decide_start, new_model
from support.views import seen


def lobby_of_three() -> RoomModel:
    room = new_model("ABC234", GAME, {"settings": {}, "seed": 42, "language": "en"}, 0.0)
    for seq, (name, colour) in enumerate([("Ann", "red"), ("Bob", "blue"), ("Cy", "green")], 1):
        room.apply(seq, decide_join(room, name, colour, f"hash-{name}"))
    return room


def test_the_logged_first_state_is_what_a_restart_brings_back() -> None:
    room = lobby_of_three()
    kind, data = decide_start(room, room.host).as_event()
    # What an older release dealt: the first card on display had other words.
    old_words = [f"old word {i}" for i in range(7)]
    initial: Any = data["initial"]
    initial["display"][0]["words"] = old_words

    restarted = lobby_of_three()
    restarted.apply_event(4, kind, data)
    assert restarted.phase == "playing"
    assert seen(GAME, restarted.state, 0)["cards"][0]["words"] == old_words


def test_the_first_state_is_the_one_the_seed_deals() -> None:
    room = lobby_of_three()
    kind, data = decide_start(room, room.host).as_event()
    room.apply_event(4, kind, data)
    fresh = GAME.new(as_object(data["settings"]), ["Ann", "Bob", "Cy"], 42)
    assert GAME.dump(room.state) == GAME.dump(fresh)


def test_a_two_player_game_started_alone_says_it_needs_exactly_two() -> None:
    """Not "needs 2 to 2 players": a game with one seat count names that count."""
    room = new_model("PIE234", PIET, {"settings": {}, "seed": 1, "language": "en"}, 0.0)
    room.apply(1, decide_join(room, "Ann", "red", "hash-Ann"))
    with pytest.raises(RuleError) as err:
        decide_start(room, room.host)
    assert (err.value.code, err.value.params) == ("seat_count_exact", {"count": 2})
