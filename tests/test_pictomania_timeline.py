"""Pictomania's part of the guess timeline: which drawing a guess marks, and
the verdicts only once the round is revealed (and still after it)."""

from __future__ import annotations

from atelier.games.pictomania import GAME
from atelier.games.pictomania.actions import Done, Guess
from support.actions import apply_json

NAMES = ["A", "B", "C"]


def test_guesses_are_secret_while_drawing_and_kept_after_the_round() -> None:
    state = GAME.new({"rounds": 2, "levels": [1, 1]}, NAMES, seed=7)
    for seat in range(3):
        state = apply_json(GAME, state, seat, {"type": "ready"}, 1.0)
    assert state.phase == "drawing"
    target_number = state.seats[1].number
    guess = Guess(target=1, number=target_number)
    assert GAME.marked_drawing(guess) == 1
    assert GAME.marked_drawing(Done()) is None
    state = apply_json(GAME, state, 0, guess, 2.0)
    assert GAME.revealed_guesses(state, "round-1", 1) is None  # not before the reveal
    for seat in range(3):
        if not state.seats[seat].finished:
            state = apply_json(GAME, state, seat, {"type": "done"}, 3.0)
    assert state.phase == "review"
    shown = GAME.revealed_guesses(state, "round-1", 1)
    assert shown == [{"by": 0, "number": target_number, "correct": True}]
    assert GAME.revealed_guesses(state, "round-1", 0) == []
    assert GAME.revealed_guesses(state, "round-2", 1) is None
    assert GAME.revealed_guesses(state, "bogus", 1) is None
    for seat in range(3):
        state = apply_json(GAME, state, seat, {"type": "confirm"}, 4.0)
    assert state.round == 2
    assert GAME.revealed_guesses(state, "round-1", 1) == shown  # from the history
    assert GAME.revealed_guesses(state, "round-2", 1) is None
