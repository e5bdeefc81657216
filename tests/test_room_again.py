"""Play again and no repeats in a room, on the pure room model: every change is an
event, so a room rebuilt from its events (a restart) is the same room."""

from __future__ import annotations

from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.actions import System
from atelier.games.core import JSON, SYSTEM, Game
from atelier.games.incognito import GAME as INCOGNITO
from atelier.games.pictomania import GAME as PICTOMANIA
from atelier.games.pictomania.actions import Replace
from atelier.games.piet.game import GAME as PIET
from atelier.games.piet.game import MoveAction, PietState
from atelier.server.room.events import LogEvent
from atelier.server.room.model import (
    RoomModel,
    decide_action,
    decide_again,
    decide_agree,
    decide_go_on,
    decide_join,
    decide_kick,
    decide_leave,
    decide_next,
    decide_settings,
    decide_start,
    new_model,
)
from support.pictomania import sample_cards

PLAYERS = [("Ann", "red"), ("Bob", "blue"), ("Cy", "green")]


class LoggedRoom:
    """A room model and the events it took, so it can be rebuilt as after a restart."""

    def __init__(self, game: Game[Any], settings: dict[str, Any]) -> None:
        self.game = game
        full = game.validate_settings(settings, game.min_seats)
        self.created: dict[str, JSON] = {"settings": full, "seed": 42, "language": "en"}
        self.room = new_model("ABC234", game, self.created, 0.0)
        self.events: list[LogEvent] = []

    def do(self, event: LogEvent, state: Any = None) -> None:
        self.events.append(event)
        self.room.apply(self.room.seq + 1, event, state)

    def rebuilt(self) -> RoomModel:
        room = new_model("ABC234", self.game, self.created, 0.0)
        for seq, event in enumerate(self.events, 2):
            room.apply_event(seq, *event.as_event())  # as the log keeps it
        return room

    def join(self, players: list[tuple[str, str]] = PLAYERS) -> None:
        for name, colour in players:
            self.do(decide_join(self.room, name, colour, f"hash-{name}"))

    def start(self) -> None:
        self.do(decide_start(self.room, self.room.host))

    def play_out(self, now: float = 1000.0) -> None:
        """The host moves the game on until it is over (Pictomania, Incognito)."""
        while self.room.phase == "playing":
            try:
                self.do(*decide_next(self.room, self.room.host, now))
            except RuleError:  # Incognito: the host started a countdown; let it run out
                due = self.game.deadline(self.room.state)
                assert due is not None
                self.do(*decide_action(self.room, SYSTEM, System(type="timeout"), due))
            now += 100.0
        assert self.room.phase == "over"

    def again(self) -> None:
        self.do(decide_again(self.room, self.room.host))


def first_legal_move(state: PietState) -> str:
    moves: Any = PIET.view(state, 0)["legal_moves"]
    return str(moves[0])


def pictomania_room(cards: int = 12, rounds: int = 2) -> LoggedRoom:
    deck = sample_cards(cards, levels=(1,))
    return LoggedRoom(PICTOMANIA, {"custom_cards": deck, "custom_mode": "instead",
                                   "rounds": rounds, "levels": [1] * rounds})


def shown(room: RoomModel) -> set[str]:
    used: list[str] = room.state.used
    return set(used)


# --- play again ----------------------------------------------------------------------


def test_play_again_keeps_players_seats_colours_and_settings() -> None:
    log = pictomania_room()
    log.join()
    log.start()
    seats = list(log.room.seats)
    log.play_out()
    log.again()
    room = log.room
    assert room.phase == "lobby" and room.state is None
    assert [(p.name, p.colour) for p in room.players] == PLAYERS
    assert room.host == "p1"
    assert room.settings["rounds"] == 2
    log.do(decide_settings(room, room.host, {"rounds": 1, "levels": [1]}))
    log.start()
    assert room.phase == "playing" and room.seats == seats
    assert room.settings["rounds"] == 1


def test_the_room_keeps_each_finished_games_points() -> None:
    log = pictomania_room()
    log.join()
    log.start()
    log.play_out()
    first: Any = log.room.played
    assert len(first) == 1
    totals = PICTOMANIA.final_scores(log.room.state)
    assert [p["score"] for p in first[0]["players"]] == totals
    assert [p["id"] for p in first[0]["players"]] == log.room.seats
    log.again()
    log.start()
    log.play_out()
    assert len(log.room.played) == 2
    assert log.rebuilt().played == log.room.played


def test_only_the_host_plays_again_and_only_after_game_over() -> None:
    log = pictomania_room()
    log.join()
    with pytest.raises(RuleError) as err:
        decide_again(log.room, log.room.host)
    assert err.value.code == "not_over"
    log.start()
    with pytest.raises(RuleError) as err:
        decide_again(log.room, log.room.host)
    assert err.value.code == "not_over"
    log.play_out()
    with pytest.raises(RuleError) as err:
        decide_again(log.room, "p2")
    assert err.value.code == "not_host"


def test_a_player_who_leaves_after_game_over_is_not_in_the_next_game() -> None:
    log = pictomania_room()
    log.join()
    log.start()
    log.play_out()
    log.do(*decide_leave(log.room, "p2"))
    # The finished game still shows the seat of the player who left.
    assert [p.id for p in log.room.all_players()] == ["p1", "p2", "p3"]
    log.again()
    assert [p.id for p in log.room.players] == ["p1", "p3"]
    assert [p.id for p in log.room.all_players()] == ["p1", "p3"]


def test_play_again_survives_a_restart() -> None:
    log = pictomania_room()
    log.join()
    log.start()
    log.play_out()
    log.again()
    log.start()
    rebuilt = log.rebuilt()
    assert rebuilt.phase == "playing"
    assert rebuilt.games_started == 2 and rebuilt.ink_prefix == "g2-"
    assert PICTOMANIA.dump(rebuilt.state) == PICTOMANIA.dump(log.room.state)
    assert rebuilt.dealt == log.room.dealt


def test_a_second_game_shuffles_anew() -> None:
    log = pictomania_room(cards=40, rounds=1)
    log.join()
    first_seed = log.room.game_seed()
    log.start()
    log.play_out()
    log.again()
    assert log.room.game_seed() != first_seed


def test_incognito_plays_again() -> None:
    words = [f"word{i:02d}" for i in range(12)]
    places = [f"place{i:02d}" for i in range(6)]
    log = LoggedRoom(INCOGNITO, {"custom_words": words, "custom_locations": places,
                                 "rounds": 1})
    log.join()
    log.start()
    first_words = set(log.room.state.deal_words[0])
    first_places = set(log.room.state.deal_locations[0])
    log.play_out()
    log.again()
    log.start()
    # 12 words, 6 per game; 6 places, 3 per game: the second game deals the rest
    assert set(log.room.state.deal_words[0]) == set(words) - first_words
    assert set(log.room.state.deal_locations[0]) == set(places) - first_places
    assert log.rebuilt().dealt == log.room.dealt


def test_piet_against_the_computer_plays_again() -> None:
    log = LoggedRoom(PIET, {"opponent": "easy", "computer_seat": 1})
    log.join([("Ann", "red")])
    log.start()
    assert log.room.seats == ["p1", "c1"]
    # Play the game out: the human takes the first legal move, the computer answers.
    while log.room.phase == "playing":
        state = log.room.state
        seat = state.board.to_move
        action = (PIET.bot_action(state, seat) if seat == 1
                  else MoveAction(move=first_legal_move(state)))
        assert action is not None
        log.do(*decide_action(log.room, seat, action, 0.0))
    assert len(log.room.played) == 1
    log.again()
    assert log.room.phase == "lobby" and log.room.computers == {}
    log.start()
    assert log.room.seats == ["p1", "c1"] and log.room.phase == "playing"
    assert log.rebuilt().seats == ["p1", "c1"]


def test_piet_hints_need_both_agreements_again_after_playing_again() -> None:
    log = LoggedRoom(PIET, {})
    log.join([("Ann", "red"), ("Bob", "blue")])
    for player in ("p1", "p2"):
        log.do(decide_agree(log.room, player, "hints", True))
    log.start()
    assert log.room.state.settings["hints"] is True
    assert log.rebuilt().state.settings["hints"] is True
    while log.room.phase == "playing":
        state = log.room.state
        move = MoveAction(move=first_legal_move(state))
        log.do(*decide_action(log.room, state.board.to_move, move, 0.0))
    log.again()
    # each agreement was for the game just played: the rematch asks again
    assert [p.agreed for p in log.room.players] == [set(), set()]
    log.do(decide_agree(log.room, "p2", "hints", True))
    log.start()
    assert log.room.state.settings["hints"] is False
    assert log.rebuilt().state.settings["hints"] is False


# --- no repeats in a room ------------------------------------------------------------


def test_two_games_in_a_room_never_repeat_a_card() -> None:
    log = pictomania_room(cards=12)
    log.join()
    log.start()
    log.play_out()
    first = shown(log.room)
    assert len(first) == 6
    log.again()
    log.start()
    log.play_out()
    second = shown(log.room)
    assert len(second) == 6 and first.isdisjoint(second)


def test_an_exhausted_level_starts_afresh_after_dealing_every_unseen_card() -> None:
    log = pictomania_room(cards=8)
    deck = {f"t1-{i}" for i in range(8)}
    log.join()
    log.start()
    log.play_out()
    first = shown(log.room)
    log.again()
    log.start()
    log.play_out()
    second = shown(log.room)
    assert deck - first <= second  # the two unseen cards came first
    log.again()
    # The level started afresh: the room remembers only what came after.
    memory = set(log.room.dealt)
    assert memory < second and len(memory) == 4
    log.start()
    log.play_out()
    assert deck - memory <= shown(log.room)
    assert log.rebuilt().dealt == log.room.dealt


def test_replaced_cards_count_as_dealt() -> None:
    log = pictomania_room(cards=12, rounds=1)
    log.join()
    log.start()
    seat = log.room.seat_of("p2")
    log.do(*decide_action(log.room, seat, Replace(card="A"), 0.0))
    log.play_out()
    first = shown(log.room)
    assert len(first) == 4
    log.again()
    remembered = set(log.room.dealt)
    assert remembered == first
    log.start()
    log.play_out()
    assert remembered.isdisjoint(shown(log.room))


def test_an_exhausted_incognito_pool_deals_every_unseen_word_then_starts_afresh() -> None:
    import random

    from atelier.games.incognito.engine import deal_avoiding

    pool = [f"word{i}" for i in range(10)]
    memory: list[str] = []
    first = deal_avoiding(random.Random(1), pool, 6, "w:", memory)
    assert sorted(memory) == sorted(f"w:{w}" for w in first)
    second = deal_avoiding(random.Random(2), pool, 6, "w:", memory)
    assert len(set(second)) == 6
    assert set(pool) - set(first) <= set(second)  # the four unseen came first
    again = set(second) & set(first)
    assert len(again) == 2 and sorted(memory) == sorted(f"w:{w}" for w in again)
    # locations kept in the same memory are not touched by the words' fresh start
    memory.append("l:harbour")
    third = deal_avoiding(random.Random(3), pool, 9, "w:", memory)  # 8 unseen: afresh
    assert "l:harbour" in memory and len(memory) == 2
    assert set(pool) - again <= set(third)


def test_a_removed_player_is_rebuilt_after_a_restart_and_not_in_the_next_game() -> None:
    log = pictomania_room()
    log.join()
    log.start()
    log.do(*decide_kick(log.room, "p1", "p3", 5.0))
    room = log.room
    assert [p.id for p in room.players] == ["p1", "p2"]
    assert [(p.id, p.removed) for p in room.all_players()] == [
        ("p1", False), ("p2", False), ("p3", True)]
    assert room.state.removed == [False, False, True]
    rebuilt = log.rebuilt()
    assert PICTOMANIA.dump(rebuilt.state) == PICTOMANIA.dump(room.state)
    assert [(p.id, p.removed) for p in rebuilt.all_players()] == [
        ("p1", False), ("p2", False), ("p3", True)]
    log.play_out()
    log.again()
    assert [p.id for p in log.room.all_players()] == ["p1", "p2"]
    with pytest.raises(RuleError) as err:
        decide_start(log.room, "p1")
    assert err.value.code == "seat_count"  # Pictomania needs three


def test_piet_cannot_remove_a_player_mid_game() -> None:
    log = LoggedRoom(PIET, {})
    log.join([("Ann", "red"), ("Bob", "blue")])
    log.start()
    with pytest.raises(RuleError) as err:
        decide_kick(log.room, "p1", "p2", 0.0)
    assert err.value.code == "game_started"
    with pytest.raises(RuleError) as err:
        decide_leave(log.room, "p2")
    assert err.value.code == "game_started"
    with pytest.raises(RuleError) as err:
        decide_go_on(log.room, "p1", set(), 0.0)
    assert err.value.code == "no_go_on"
