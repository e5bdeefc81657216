"""A Piet room started from a record: the ``record`` setting."""

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atelier.errors import RuleError
from atelier.games.piet import GAME, PietState
from atelier.games.piet.ai import choose_move
from atelier.games.piet.game import MAX_RECORD_CHARS
from atelier.games.piet.notation import format_move
from atelier.games.piet.rules import new_game
from support.actions import apply_json

OPENING = "# a friendly game\nsetup: empty\nbrushes: on\n\nR@a1\nY@b1\n"


def played(setup: str, brushes: bool, plies: int, seed: int) -> tuple[PietState, str]:
    """A game of ``plies`` moves by the easy computer, and its record."""
    state = GAME.new({"setup": setup, "brushes": brushes}, ["Ann", "Bob"], seed)
    for ply in range(plies):
        if GAME.is_over(state):
            break
        action = GAME.choose_move(state, "easy", seed * 100 + ply)
        state = apply_json(GAME, state, state.board.to_move, action, 0.0)
    return state, str(GAME.view(state, None)["record"])


def test_headers_set_the_setup_and_the_record_is_kept_canonically() -> None:
    full = GAME.validate_settings({"record": OPENING, "setup": "beginner"}, 2)
    assert full["setup"] == "empty" and full["brushes"] is True
    assert full["record"] == "setup: empty\nbrushes: on\nR@a1\nY@b1\n"
    assert GAME.validate_settings(full, 2) == full
    assert GAME.validate_settings({"record": "b1a1>d3\n"}, 2)["record"] == (
        "setup: beginner\nbrushes: off\na1b1>c3\n")


def test_an_empty_record_removes_it_and_no_record_is_the_default() -> None:
    assert GAME.default_settings()["record"] is None
    full = GAME.validate_settings({"record": OPENING}, 2)
    cleared = GAME.validate_settings({**full, "record": "  \n"}, 2)
    assert cleared["record"] is None and cleared["setup"] == "empty"
    state = GAME.new(cleared, ["Ann", "Bob"], 1)
    assert state.moves == () and state.board == new_game("empty", True)


def test_the_room_starts_after_the_records_moves() -> None:
    state = GAME.new({"record": OPENING, "opponent": "hard"}, ["Ann", ""], 9)
    view: Any = GAME.view(state, 0)
    assert [m["move"] for m in view["moves"]] == ["R@a1", "Y@b1"]
    assert [m["seat"] for m in view["moves"]] == [0, 1]
    assert view["loaded_moves"] == 2
    assert view["palette"][:2] == ["R", "Y"] and view["to_move"] == 0
    assert view["record"] == "setup: empty\nbrushes: on\nR@a1\nY@b1\n"
    # Play goes on: the human fills, the computer answers, all in the record.
    state = apply_json(GAME, state, 0, {"type": "move", "move": "B@c1"}, 0.0)
    action = GAME.bot_action(state, 1)
    assert action is not None
    state = apply_json(GAME, state, 1, action, 0.0)
    text = str(GAME.view(state, None)["record"])
    assert text.splitlines()[2:5] == ["R@a1", "Y@b1", "B@c1"]
    again = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert again.board == state.board and GAME.view(again, 1) == GAME.view(state, 1)


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("a1>a1\nb1>a1\nc3>a1\n", 3, "piet.canvas_cell_taken"),
        ("# header first\nsetup: beginner\na1>a1\nbrushes: on\n", 4, "piet.header_after_moves"),
        ("setup: huge\n", 1, "piet.bad_header"),
        ("a1>a1\n\n\na1 to b2\n", 4, "piet.bad_notation"),
        ("setup: empty\na1>a1\n", 2, "piet.not_painting"),
    ],
)
def test_a_bad_record_is_refused_with_its_line_and_reason(
    text: str, line: int, reason: str
) -> None:
    with pytest.raises(RuleError) as err:
        GAME.validate_settings({"record": text}, 2)
    assert err.value.code == "piet.bad_record"
    assert err.value.params["line"] == line and err.value.params["reason_code"] == reason
    messages = err.value.messages()
    inner = RuleError(reason, **err.value.params["reason_params"]).messages()
    for lang, prefix in (("en", "Line"), ("de", "Zeile"), ("uk", "Рядок")):
        assert messages[lang].startswith(f"{prefix} {line} ")
        assert messages[lang].endswith(inner[lang])
    json.dumps(err.value.to_json())


def test_records_that_cannot_start_a_game_are_refused() -> None:
    finished, text = played("beginner", False, 400, 3)
    assert GAME.is_over(finished)
    for bad, code in ((text, "piet.record_finished"),
                      ("#" * (MAX_RECORD_CHARS + 1), "piet.record_too_long"),
                      (["a1>a1"], "bad_settings")):
        with pytest.raises(RuleError) as err:
            GAME.validate_settings({"record": bad}, 2)
        assert err.value.code == code
        assert len(set(err.value.messages().values())) == 3


@settings(max_examples=25, deadline=None)
@given(setup=st.sampled_from(["beginner", "empty"]), brushes=st.booleans(),
       plies=st.integers(0, 60), seed=st.integers(0, 10_000))
def test_a_room_from_a_record_equals_the_game_it_records(
    setup: str, brushes: bool, plies: int, seed: int
) -> None:
    original, text = played(setup, brushes, plies, seed)
    if GAME.is_over(original):
        return
    loaded = GAME.new({"record": text}, ["Ann", "Bob"], seed)
    assert loaded.board == original.board
    assert GAME.view(loaded, 0) == GAME.view(original, 0) | {
        "settings": GAME.view(loaded, 0)["settings"], "loaded_moves": len(original.moves)}
    # Both go on alike.
    action = {"type": "move", "move": format_move(choose_move(loaded.board, "greedy", seed))}
    seat = loaded.board.to_move
    assert apply_json(GAME, loaded, seat, action, 0.0).board == apply_json(GAME,
        original, seat, action, 0.0).board
