"""Piet ended early (docs/piet.md, "Correspondence play"): resigning, and losing
on time when a correspondence game's time per move runs out."""

from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.core import SYSTEM
from atelier.games.piet import GAME
from atelier.games.piet.ending import DAY_SECONDS
from support.actions import apply_json

DAY = DAY_SECONDS


def test_time_per_move_is_a_setting_of_1_3_or_7_days() -> None:
    assert GAME.validate_settings({"move_days": 3}, 2)["move_days"] == 3
    for bad in (2, 0, "3", True):
        with pytest.raises(RuleError) as err:
            GAME.validate_settings({"move_days": bad}, 2)
        assert err.value.code == "bad_settings"


def test_a_live_game_has_no_deadline_and_refuses_a_timeout() -> None:
    state = GAME.start_clock(GAME.new({}, ["Ann", "Bob"], 1), 100.0)
    assert GAME.deadline(state) is None
    with pytest.raises(RuleError) as err:
        apply_json(GAME, state, SYSTEM, {"type": "timeout"}, 10 * DAY)
    assert err.value.code == "timeout_early"


def test_each_move_gets_the_whole_time_afresh() -> None:
    state = GAME.start_clock(GAME.new({"move_days": 1}, ["Ann", "Bob"], 1), 1000.0)
    assert GAME.deadline(state) == 1000.0 + DAY
    # player 1 takes almost all their day: player 2 still gets a whole day
    state = apply_json(GAME, state, 0, GAME.legal_actions(state, 0)[0], 1000.0 + DAY - 1)
    assert GAME.deadline(state) == 1000.0 + 2 * DAY - 1
    with pytest.raises(RuleError) as err:
        apply_json(GAME, state, SYSTEM, {"type": "timeout"}, 1000.0 + 2 * DAY - 2)
    assert err.value.code == "timeout_early"
    assert not GAME.is_over(state)


def test_running_out_of_time_loses_whatever_the_scores() -> None:
    state = GAME.start_clock(GAME.new({"move_days": 3}, ["Ann", "Bob"], 1), 0.5)
    state = apply_json(GAME, state, 0, {"type": "move", "move": "a1b1c1>a1"}, 10.0)  # Ann scores
    assert state.board.scores[0] > 0 and state.board.to_move == 1
    with pytest.raises(RuleError) as err:  # only the server's clock times a game out
        apply_json(GAME, state, 0, {"type": "timeout"}, 10.0 + 3 * DAY)
    assert err.value.code == "bad_action"
    over = apply_json(GAME, state, SYSTEM, {"type": "timeout"}, 10.0 + 3 * DAY)
    assert GAME.is_over(over) and GAME.final_winners(over) == [0]
    view: Any = GAME.view(over, 1)
    assert view["result"] == {"winner": 0, "draw": False, "finisher": None, "by": "time"}
    assert view["scores"] == list(state.board.scores)  # as they stood
    assert view["phase"] == "over" and view["to_move"] is None
    assert view["clock"] is None and view["legal_moves"] == []
    assert "player 2 ran out of time" in view["record"]
    assert GAME.deadline(over) is None
    with pytest.raises(RuleError) as err:
        apply_json(GAME, over, 1, {"type": "move", "move": "a1>a1"}, 11.0)
    assert err.value.code == "game_over"


@pytest.mark.parametrize("resigner", [0, 1])
def test_either_player_may_resign_at_any_time_and_the_other_wins(resigner: int) -> None:
    state = GAME.new({}, ["Ann", "Bob"], 4)  # a live game: resigning is for every game
    state = apply_json(GAME, state, 0, {"type": "move", "move": "a1b1c1>a1"}, 1.0)
    assert state.board.scores[0] > state.board.scores[1]
    over = apply_json(GAME, state, resigner, {"type": "resign"}, 2.0)  # on their turn or not
    assert GAME.is_over(over) and GAME.final_winners(over) == [1 - resigner]
    view: Any = GAME.view(over, None)
    assert view["result"]["winner"] == 1 - resigner and view["result"]["by"] == "resignation"
    assert view["phase"] == "over"
    assert f"player {resigner + 1} resigned" in view["record"]
    for seat in (0, 1, SYSTEM):
        with pytest.raises(RuleError):
            apply_json(GAME, over, seat, {"type": "resign"}, 3.0)
    with pytest.raises(RuleError) as err:  # a spectator cannot resign for anyone
        apply_json(GAME, state, 5, {"type": "resign"}, 3.0)
    assert err.value.code == "not_a_player"


def test_the_clock_and_the_ending_survive_dump_and_load() -> None:
    state = GAME.start_clock(GAME.new({"move_days": 7}, ["Ann", "Bob"], 3), 50.0)
    state = apply_json(GAME, state, 0, {"type": "move", "move": "a1>a1"}, 60.0)
    again = GAME.load(GAME.dump(state))
    assert GAME.deadline(again) == 60.0 + 7 * DAY
    over = apply_json(GAME, state, 1, {"type": "resign"}, 70.0)
    loaded = GAME.load(GAME.dump(over))
    assert GAME.is_over(loaded) and GAME.final_winners(loaded) == [0]
    # a state dumped before this release (no clock, no ending) loads as a live game
    old = {k: v for k, v in GAME.dump(state).items() if k not in ("turn_started", "ended")}
    assert GAME.deadline(GAME.load(old)) is None
