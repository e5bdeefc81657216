"""Piet as the server hosts it, and its computer players."""

import json
from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.piet import GAME, choose_move
from atelier.games.piet.ai import choose_move as ai_move
from atelier.games.piet.rules import legal_moves, new_game
from atelier.tools.piet_arena import play_game
from support.actions import apply_json


def test_settings_are_validated_and_completed() -> None:
    assert GAME.validate_settings({}, 2) == {"setup": "beginner", "brushes": False,
                                            "opponent": None, "computer_seat": 1,
                                            "record": None, "hints": False,
                                            "move_days": None}
    full = GAME.validate_settings({"setup": "empty", "brushes": True, "opponent": "hard"}, 2)
    assert full["setup"] == "empty" and full["opponent"] == "hard"
    for bad in ({"setup": "odd"}, {"brushes": "yes"}, {"opponent": "genius"},
                {"computer_seat": 2}):
        with pytest.raises(RuleError) as err:
            GAME.validate_settings(bad, 2)
        assert err.value.code == "bad_settings"
    with pytest.raises(RuleError) as err:
        GAME.validate_settings({}, 3)
    assert err.value.code == "seat_count_exact"


def test_turns_are_enforced_and_the_view_is_public() -> None:
    state = GAME.new({}, ["Ann", "Bob"], 7)
    with pytest.raises(RuleError) as err:
        apply_json(GAME, state, 1, {"type": "move", "move": "a1>a1"}, 0.0)
    assert err.value.code == "not_your_turn"
    with pytest.raises(RuleError) as err:
        apply_json(GAME, state, 0, {"type": "move", "move": "a1>z9"}, 0.0)
    assert err.value.code == "piet.bad_notation"
    state = apply_json(GAME, state, 0, {"type": "move", "move": "b1a1>b2"}, 0.0)
    view: Any = GAME.view(state, 1)
    assert view == GAME.view(state, None) | {"you": 1}
    assert view["canvases"][0][4:6] == ["R", "Y"]
    assert view["palette"][:3] == [None, None, "B"]
    assert view["moves"] == [{"seat": 0, "move": "a1b1>a2", "points": 2}]
    assert view["to_move"] == 1 and view["phase"] == "painting" and view["result"] is None
    assert view["legal_moves"] == sorted(view["legal_moves"]) and "c1>a1" in view["legal_moves"]
    json.dumps(view)


def test_dump_and_load_replay_the_same_game() -> None:
    state = GAME.new({"setup": "empty", "brushes": True}, ["Ann", "Bob"], 3)
    for _ in range(14):
        action = choose_move(state, "easy", 1)
        state = apply_json(GAME, state, state.board.to_move, action, 0.0)
    data = json.loads(json.dumps(GAME.dump(state)))
    again = GAME.load(data)
    assert again.board == state.board and GAME.view(again, 0) == GAME.view(state, 0)
    assert GAME.deadline(state) is None and not GAME.is_over(state)


def test_the_computer_takes_its_seat_and_plays_only_on_its_turn() -> None:
    settings = GAME.validate_settings({"opponent": "medium", "computer_seat": 0}, 2)
    assert GAME.computer_seats(settings) == {0: "medium"}
    assert GAME.computer_seats(GAME.default_settings()) == {}
    state = GAME.new(settings, ["", "Ann"], 11)
    assert GAME.bot_action(state, 1) is None
    action = GAME.bot_action(state, 0)
    assert action == GAME.bot_action(state, 0)  # deterministic
    assert action is not None
    state = apply_json(GAME, state, 0, action, 0.0)
    assert GAME.bot_action(state, 0) is None


def test_a_game_against_the_computer_runs_to_its_end() -> None:
    settings = GAME.validate_settings({"opponent": "easy", "brushes": True}, 2)
    state = GAME.new(settings, ["Ann", ""], 5)
    while not GAME.is_over(state):
        seat = state.board.to_move
        action = GAME.bot_action(state, seat) or choose_move(state, "easy", len(state.moves))
        state = apply_json(GAME, state, seat, action, 0.0)
    result: Any = GAME.view(state, None)["result"]
    assert result["finisher"] in (0, 1) and GAME.view(state, 0)["legal_moves"] == []


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "medium", "hard", "rollout"])
def test_every_level_answers_a_legal_move_deterministically(level: str) -> None:
    state = new_game()
    move = ai_move(state, level, 42, budget=200 if level == "medium" else 12)
    assert move in legal_moves(state)
    assert move == ai_move(state, level, 42, budget=200 if level == "medium" else 12)


def test_hard_beats_greedy_from_both_seats() -> None:
    # A small budget keeps this quick; the arena measures the real strength.
    results = [play_game("hard", "greedy", i % 2 == 0, 100 + i, budget=16) for i in range(4)]
    assert sum(r.outcome > 0 for r in results) >= 3



def test_piet_strings_exist_in_all_three_languages() -> None:
    from pathlib import Path

    import atelier.games.piet.rules as rules

    path = Path(rules.__file__).parent / "strings" / "piet.json"
    strings = json.loads(path.read_text(encoding="utf-8"))
    assert set(strings) == {"en", "de", "uk"}
    assert set(strings["en"]) == set(strings["de"]) == set(strings["uk"])
    error = RuleError("piet.canvas_cell_taken", cell="b2")
    assert len(set(error.messages().values())) == 3
    assert all("b2" in text for text in error.messages().values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_move_list_says_who_moved_with_brushes_too(seed: int) -> None:
    # a brush gives two turns running: the list is told by whoever was to move
    import random

    from atelier.games.piet.notation import format_move

    rng = random.Random(seed)
    state = GAME.new({"setup": "beginner", "brushes": True}, ["ann", "bob"], seed)
    expected: list[int] = []
    while not GAME.is_over(state) and len(expected) < 40:
        mover = state.board.to_move
        move = rng.choice(sorted(legal_moves(state.board), key=format_move))
        expected.append(mover)
        state = apply_json(GAME, state, mover, {"type": "move", "move": format_move(move)}, 0.0)
    moves: Any = GAME.view(state, None)["moves"]
    assert [m["seat"] for m in moves] == expected
    again = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert GAME.view(again, 0)["moves"] == GAME.view(state, 0)["moves"]


def test_legal_actions_are_the_movers_moves_and_each_is_accepted() -> None:
    state = GAME.new({"brushes": True}, ["Ann", "Bob"], 3)
    for turn in range(12):
        mover = state.board.to_move
        assert GAME.legal_actions(state, 1 - mover) == []
        actions = GAME.legal_actions(state, mover)
        assert len(actions) == len(legal_moves(state.board)) > 0
        for action in actions:
            apply_json(GAME, state, mover, action, 0.0)  # none is refused
        state = apply_json(GAME, state, mover, actions[turn * 7 % len(actions)], 0.0)
