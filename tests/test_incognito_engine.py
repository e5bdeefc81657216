"""Incognito's rules as players meet them: one test per rule, on the engine."""

from __future__ import annotations

import json
from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.core import JSON, SYSTEM
from atelier.games.incognito import GAME, State
from atelier.games.incognito.engine import dump
from support.actions import apply_json
from support.log_replay import Replay
from support.views import seen

WORDS = [f"word{i:03d}" for i in range(40)]
LOCATIONS = [f"place{i:03d}" for i in range(40)]


def start(players: int = 3, seed: int = 7, **settings: Any) -> State:
    values = {"custom_words": WORDS, "custom_locations": LOCATIONS, **settings}
    return GAME.new(values, [f"p{i}" for i in range(players)], seed)


def act(state: State, seat: int, kind: str, now: float = 0.0, **fields: Any) -> State:
    return apply_json(GAME, state, seat, {"type": kind, **fields}, now)


def refused(state: State, seat: int, kind: str, code: str, now: float = 0.0,
            **fields: Any) -> None:
    before = json.dumps(dump(state))
    with pytest.raises(RuleError) as err:
        act(state, seat, kind, now, **fields)
    assert err.value.code == code
    assert json.dumps(dump(state)) == before


def to_voting(state: State) -> State:
    for seat in range(state.players):
        state = act(state, seat, "done_drawing")
    assert state.phase == "voting"
    return state


def tile(state: State, author: int) -> int:
    return state.tile_of(author)


def wrong_tile(state: State, voter: int, author: int) -> int:
    """A tile the voter has not used that is not the author's word."""
    used = set(state.votes[voter].values())
    return next(t for t in range(1, 7) if t != tile(state, author) and t not in used)


# --- setup ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players: int) -> None:
    with pytest.raises(RuleError) as err:
        start(players)
    assert err.value.code == "seat_count"
    assert start(3).phase == start(6).phase == "drawing"


def test_each_player_gets_a_word_and_a_location_and_nothing_repeats_in_a_game() -> None:
    state = start(6, rounds=3)
    words: list[str] = []
    locations: list[str] = []
    for _ in range(3):
        words += state.tiles  # every word on the table, deck words included
        locations += [state.location_of(s) for s in range(6)]
        assert {state.word_of(s) for s in range(6)} <= set(state.tiles)
        state = to_voting(state)
        for seat in range(6):
            state = act(state, seat, "done_voting")
        if state.phase == "scored":
            state = act(state, SYSTEM, "advance")
    assert state.phase == "over"
    assert len(words) == len(set(words)) == 18
    assert len(locations) == len(set(locations)) == 18


def test_locations_are_public_and_words_secret() -> None:
    state = start(4)
    me: Any = seen(GAME, state, 1)
    assert me["word"] == state.word_of(1)
    assert [p["location"] for p in me["players"]] == [state.location_of(s) for s in range(4)]
    text = json.dumps(me)
    for other in (0, 2, 3):
        assert state.word_of(other) not in text
    spectator = json.dumps(seen(GAME, state, None))
    assert all(state.word_of(s) not in spectator for s in range(4))


def test_the_same_seed_deals_the_same_game() -> None:
    assert dump(start(seed=11)) == dump(start(seed=11))
    assert dump(start(seed=11))["tiles"] != dump(start(seed=12))["tiles"]


# --- drawing --------------------------------------------------------------------------


def test_countdown_starts_when_all_but_one_are_done_and_locks_the_last_drawing() -> None:
    state = start(4, countdown=5)
    state = act(state, 0, "done_drawing", 10.0)
    state = act(state, 1, "done_drawing", 11.0)
    assert GAME.deadline(state) is None
    state = act(state, 2, "done_drawing", 12.0)
    assert GAME.deadline(state) == 17.0
    assert seen(GAME, state, 3)["deadline"] == 17.0 and seen(GAME, state, 3)["clock"] == "countdown"
    assert GAME.may_draw(state, 3) and not GAME.may_draw(state, 0)
    refused(state, SYSTEM, "timeout", "timeout_early", 16.9)
    refused(state, 3, "done_drawing", "incognito.time_up", 17.0)
    state = act(state, SYSTEM, "timeout", 17.0)
    assert state.phase == "voting"
    assert not GAME.may_draw(state, 3)
    assert GAME.ink_tools(state, 3) == frozenset()


def test_the_host_can_start_the_countdown_for_a_table_waiting_on_absent_players() -> None:
    state = act(start(5, countdown=5), 0, "done_drawing", 10.0)
    state = act(state, SYSTEM, "advance", 20.0)
    assert GAME.deadline(state) == 25.0
    refused(state, SYSTEM, "advance", "wrong_phase", 21.0)
    state = act(state, SYSTEM, "timeout", 25.0)
    assert state.phase == "voting"
    state = act(state, 1, "vote", 26.0, author=0, tile=wrong_tile(state, 1, 0))
    state = act(state, SYSTEM, "advance", 30.0)
    state = act(state, SYSTEM, "timeout", 35.0)
    # Every unplaced card was placed at random, so each voter voted on every drawing.
    assert all(len(ballot) == 4 for ballot in state.votes)


def test_when_everyone_is_done_voting_starts_at_once() -> None:
    state = to_voting(start(3))
    assert GAME.deadline(state) is None
    assert len(seen(GAME, state, 0)["tiles"]) == 6


def test_a_drawing_cannot_be_finished_twice() -> None:
    state = act(start(3), 0, "done_drawing")
    refused(state, 0, "done_drawing", "incognito.already_done")


def test_only_the_server_times_out_or_advances() -> None:
    state = start(3)
    refused(state, 0, "timeout", "incognito.system_only")
    refused(state, 0, "advance", "incognito.system_only")
    refused(state, SYSTEM, "done_drawing", "not_a_player")
    refused(state, 3, "done_drawing", "not_a_player")


def test_drawing_time_limit_ends_the_phase() -> None:
    state = start(3, drawing_time_limit=60)
    # round 1 begins without a clock reading: the server's first timeout starts it
    assert GAME.deadline(state) == 0.0
    state = act(state, SYSTEM, "timeout", 100.0)
    assert state.phase == "drawing"
    assert GAME.deadline(state) == 160.0
    assert seen(GAME, state, 0)["deadline"] == 160.0 and seen(GAME, state, 0)["clock"] == "limit"
    state = act(state, 0, "done_drawing", 120.0)
    refused(state, SYSTEM, "timeout", "timeout_early", 159.0)
    refused(state, 1, "done_drawing", "incognito.time_up", 160.0)
    state = act(state, SYSTEM, "timeout", 160.0)
    assert state.phase == "voting"


def test_drawing_time_limit_runs_from_the_first_action_and_from_each_new_round() -> None:
    state = start(3, drawing_time_limit=30, countdown=5)
    state = act(state, 0, "done_drawing", 50.0)
    assert GAME.deadline(state) == 80.0
    state = to_voting_from(state, 51.0)
    for seat in range(3):
        state = act(state, seat, "done_voting", 52.0)
    state = act(state, SYSTEM, "advance", 200.0)
    assert state.round == 2 and GAME.deadline(state) == 230.0


def to_voting_from(state: State, now: float) -> State:
    for seat in range(state.players):
        if not state.done_drawing[seat]:
            state = act(state, seat, "done_drawing", now)
    return state


def test_without_a_time_limit_there_is_nothing_to_wait_for() -> None:
    state = start(3)
    assert GAME.deadline(state) is None
    refused(state, SYSTEM, "timeout", "timeout_early", 1e9)


def test_ink_is_private_while_drawing_and_public_from_the_vote() -> None:
    state = start(3)
    assert GAME.drawing_key(state) == "round-1"
    assert GAME.ink_visible(state, 1, 1)
    assert not GAME.ink_visible(state, 1, 0)
    assert not GAME.ink_visible(state, 1, None)
    assert GAME.ink_tools(state, 1) == {"pen", "eraser", "undo", "clear"}
    state = to_voting(state)
    assert GAME.ink_visible(state, 1, 0) and GAME.ink_visible(state, 1, None)
    assert GAME.drawing_key(state) == "round-1"


# --- voting ---------------------------------------------------------------------------


def test_the_six_tiles_hold_every_players_word_and_deck_words() -> None:
    state = to_voting(start(4))
    tiles: Any = seen(GAME, state, None)["tiles"]
    assert len(set(tiles)) == 6
    assert {state.word_of(s) for s in range(4)} <= set(tiles)
    assert seen(GAME, state, 2)["word_tile"] == tiles.index(state.word_of(2)) + 1


def test_vote_rules() -> None:
    state = to_voting(start(4))
    refused(state, 0, "vote", "incognito.own_drawing", author=0, tile=1)
    refused(state, 0, "vote", "incognito.bad_tile", author=1, tile=7)
    refused(state, 0, "vote", "incognito.bad_tile", author=1, tile=0)
    refused(state, 0, "vote", "bad_target", author=9, tile=1)
    # a field of the wrong type never reaches the rules: the schema refuses it
    refused(state, 0, "vote", "action_invalid", author=1, tile="2")
    refused(state, 0, "vote", "action_invalid", author=True, tile=2)
    state = act(state, 0, "vote", author=1, tile=2)
    refused(state, 0, "vote", "incognito.already_voted", author=1, tile=3)  # a vote is final
    refused(state, 0, "vote", "incognito.tile_used", author=2, tile=2)
    assert seen(GAME, state, 0)["my_votes"] == {"1": 2}
    assert seen(GAME, state, 0)["unused_tiles"] == [1, 3, 4, 5, 6]


def test_votes_only_in_the_voting_phase() -> None:
    refused(start(3), 0, "vote", "wrong_phase", author=1, tile=1)
    refused(start(3), 0, "done_voting", "wrong_phase")


def test_voting_on_every_drawing_finishes_a_player() -> None:
    state = to_voting(start(3))
    state = act(state, 0, "vote", author=1, tile=1)
    state = act(state, 0, "vote", author=2, tile=2)
    assert seen(GAME, state, None)["players"][0]["done_voting"]
    refused(state, 0, "done_voting", "incognito.finished_voting")


def test_declaring_done_voting_ends_your_votes() -> None:
    state = act(to_voting(start(4)), 0, "done_voting")
    refused(state, 0, "vote", "incognito.finished_voting", author=1, tile=1)


def test_voting_countdown_then_unplaced_cards_are_placed_at_random() -> None:
    state = to_voting(start(4, countdown=5))
    state = act(state, 0, "vote", 1.0, author=1, tile=1)
    state = act(state, 1, "done_voting", 2.0)
    state = act(state, 2, "done_voting", 3.0)
    assert GAME.deadline(state) is None
    state = act(state, 3, "done_voting", 4.0)
    assert GAME.deadline(state) == 9.0
    refused(state, 0, "vote", "incognito.time_up", 9.5, author=2, tile=2)
    refused(state, SYSTEM, "timeout", "timeout_early", 8.0)
    state = act(state, SYSTEM, "timeout", 9.5)
    assert state.phase == "scored"
    for voter in range(4):
        ballot = state.votes[voter]
        assert sorted(ballot) == [a for a in range(4) if a != voter]
        assert len(set(ballot.values())) == 3
    assert state.votes[0][1] == 1  # placed votes stay
    reveal: Any = seen(GAME, state, None)["reveal"]
    drawing1 = reveal["drawings"][1]
    vote0 = next(v for v in drawing1["votes"] if v["voter"] == 0)
    assert vote0 == {"voter": 0, "tile": 1, "found": tile(state, 1) == 1, "random": False}
    assert all(v["random"] for v in reveal["drawings"][0]["votes"])


def test_the_random_placement_is_seeded() -> None:
    def play(seed: int) -> list[dict[int, int]]:
        state = to_voting(start(5, seed=seed))
        for seat in range(5):
            state = act(state, seat, "done_voting")
        return state.votes

    assert play(3) == play(3)
    assert any(play(3) != play(s) for s in range(4, 9))


# --- scoring and rounds -----------------------------------------------------------------


def test_rulebook_example_marjolaine_scores_4_in_the_engine() -> None:
    state = to_voting(start(5))
    marjolaine, romeo, ada, ben, cleo = range(5)
    for author in (romeo, ada):
        state = act(state, marjolaine, "vote", author=author, tile=tile(state, author))
    for author in (ben, cleo):
        state = act(state, marjolaine, "vote", author=author,
                    tile=wrong_tile(state, marjolaine, author))
    for voter in (romeo, ada, ben):
        state = act(state, voter, "vote", author=marjolaine, tile=tile(state, marjolaine))
    state = act(state, cleo, "vote", author=marjolaine,
                tile=wrong_tile(state, cleo, marjolaine))
    for voter in (romeo, ada, ben, cleo):
        state = act(state, voter, "done_voting")
    assert state.phase == "scored"
    reveal: Any = seen(GAME, state, None)["reveal"]
    assert reveal["finding_points"][marjolaine] == 2
    assert reveal["author_points"][marjolaine] == 2
    assert reveal["points"][marjolaine] == 4
    assert reveal["drawings"][marjolaine]["found_by"] == [romeo, ada, ben]
    assert seen(GAME, state, None)["totals"][marjolaine] == 4


def everyone_finds(state: State, author: int) -> State:
    for voter in range(state.players):
        if voter != author:
            state = act(state, voter, "vote", author=author, tile=tile(state, author))
    return state


def test_author_scores_2_only_if_some_but_not_all_find_the_word() -> None:
    state = to_voting(start(3))
    state = everyone_finds(state, 0)  # seats 1 and 2 find 0's word: 0 scores nothing
    state = act(state, 0, "vote", author=1, tile=tile(state, 1))  # only 0 finds 1's word
    state = act(state, 2, "vote", author=1, tile=wrong_tile(state, 2, 1))
    state = act(state, 0, "vote", author=2, tile=wrong_tile(state, 0, 2))
    state = act(state, 1, "vote", author=2, tile=wrong_tile(state, 1, 2))  # nobody finds 2's
    assert state.phase == "scored"
    reveal: Any = seen(GAME, state, None)["reveal"]
    assert reveal["author_points"] == [0, 2, 0]
    assert reveal["finding_points"] == [1, 1, 1]
    assert reveal["points"] == [1, 3, 1]


def test_next_round_waits_for_everyone_to_confirm_or_the_host() -> None:
    state = to_voting(start(3))
    for seat in range(3):
        state = act(state, seat, "done_voting")
    assert state.phase == "scored"
    state = act(state, 0, "confirm")
    refused(state, 0, "confirm", "incognito.already_confirmed")
    assert seen(GAME, state, None)["players"][0]["confirmed"]
    state = act(state, 1, "confirm")
    assert state.phase == "scored"
    state = act(state, 2, "confirm", 30.0)
    assert (state.phase, state.round, state.started) == ("drawing", 2, 30.0)
    assert GAME.drawing_key(state) == "round-2"
    refused(state, 0, "confirm", "wrong_phase")


def test_game_ends_after_the_rounds_with_shared_victories() -> None:
    state = start(3, rounds=1)
    state = to_voting(state)
    for seat in range(3):
        state = act(state, seat, "done_voting")
    assert GAME.is_over(state) and state.phase == "over"
    view: Any = seen(GAME, state, None)
    best = max(view["totals"])
    assert view["winners"] == [s for s in range(3) if view["totals"][s] == best]
    refused(state, 0, "confirm", "game_over")
    refused(state, SYSTEM, "advance", "game_over")


def test_ties_share_the_victory() -> None:
    state = to_voting(start(3, rounds=1))
    # every vote wrong: nobody scores, so all three share the victory
    for voter in range(3):
        for author in range(3):
            if author != voter:
                state = act(state, voter, "vote", author=author,
                            tile=wrong_tile(state, voter, author))
    assert seen(GAME, state, 1)["winners"] == [0, 1, 2]


def test_unknown_or_malformed_actions_are_refused() -> None:
    refused(start(3), 0, "dance", "bad_action")
    with pytest.raises(RuleError) as err:
        apply_json(GAME, start(3), 0, {"kind": "vote"}, 0.0)
    assert err.value.code == "bad_action"


# --- settings, persistence --------------------------------------------------------------


def test_settings_defaults_and_validation() -> None:
    full = GAME.validate_settings({"custom_words": WORDS, "custom_locations": LOCATIONS}, 4)
    assert (full["language"], full["rounds"], full["countdown"],
            full["drawing_time_limit"]) == ("en", 3, 5, None)
    bad: list[dict[str, Any]] = [
        {"language": "fr"}, {"rounds": 0}, {"rounds": True}, {"countdown": -1},
        {"countdown": "5"}, {"drawing_time_limit": 0}, {"custom_words": "cat"},
        {"custom_words": ["cat", 3]}, {"colour": "red"},
    ]
    for change in bad:
        with pytest.raises(RuleError) as err:
            GAME.validate_settings({"custom_words": WORDS, "custom_locations": LOCATIONS,
                                    **change}, 4)
        assert err.value.code == "bad_settings", change


def test_too_few_words_or_locations_for_the_game() -> None:
    with pytest.raises(RuleError) as err:
        GAME.validate_settings({"custom_words": WORDS[:17], "custom_locations": LOCATIONS}, 3)
    assert (err.value.code, err.value.params) == ("incognito.too_few_words",
                                                  {"need": 18, "have": 17})
    with pytest.raises(RuleError) as err:
        GAME.validate_settings({"custom_words": WORDS, "custom_locations": LOCATIONS[:11]}, 4)
    assert err.value.code == "incognito.too_few_locations"
    # duplicates (in any case) count once
    with pytest.raises(RuleError) as err:
        GAME.validate_settings({"rounds": 1, "custom_words": ["a", "A", "b", "c", "d", "e"],
                                "custom_locations": LOCATIONS}, 3)
    assert err.value.code == "incognito.too_few_words"


def test_dump_and_load_round_trip_through_json() -> None:
    state = act(to_voting(start(4)), 0, "vote", author=1, tile=3)
    data: Any = json.loads(json.dumps(GAME.dump(state)))
    again = GAME.load(data)
    assert GAME.dump(again) == GAME.dump(state)
    finish = [(s, {"type": "done_voting"}) for s in range(4)]
    a, b = state, again
    for seat, action in finish:
        a, b = apply_json(GAME, a, seat, action, 1.0), apply_json(GAME, b, seat, action, 1.0)
    assert GAME.dump(a) == GAME.dump(b)  # the generator state travelled too


def test_replay_from_seed_and_log() -> None:
    from support.log_replay import LoggedAction

    settings: dict[str, JSON] = {"custom_words": WORDS, "custom_locations": LOCATIONS,
                                 "rounds": 1}
    log = [LoggedAction(s, {"type": "done_drawing"}, 1.0) for s in range(3)]
    log += [LoggedAction(s, {"type": "done_voting"}, 2.0) for s in range(3)]
    replay = Replay(settings, ["a", "b", "c"], 99, log)
    assert GAME.dump(replay.run(GAME)) == GAME.dump(replay.run(GAME))
    assert GAME.is_over(replay.run(GAME))


@pytest.mark.parametrize("language", ["en", "de", "uk"])
def test_the_built_in_deck_of_each_language_deals_a_full_game(language: str) -> None:
    from atelier.games.incognito.decks import incognito_content

    words, locations = incognito_content(language)
    if not words:
        pytest.skip(f"no built-in Incognito deck for {language} yet")
    state = GAME.new({"language": language}, [f"p{i}" for i in range(6)], 5)
    assert set(state.tiles) <= {w.text for w in words}
    assert state.location_of(0) in {x.text for x in locations}
