"""Incognito: hide a secret word in a drawing of a public location, so that some players
find it but not all (rulebook seeds/002, RULINGS.md; docs/incognito.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atelier.games.core import JSON, DrawingGame
from atelier.games.incognito import engine, settings
from atelier.games.incognito.engine import DRAWING, State
from atelier.games.incognito.view import view as _view

INK_TOOLS = frozenset({"pen", "eraser", "undo", "clear"})
"""A washable pen on a slate: everything may be wiped."""


class Incognito:
    name = "incognito"
    min_seats = settings.MIN_PLAYERS
    max_seats = settings.MAX_PLAYERS

    def default_settings(self) -> dict[str, JSON]:
        return settings.default_settings()

    def validate_settings(self, values: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        return settings.validate_settings(values, seats)

    def new(self, values: Mapping[str, JSON], seats: Sequence[str], seed: int) -> State:
        return engine.new(values, seats, seed)

    def apply(self, state: State, seat: int, action: Mapping[str, JSON], now: float) -> State:
        return engine.apply(state, seat, action, now)

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return _view(state, seat)

    def deadline(self, state: State) -> float | None:
        return engine.deadline(state)

    def is_over(self, state: State) -> bool:
        return engine.is_over(state)

    def dump(self, state: State) -> dict[str, JSON]:
        return engine.dump(state)

    def load(self, data: Mapping[str, JSON]) -> State:
        return engine.load(data)

    def drawing_key(self, state: State) -> str | None:
        # The round's canvases stay current through voting and the reveal; ink is only
        # accepted where may_draw says so.
        return f"round-{state.round}"

    def may_draw(self, state: State, seat: int) -> bool:
        return (state.phase == DRAWING and 0 <= seat < state.seats
                and not state.done_drawing[seat])

    def ink_visible(self, state: State, drawer: int, viewer: int | None) -> bool:
        if state.phase == DRAWING:
            return viewer is not None and viewer == drawer
        return True

    def ink_tools(self, state: State, seat: int) -> frozenset[str]:
        return INK_TOOLS if self.may_draw(state, seat) else frozenset()


GAME: DrawingGame[State] = Incognito()

__all__ = ["GAME", "Incognito", "State"]
