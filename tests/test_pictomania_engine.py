"""The Pictomania engine: every rule of both editions, through the game contract."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.core import SYSTEM
from atelier.games.pictomania import GAME
from atelier.games.pictomania.actions import Canvas
from atelier.games.pictomania.state import State
from support.actions import apply_json
from support.pictomania import (
    NAMES,
    a_wrong_number,
    act,
    deal,
    draw_on,
    finish_all,
    new,
    number_of,
    refused,
    sample_cards,
    settings,
    started,
)
from support.views import saved, seen


def guess_right(state: State, by: int, target: int) -> State:
    return act(state, by, type="guess", target=target, number=number_of(state, target))


# --- settings and setup -------------------------------------------------------


def test_editions_set_rounds_cards_and_black_tokens() -> None:
    second, first = new(4), new(4, edition="first")
    assert (second.settings["rounds"], len(second.display)) == (4, 3)
    assert (first.settings["rounds"], len(first.display)) == (5, 6)
    assert seen(GAME, second, 0)["cards"][2]["label"] == "C"
    assert [c["label"] for c in seen(GAME, first, 0)["cards"]] == ["1", "2", "3", "4", "5", "6"]
    assert second.black_table == [3, 2, 2, 1] and first.black_table == [3, 2, 1]
    assert new(4, competitive=True).black_table == [3, 2, 2]
    assert second.player_tokens == [3, 2, 1]


def test_levels_default_easiest_first_and_cards_match() -> None:
    state = new(4)
    assert state.settings["levels"] == [1, 2, 3, 4]
    assert new(4, edition="first").settings["levels"] == [1, 1, 2, 3, 4]
    assert new(4, edition="first", kids=True).settings["levels"] == [1] * 5
    assert new(3, rounds=2).settings["levels"] == [1, 3]
    assert {c["level"] for c in state.display} == {1}
    assert new(3, levels=[4, 4]).settings["rounds"] == 2


def test_kids_variant_one_card_and_no_letters() -> None:
    state = started(5, edition="first", kids=True)
    assert len(state.display) == 1
    assert all(s.letter is None for s in state.seats)
    me = seen(GAME, state, 0)["me"]
    words: Any = state.display[0]["words"]
    assert me["letter"] is None and me["word"] == words[me["number"] - 1]


@pytest.mark.parametrize(
    ("over", "field"),
    [
        ({"edition": "third"}, "edition"),
        ({"edition": "first", "competitive": True}, "competitive"),
        ({"kids": True}, "kids"),
        ({"edition": "first", "learning_round": True}, "learning_round"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 3, "levels": [1, 2]}, "levels"),
        ({"levels": [1, 5, 2, 3]}, "levels"),
        ({"time_limit": 1}, "time_limit"),
        ({"time_limit": True}, "time_limit"),
        ({"player_token_values": [3, -1]}, "player_token_values"),
        ({"black_token_values": []}, "black_token_values"),
        ({"card_swaps": -1}, "card_swaps"),
        ({"language": "fr"}, "language"),
        ({"custom_mode": "mixed"}, "custom_mode"),
        ({"custom_cards": sample_cards(1, levels=(1,))}, "custom_cards"),  # too few for 4 rounds
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_settings_name_the_field(over: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleError) as err:
        GAME.validate_settings(settings(**over), 4)
    assert (err.value.code, err.value.params) == ("bad_settings", {"field": field})


def test_settings_are_filled_in() -> None:
    full = GAME.validate_settings(settings(), 4)
    assert set(full) == set(GAME.default_settings())
    assert full["rounds"] == 4 and full["learning_round"] is False


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players: int) -> None:
    with pytest.raises(RuleError) as err:
        GAME.new(settings(), [f"p{i}" for i in range(players)], 1)
    assert err.value.code == "seat_count"


def test_overrides_of_token_values() -> None:
    state = started(3, player_token_values=[1, 5], black_token_values=[4, 4, 1])
    assert state.player_tokens == [5, 1]
    assert seen(GAME, state, 0)["black_tokens_left"] == [4, 4, 1]


# --- the display and replacing cards ----------------------------------------


def test_second_edition_replaces_any_card_with_one_of_the_same_level() -> None:
    state = new(4, levels=[2, 2, 3, 4])
    state = act(state, 0, type="ready")
    old = state.display[1]["id"]
    for _ in range(3):  # no limit in the 2nd edition
        state = act(state, 2, type="replace", card="B")
    assert state.display[1]["id"] != old and state.display[1]["level"] == 2
    assert state.ready == [False] * 4  # everyone sees the new card before the deal
    assert old in state.used


def test_first_edition_swaps_are_limited_per_player_per_game() -> None:
    state = new(3, edition="first")
    state = act(state, 0, type="replace", card="6")
    refused("no_swaps_left", state, 0, type="replace", card="1")
    state = act(state, 1, type="replace", card="1")  # others still have theirs
    two = act(act(new(3, edition="first", card_swaps=2), 0, type="replace", card="1"), 0,
              type="replace", card="2")  # fmt: skip
    assert two.swaps_used[0] == 2
    assert seen(GAME, state, 0)["players"][2]["swaps_left"] == 1


def test_replacing_unknown_card_is_refused() -> None:
    refused("bad_card", new(4), 0, type="replace", card="D")
    refused("action_invalid", new(4), 0, type="replace", card=1)  # the schema's


def test_replacement_keeps_enough_cards_for_later_rounds() -> None:
    state = new(3, rounds=2, custom_cards=sample_cards(2)[:7])
    state = act(state, 0, type="replace", card="A")
    refused("no_cards_left", state, 0, type="replace", card="A")


def test_a_level_without_cards_falls_back_to_a_neighbour() -> None:
    state = new(3, rounds=1, levels=[3], custom_cards=sample_cards(5, levels=(2, 4)))
    assert {c["level"] for c in state.display} <= {2, 4}


def test_cards_never_come_back_in_a_game() -> None:
    state = new(3, edition="first", custom_cards=sample_cards(8))
    shown: list[str] = []
    while state.phase != "over":
        shown += [str(c["id"]) for c in state.display]
        state = act(state, SYSTEM, type="advance")  # deal
        state = act(state, SYSTEM, type="advance")  # stop drawing
        state = act(state, SYSTEM, type="advance")  # scores final
    assert len(shown) == len(set(shown)) == 30


def test_host_can_deal_without_everyone_ready() -> None:
    state = act(new(4), SYSTEM, type="advance")
    assert state.phase == "drawing"
    refused("host_only", new(4), 0, type="advance")


def test_unready_and_wrong_phase() -> None:
    state = act(new(3), 0, type="ready")
    state = act(state, 0, type="ready", ready=False)
    state = act(act(state, 1, type="ready"), 2, type="ready")
    assert state.phase == "display"
    refused("wrong_phase", state, 0, type="guess", target=1, number=1)
    refused("bad_action", state, 0, type="dance")
    refused("not_a_player", state, 3, type="ready")


# --- dealing ------------------------------------------------------------------


def test_second_edition_letters_are_a_a_b_b_c_c() -> None:
    for seed in range(30):
        state = started(6, seed=seed)
        assert Counter(s.letter for s in state.seats) == {0: 2, 1: 2, 2: 2}
        assert len({s.number for s in state.seats}) == 6


def test_first_edition_symbols_are_all_different() -> None:
    for seed in range(10):
        state = started(5, seed=seed, edition="first")
        assert len({s.letter for s in state.seats}) == 5


def test_dealing_depends_on_the_seed_only() -> None:
    assert GAME.dump(started(5, seed=3)) == GAME.dump(started(5, seed=3))
    assert {saved(GAME, started(5, seed=s))["seats"][0]["number"] for s in range(20)} != {1}


# --- guessing -----------------------------------------------------------------


def test_guess_constraints() -> None:
    state = started(4)
    refused("own_drawing", state, 0, type="guess", target=0, number=1)
    refused("bad_target", state, 0, type="guess", target=4, number=1)
    refused("bad_number", state, 0, type="guess", target=1, number=8)
    refused("bad_number", state, 0, type="guess", target=1, number=0)
    refused("action_invalid", state, 0, type="guess", target=1, number=True)  # the schema's
    state = act(state, 0, type="guess", target=1, number=5)
    refused("already_guessed", state, 0, type="guess", target=1, number=6)
    refused("number_spent", state, 0, type="guess", target=2, number=5)
    state = act(state, 0, type="guess", target=2, number=6)
    assert seen(GAME, state, 0)["me"]["spent"] == [5, 6]


def test_stack_order_is_acceptance_order() -> None:
    state = started(4)
    for by in (3, 0, 2):
        state = act(state, by, type="guess", target=1, number=a_wrong_number(state, by, 1))
    assert [by for by, _ in state.seats[1].stack] == [3, 0, 2]
    assert seen(GAME, state, None)["players"][1]["guessed_by"] == [3, 0, 2]


def test_finished_players_may_not_guess_but_may_be_guessed() -> None:
    state = act(started(4), 1, type="done")
    refused("already_finished", state, 1, type="guess", target=0, number=1)
    refused("already_finished", state, 1, type="done")
    refused("already_finished", state, 1, type="black")
    state = act(state, 0, type="guess", target=1, number=3)
    assert state.seats[1].stack == [(0, 3)]


def test_second_edition_first_guess_locks_the_drawing() -> None:
    state = started(4)
    # Until the first guess the drawing may still be modified (erased, undone).
    assert GAME.may_draw(state, 0)
    assert GAME.ink_tools(state, 0) == {"pen", "eraser", "undo", "clear"}
    state = act(state, 0, type="guess", target=1, number=2)
    assert not GAME.may_draw(state, 0)
    assert GAME.ink_tools(state, 0) == frozenset()
    assert GAME.may_draw(state, 1)


def test_first_edition_draws_on_after_guessing_until_finished() -> None:
    state = started(4, edition="first")
    state = act(state, 0, type="guess", target=1, number=2)
    assert GAME.may_draw(state, 0)
    assert GAME.ink_tools(state, 0) == {"pen", "eraser", "undo", "clear"}
    state = act(state, 0, type="black")
    assert not GAME.may_draw(state, 0)


def test_ink_is_always_visible_and_keyed_per_round() -> None:
    state = new(3)
    assert GAME.drawing_key(state) is None and not GAME.may_draw(state, 0)
    state = deal(state)
    assert GAME.drawing_key(state) == "round-1"
    assert GAME.ink_visible(state, 0, None) and GAME.ink_visible(state, 0, 1)
    state = finish_all(state)
    assert state.phase == "review" and GAME.drawing_key(state) == "round-1"
    assert not GAME.may_draw(state, 0)


# --- black tokens and the end of a round --------------------------------------


def test_black_token_default_is_the_highest_and_any_remaining_may_be_taken() -> None:
    state = started(4)
    state = act(state, 0, type="black", value=1)
    state = act(state, 1, type="black")
    assert (state.seats[0].black, state.seats[1].black) == (1, 3)
    refused("black_token_gone", state, 2, type="black", value=1)
    refused("action_invalid", state, 2, type="black", value="2")  # the schema's
    assert seen(GAME, state, None)["black_tokens_left"] == [2, 2]
    assert seen(GAME, state, None)["players"][0]["black_token"] == 1


def test_standard_second_edition_round_ends_when_everyone_is_finished() -> None:
    state = started(3)
    state = act(act(state, 0, type="black"), 1, type="done")
    assert state.phase == "drawing"
    state = act(state, 2, type="black")
    assert (state.phase, state.ended_by) == ("review", "finished")


@pytest.mark.parametrize("over", [{"competitive": True}, {"edition": "first"}])
def test_last_token_stops_everyone_when_one_fewer_than_players(over: dict[str, Any]) -> None:
    state = started(4, **over)
    state = act(act(state, 0, type="black"), 1, type="black")
    assert state.phase == "drawing"
    state = act(state, 2, type="black")
    assert (state.phase, state.ended_by) == ("review", "last_token")
    assert state.seats[3].black is None and state.seats[3].finished


def test_no_tokens_left_means_declaring_done() -> None:
    state = started(3, black_token_values=[2])
    state = act(state, 0, type="done")
    state = act(state, 1, type="black")  # table of 1 < 3 players: the last token stops all
    assert state.phase == "review"
    state = started(3, black_token_values=[2, 2, 1])
    state = act(act(act(state, 0, type="black"), 1, type="black"), 2, type="done")
    assert state.phase == "review" and state.seats[2].black is None


def test_time_limit_ends_the_round_at_the_deadline() -> None:
    state = deal(new(3, time_limit=60), now=100.0)
    assert GAME.deadline(state) == 160.0
    refused("timeout_early", state, SYSTEM, now=159.9, type="timeout")
    state = act(state, SYSTEM, now=160.0, type="timeout")
    assert (state.phase, state.ended_by) == ("review", "time")
    assert GAME.deadline(state) is None
    refused("wrong_phase", started(3), SYSTEM, now=1e9, type="timeout")
    refused("host_only", deal(new(3, time_limit=60)), 0, now=1e9, type="timeout")


def test_host_can_end_a_round_that_someone_blocks() -> None:
    state = act(started(3), SYSTEM, type="advance")
    assert (state.phase, state.ended_by) == ("review", "host")


# --- review, void drawings, scores, totals ----------------------------------


def test_review_reveals_and_scores_the_round() -> None:
    state = started(4)
    state = guess_right(state, 1, 0)
    state = act(state, 2, type="guess", target=0, number=a_wrong_number(state, 2, 0))
    state = guess_right(state, 3, 0)
    state = act(state, 0, type="black", value=3)
    state = finish_all(state)
    result = seen(GAME, state, None)["round_result"]
    drawing = result["drawings"][0]
    assert drawing["number"] == number_of(state, 0)
    assert [g["correct"] for g in drawing["guesses"]] == [True, False, True]
    players = result["players"]
    assert players[1]["tokens_received"] == [{"from": 0, "value": 3}]
    assert players[3]["tokens_received"] == [{"from": 0, "value": 2}]
    assert players[0]["score"] == -1 + 3 and result["black_sheep"] == 2
    assert result["final"] is False


def test_drawer_admits_void_and_majority_votes_void() -> None:
    state = started(4)
    state = guess_right(state, 1, 0)
    state = guess_right(state, 0, 1)
    state = act(state, 0, type="black")
    state = finish_all(state)
    admitted = act(state, 0, type="void", target=0)
    result = seen(GAME, admitted, 2)["round_result"]
    assert result["drawings"][0]["void"] is True
    assert result["players"][1]["tokens_received"] == []
    assert result["players"][0]["black_token_counted"] == "0"
    assert result["players"][0]["tokens_received"] == [{"from": 1, "value": 3}]
    # Two of the three others are a majority; one is not.
    one = act(state, 2, type="void", target=1)
    assert seen(GAME, one, 2)["round_result"]["drawings"][1]["void"] is False
    two = act(one, 3, type="void", target=1)
    assert seen(GAME, two, 2)["round_result"]["drawings"][1]["void"] is True
    back = act(two, 3, type="void", target=1, void=False)
    assert seen(GAME, back, 2)["round_result"]["drawings"][1]["void"] is False


def test_a_changed_verdict_needs_everyone_to_confirm_again() -> None:
    state = finish_all(started(3))
    state = act(act(state, 0, type="confirm"), 1, type="confirm")
    state = act(state, 2, type="void", target=2)
    assert not any(s.confirmed for s in state.seats)
    for seat in range(3):
        state = act(state, seat, type="confirm")
    assert state.phase == "display" and state.round == 2
    result: Any = state.history[0]
    assert result["drawings"][2]["void"] is True and result["final"]


def test_totals_and_winners_over_the_game_with_shared_victory() -> None:
    state = new(3, rounds=2)
    for n in range(2):
        state = finish_all(deal(state))  # nobody guesses: every player scores -5
        # the reveal says each running total with this round: the client adds nothing
        shown = seen(GAME, state, 0)["round_result"]["players"]
        assert [p["total"] for p in shown] == [-5 * (n + 1)] * 3
        state = act(state, SYSTEM, type="advance")
    assert state.phase == "over" and GAME.is_over(state)
    assert [[p["total"] for p in r["players"]] for r in seen(GAME, state, 0)["history"]] == [
        [-5] * 3, [-10] * 3]
    view = seen(GAME, state, None)
    assert view["totals"] == [-10, -10, -10]
    assert view["winners"] == [0, 1, 2]
    assert [r["round"] for r in view["history"]] == [1, 2]
    refused("game_over", state, 0, type="ready")
    refused("game_over", state, SYSTEM, type="advance")


def test_a_single_winner() -> None:
    state = started(3, rounds=1)
    state = guess_right(guess_right(state, 0, 1), 0, 2)  # 0 scores 6 - 5; the others -2
    state = act(state, SYSTEM, type="advance")
    state = act(state, SYSTEM, type="advance")
    assert seen(GAME, state, 1)["totals"] == [1, -2, -2]
    assert seen(GAME, state, 1)["winners"] == [0]


def test_learning_round_is_round_one_only() -> None:
    state = started(3, learning_round=True)
    state = act(state, 0, type="guess", target=1, number=a_wrong_number(state, 0, 1))
    state = act(state, 0, type="black")
    state = finish_all(state)
    result = seen(GAME, state, 0)["round_result"]
    assert result["learning_round"] and result["black_sheep"] is None
    assert result["players"][0]["black_token_counted"] == "+"
    state = finish_all(deal(act(state, SYSTEM, type="advance")))
    assert seen(GAME, state, 0)["round_result"]["learning_round"] is False


def test_apply_never_changes_its_input() -> None:
    state = new(4)
    before = GAME.dump(state)
    act(state, 0, type="ready")
    act(state, 0, type="replace", card="A")
    assert GAME.dump(state) == before


def test_dump_and_load_round_trip_through_json() -> None:
    import json

    state = guess_right(started(5, time_limit=30), 1, 0)
    data = json.loads(json.dumps(GAME.dump(state)))
    again = GAME.load(data)
    assert GAME.dump(again) == GAME.dump(state)
    # The generator state travels too: the next deal is the same.
    a = act(act(finish_all(state), SYSTEM, type="advance"), SYSTEM, type="advance")
    b = act(act(finish_all(again), SYSTEM, type="advance"), SYSTEM, type="advance")
    assert GAME.dump(a) == GAME.dump(b)


def test_names_are_kept() -> None:
    assert [p["name"] for p in seen(GAME, new(3), None)["players"]] == NAMES[:3]


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ([{"id": "x", "level": 1, "words": ["a"] * 6}], "deck_card_size"),
        (sample_cards(1) + sample_cards(1), "deck_id_duplicate"),
    ],
)
def test_a_broken_custom_deck_is_refused_with_the_problem_named(
    cards: list[dict[str, Any]], code: str
) -> None:
    with pytest.raises(RuleError) as refused_:
        GAME.validate_settings({"custom_cards": cards, "custom_mode": "alongside"}, 3)
    assert refused_.value.code == code
    assert refused_.value.message("de") != refused_.value.message("en")


def test_a_room_without_custom_cards_is_valid() -> None:
    assert GAME.validate_settings({}, 3)["custom_cards"] == []


# --- issue 10: void black sheep, the 1st edition's bonus token, drawing nothing ------


def guess_wrong_everywhere(state: State, seat: int) -> State:
    for target in range(state.players):
        if target != seat:
            number = a_wrong_number(state, seat, target)
            state = act(state, seat, type="guess", target=target, number=number)
    return state


@pytest.mark.parametrize(("edition", "counted", "score"), [("second", "0", -6), ("first", "-", -9)])
def test_void_black_sheep_in_the_reveal(edition: str, counted: str, score: int) -> None:
    # Finished players may not guess: three wrong guesses first, then the token.
    state = started(4, edition=edition)
    state = guess_wrong_everywhere(state, 0)
    state = act(state, 0, type="black")
    state = finish_all(state)
    state = act(state, 0, type="void", target=0)
    result = seen(GAME, state, 1)["round_result"]
    assert result["black_sheep"] == 0
    assert result["players"][0]["black_token"] == 3
    assert result["players"][0]["black_token_counted"] == counted
    assert result["players"][0]["score"] == score


def test_first_edition_bonus_token_is_always_the_highest_left() -> None:
    state = started(4, edition="first")
    assert state.black_left == [3, 2, 1]
    refused("black_token_not_highest", state, 0, type="black", value=2)
    with pytest.raises(RuleError) as caught:
        act(state, 0, type="black", value=1)
    err = caught.value
    assert err.params == {"value": 1, "highest": 3}
    assert "most stars" in err.message("en") and "meisten Sternen" in err.message("de")
    state = act(state, 0, type="black", value=3)
    state = act(state, 1, type="black")
    assert (state.seats[0].black, state.seats[1].black) == (3, 2)
    # The 2nd edition keeps its free choice.
    second = act(started(4), 0, type="black", value=1)
    assert second.seats[0].black == 1


def test_first_edition_empty_canvas_takes_no_token_but_guesses_and_is_void() -> None:
    state = deal(new(4, edition="first"), drawn=False)
    state = draw_on(state, 1, 2, 3)
    refused("black_token_nothing_drawn", state, 0, type="black")
    assert seen(GAME, state, 0)["me"]["may_take_token"] is False
    assert seen(GAME, state, 1)["me"]["may_take_token"] is True
    # Guessing and declaring done stay open.
    state = guess_right(state, 0, 1)
    state = act(state, 2, type="guess", target=0, number=number_of(state, 0))
    state = act(state, 0, type="done")
    state = act(act(act(state, 1, type="black"), 2, type="black"), 3, type="black")
    assert state.phase == "review"
    result = seen(GAME, state, 1)["round_result"]
    drawing = result["drawings"][0]
    assert (drawing["void"], drawing["blank"], drawing["void_votes"]) == (True, True, [])
    assert drawing["guesses"][0]["correct"] is None  # handed back, gives no token
    assert result["players"][2]["tokens_received"] == []
    assert result["players"][0]["tokens_received"] == [{"from": 1, "value": 3}]
    assert [d["blank"] for d in result["drawings"][1:]] == [False, False, False]


def test_first_edition_canvas_wiped_clean_counts_as_nothing_drawn() -> None:
    state = started(3, edition="first")
    state = draw_on(state, 0, blank=True)  # cleared or undone back to empty
    refused("black_token_nothing_drawn", state, 0, type="black")
    state = draw_on(state, 0)
    state = act(state, 0, type="black")
    assert state.seats[0].black == 3


def test_canvas_reports_only_in_the_first_edition_and_only_changes() -> None:
    second = deal(new(3), drawn=False)
    assert GAME.canvas_action(second, 0, False) is None
    assert act(second, 0, type="black").seats[0].black == 3  # no such rule there
    assert second.seats[0].drawn is False
    first = deal(new(3, edition="first"), drawn=False)
    assert GAME.canvas_action(first, 0, True) is None  # known to be blank already
    assert GAME.canvas_action(first, 0, False) == Canvas(seat=0, drawn=True)
    cases: list[tuple[int, dict[str, Any], str]] = [
        (0, {"seat": 0, "drawn": True}, "bad_action"),  # only the server reports ink
        (SYSTEM, {"seat": 9, "drawn": True}, "bad_target"),
        (SYSTEM, {"seat": 0, "drawn": "yes"}, "action_invalid"),
    ]
    for who, action, code in cases:
        with pytest.raises(RuleError) as err:
            apply_json(GAME, first, who, {"type": "canvas", **action}, 0.0)
        assert err.value.code == code


def test_cards_reach_players_without_their_theme() -> None:
    """docs/decks.md: themes are an editors' aid, never shown in a game."""
    state = GAME.new({"language": "en"}, NAMES[:3], 1)
    cards = seen(GAME, state, 0)["cards"]
    assert all(set(card) == {"label", "id", "level", "words"} for card in cards)
