"""Shared helpers for the Pictomania tests (test decks that do not depend on the built-in ones)."""

from __future__ import annotations

from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.core import SYSTEM
from atelier.games.pictomania import GAME
from atelier.games.pictomania.state import State
from support.actions import apply_json

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay"]


def sample_cards(
    per_level: int = 12, levels: tuple[int, ...] = (1, 2, 3, 4)
) -> list[dict[str, Any]]:
    """Made-up cards, ``per_level`` for each level, so no test depends on the built-in decks."""
    return [
        {"id": f"t{lv}-{i}", "level": lv, "words": [f"w{lv}.{i}.{k}" for k in range(1, 8)]}
        for lv in levels
        for i in range(per_level)
    ]


def settings(**over: Any) -> dict[str, Any]:
    return {"custom_cards": sample_cards(), "custom_mode": "instead", **over}


def new(players: int = 4, seed: int = 7, **over: Any) -> State:
    return GAME.new(settings(**over), NAMES[:players], seed)


def act(state: State, seat: int, /, now: float = 0.0, **action: Any) -> State:
    return apply_json(GAME, state, seat, action, now)


def deal(state: State, now: float = 0.0, drawn: bool = True) -> State:
    """Everyone marks ready: the cards are dealt and drawing starts. With
    ``drawn`` the server then reports ink on every canvas, as it does once a
    player draws (only the 1st edition asks)."""
    for seat in range(state.players):
        state = act(state, seat, now, type="ready")
    assert state.phase == "drawing"
    if drawn:
        state = draw_on(state, *range(state.players), now=now)
    return state


def draw_on(state: State, *seats: int, now: float = 0.0, blank: bool = False) -> State:
    """What the server does when these seats' canvases gain (or lose) all ink."""
    for seat in seats:
        action = GAME.canvas_action(state, seat, blank)
        if action is not None:
            state = apply_json(GAME, state, SYSTEM, action, now)
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


def refused(code: str, state: State, seat: int, /, now: float = 0.0, **action: Any) -> None:
    """The action is refused with ``code``, and the state is left as it was."""
    before = GAME.dump(state)
    with pytest.raises(RuleError) as err:
        act(state, seat, now, **action)
    assert err.value.code == code
    assert GAME.dump(state) == before
