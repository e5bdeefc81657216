"""Shared helpers for the Pictomania tests (test decks that do not depend on the built-in ones)."""

from __future__ import annotations

from typing import Any

from atelier.games.core import SYSTEM
from atelier.games.pictomania import GAME
from atelier.games.pictomania.state import State

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]


def test_cards(per_level: int = 12, levels: tuple[int, ...] = (1, 2, 3, 4)) -> list[dict[str, Any]]:
    return [
        {"id": f"t{lv}-{i}", "level": lv, "words": [f"w{lv}.{i}.{k}" for k in range(1, 8)]}
        for lv in levels
        for i in range(per_level)
    ]


test_cards.__test__ = False  # type: ignore[attr-defined]  # a helper, not a test


def settings(**over: Any) -> dict[str, Any]:
    return {"custom_cards": test_cards(), "custom_mode": "instead", **over}


def new(players: int = 4, seed: int = 7, **over: Any) -> State:
    return GAME.new(settings(**over), NAMES[:players], seed)


def act(state: State, seat: int, now: float = 0.0, **action: Any) -> State:
    return GAME.apply(state, seat, action, now)


def deal(state: State, now: float = 0.0) -> State:
    """Everyone marks ready: the cards are dealt and drawing starts."""
    for seat in range(state.players):
        state = act(state, seat, now, type="ready")
    assert state.phase == "drawing"
    return state


def started(players: int = 4, seed: int = 7, **over: Any) -> State:
    return deal(new(players, seed, **over))


def number_of(state: State, seat: int) -> int:
    return state.seats[seat].number


def a_wrong_number(state: State, guesser: int, target: int) -> int:
    spent = {n for s in state.seats for by, n in s.stack if by == guesser}
    return next(n for n in range(1, 8) if n != number_of(state, target) and n not in spent)


def finish_all(state: State) -> State:
    for seat in range(state.players):
        if state.phase == "drawing" and not state.seats[seat].finished:
            state = act(state, seat, type="done")
    return state


def confirm_all(state: State) -> State:
    return act(state, SYSTEM, type="advance")
