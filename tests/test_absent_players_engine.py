"""Absent and removed players in the engines: the host's SYSTEM actions "skip"
(go on without the absent) and "remove" (a seat plays no further part), one test
per rule, for Pictomania and Incognito."""

from __future__ import annotations

from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.core import SYSTEM
from atelier.games.incognito import GAME as INCOGNITO
from atelier.games.incognito import State as IgState
from atelier.games.pictomania import GAME as PICTOMANIA
from support.actions import apply_json
from support.pictomania import act, deal, new, number_of, refused, started
from support.views import seen

# --- Pictomania: going on without absent players ---------------------------------


def test_pm_skip_ends_the_round_when_only_absent_players_draw() -> None:
    state = started(4)
    for seat in (0, 1):
        state = act(state, seat, type="black")
    # Seat 2 is here and still drawing: going on is refused, naming them.
    refused("still_waiting", state, SYSTEM, type="skip", seats=[3])
    state = act(state, 2, type="done")
    before = [s.stack for s in state.seats]
    state = act(state, SYSTEM, type="skip", seats=[3])
    assert state.phase == "review" and state.ended_by == "finished"
    # The absent player's drawing stays as it is and they took no black token.
    assert state.seats[3].black is None and [s.stack for s in state.seats] == before
    assert seen(PICTOMANIA, state, 0)["round_result"]["players"][3]["black_token"] is None


def test_pm_skip_deals_when_only_absent_players_are_not_ready() -> None:
    state = new(3)
    state = act(state, 0, type="ready")
    refused("still_waiting", state, SYSTEM, type="skip", seats=[2])
    state = act(state, 1, type="ready")
    state = act(state, SYSTEM, type="skip", seats=[2])
    assert state.phase == "drawing"


def test_pm_skip_confirms_the_scores_for_absent_players() -> None:
    state = started(3)
    state = act(state, SYSTEM, type="advance")  # the host stops the round
    state = act(state, 0, type="confirm")
    state = act(state, 1, type="confirm")
    assert state.phase == "review"
    state = act(state, SYSTEM, type="skip", seats=[2])
    assert state.phase == "display" and state.round == 2


def test_pm_skip_is_for_the_host_only_and_well_formed() -> None:
    state = started(3)
    refused("bad_action", state, 0, type="skip", seats=[1])
    for bad in ([], [5], [1, 1]):
        refused("bad_action", state, SYSTEM, type="skip", seats=bad)
    for mistyped in ("1", [True]):  # never reach the rules: the schema refuses them
        refused("action_invalid", state, SYSTEM, type="skip", seats=mistyped)


# --- Pictomania: removing a player ---------------------------------------------------


def test_pm_a_removed_player_keeps_their_drawing_and_guesses_in_the_round() -> None:
    state = started(4)
    state = act(state, 3, type="guess", target=0, number=number_of(state, 0))
    state = act(state, 1, type="guess", target=3, number=number_of(state, 3))
    state = act(state, SYSTEM, type="remove", seat=3)
    assert state.removed == [False, False, False, True]
    assert state.seats[3].finished and not PICTOMANIA.may_draw(state, 3)
    # Others may still guess on the drawing that stays.
    state = act(state, 2, type="guess", target=3, number=number_of(state, 3))
    refused("player_removed", state, 3, type="guess", target=1, number=1)
    for seat in (0, 1, 2):
        state = act(state, seat, type="done")
    assert state.phase == "review"
    result = seen(PICTOMANIA, state, None)["round_result"]
    # Their right guess on seat 0 scored; their drawing was found by 1 and 2.
    assert result["players"][3]["tokens_received"][0]["from"] == 0
    assert [g["by"] for g in result["drawings"][3]["guesses"]] == [1, 2]


def test_pm_a_removed_player_is_out_of_later_rounds() -> None:
    state = started(4)
    state = act(state, SYSTEM, type="remove", seat=2)
    state = act(state, SYSTEM, type="advance")  # stop the round
    assert state.seats[2].confirmed  # nothing to confirm for them
    for seat in (0, 1, 3):
        state = act(state, seat, type="confirm")
    assert state.phase == "display" and state.ready == [False, False, True, False]
    for seat in (0, 1, 3):
        state = act(state, seat, type="ready")
    assert state.phase == "drawing"
    assert state.seats[2].out and state.seats[2].finished
    refused("player_removed", state, 0, type="guess", target=2, number=1)
    refused("player_removed", state, 2, type="done")
    view = seen(PICTOMANIA, state, 0)
    assert view["players"][2]["removed"] and view["players"][2]["out"]
    for seat in (0, 1, 3):
        state = act(state, seat, type="done")
    assert state.phase == "review"


def test_pm_removing_ends_a_phase_it_was_waiting_on() -> None:
    state = started(4)
    for seat in (0, 1, 2):
        state = act(state, seat, type="done")
    state = act(state, SYSTEM, type="remove", seat=3)
    assert state.phase == "review"


def test_pm_removal_refusals() -> None:
    state = started(3)
    refused("bad_action", state, 1, type="remove", seat=2)
    refused("bad_target", state, SYSTEM, type="remove", seat=7)
    state = act(state, SYSTEM, type="remove", seat=2)
    refused("player_removed", state, SYSTEM, type="remove", seat=2)
    refused("too_few_left", state, SYSTEM, type="remove", seat=1)


def test_pm_removal_survives_dump_and_load() -> None:
    state = act(deal(new(4)), SYSTEM, type="remove", seat=1)
    again = PICTOMANIA.load(PICTOMANIA.dump(state))
    assert again.removed == state.removed and PICTOMANIA.dump(again) == PICTOMANIA.dump(state)


# --- Incognito -------------------------------------------------------------------------

WORDS = [f"word{i:03d}" for i in range(40)]
LOCATIONS = [f"place{i:03d}" for i in range(40)]


def ig_start(players: int = 4, **settings: Any) -> IgState:
    values = {"custom_words": WORDS, "custom_locations": LOCATIONS, **settings}
    return INCOGNITO.new(values, [f"p{i}" for i in range(players)], 7)


def ig(state: IgState, who: int, kind: str, now: float = 1.0, /, **fields: Any) -> IgState:
    return apply_json(INCOGNITO, state, who, {"type": kind, **fields}, now)


def ig_refused(code: str, state: IgState, who: int, kind: str, /, **fields: Any) -> None:
    before = INCOGNITO.dump(state)
    with pytest.raises(RuleError) as err:
        ig(state, who, kind, **fields)
    assert err.value.code == code
    assert INCOGNITO.dump(state) == before


def test_ig_skip_starts_the_vote_without_waiting_for_the_countdown() -> None:
    state = ig_start(4)
    state = ig(state, 0, "done_drawing")
    ig_refused("still_waiting", state, SYSTEM, "skip", seats=[3])
    state = ig(state, 1, "done_drawing")
    state = ig(state, 2, "done_drawing")
    state = ig(state, SYSTEM, "skip", seats=[3])
    assert state.phase == "voting"


def test_ig_skip_ends_the_vote_placing_the_absent_players_cards_at_random() -> None:
    state = ig_start(3, rounds=2)
    for seat in range(3):
        state = ig(state, seat, "done_drawing")
    for seat in (0, 1):
        state = ig(state, seat, "done_voting")
    state = ig(state, SYSTEM, "skip", seats=[2])
    assert state.phase == "scored"
    assert sorted(state.random_votes[2]) == [0, 1]  # the rule for unplaced cards
    state = ig(state, 0, "confirm")
    state = ig(state, 1, "confirm")
    state = ig(state, SYSTEM, "skip", seats=[2])
    assert state.phase == "drawing" and state.round == 2


def test_ig_a_removed_player_neither_draws_nor_votes_from_then_on() -> None:
    state = ig_start(4, rounds=2)
    state = ig(state, 3, "done_drawing")
    state = ig(state, SYSTEM, "remove", 2.0, seat=3)
    view: Any = seen(INCOGNITO, state, None)
    assert view["players"][3]["removed"]
    ig_refused("player_removed", state, 3, "confirm")
    # three of four are done: the rules' countdown would run; removal leaves two
    for seat in (0, 1):
        state = ig(state, seat, "done_drawing")
    state = ig(state, 2, "done_drawing")
    assert state.phase == "voting" and state.done_voting[3]
    for seat in (0, 1, 2):
        state = ig(state, seat, "done_voting")
    assert state.phase == "scored" and state.confirmed[3]
    # The removed drawing was scored with the rest.
    drawings: Any = state.results[0]["drawings"]
    assert len(drawings) == 4
    for seat in (0, 1, 2):
        state = ig(state, seat, "confirm")
    assert state.phase == "drawing" and state.done_drawing == [False, False, False, True]
    assert not INCOGNITO.may_draw(state, 3)


def test_ig_removing_the_last_drawer_starts_the_countdown_or_the_vote() -> None:
    state = ig_start(4, countdown=5)
    state = ig(state, 0, "done_drawing", 1.0)
    state = ig(state, 1, "done_drawing", 2.0)
    state = ig(state, SYSTEM, "remove", 3.0, seat=3)
    assert state.countdown_end == 8.0  # all but one are done now
    state = ig(state, SYSTEM, "remove", 4.0, seat=2)
    assert state.phase == "voting"


def test_ig_removal_refusals() -> None:
    state = ig_start(3)
    ig_refused("incognito.system_only", state, 0, "remove", seat=1)
    ig_refused("bad_target", state, SYSTEM, "remove", seat=9)  # as in Pictomania
    ig_refused("bad_action", state, SYSTEM, "skip", seats=[])
    state = ig(state, SYSTEM, "remove", seat=2)
    ig_refused("player_removed", state, SYSTEM, "remove", seat=2)
    ig_refused("too_few_left", state, SYSTEM, "remove", seat=1)
    assert INCOGNITO.load(INCOGNITO.dump(state)).removed == [False, False, True]
