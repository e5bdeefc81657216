"""Incognito: hide a secret word in a drawing of a public location, so that some players
find it but not all (docs/incognito.md, with its Rulings)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources.abc import Traversable

from atelier.content.check import Report
from atelier.games.actions import Action
from atelier.games.core import JSON
from atelier.games.incognito import decks, engine, legal
from atelier.games.incognito.actions import ACTIONS
from atelier.games.incognito.engine import DRAWING, State
from atelier.games.incognito.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Settings,
    public_settings,
    validate_settings,
)
from atelier.games.incognito.view import view as _view
from atelier.games.party import PartyGame


class Incognito(PartyGame[State]):
    # A washable pen on a slate: everything may be wiped (PartyGame.ink_tools).
    name = "incognito"
    actions = ACTIONS
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    settings_model = Settings
    # no countdown runs out while the players are still deciding
    quick_settings: Mapping[str, JSON] = {"rounds": 2, "countdown": 120}
    ends_part_types = frozenset({"done_drawing", "done_voting", "confirm"})

    def validate_settings(self, settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        return validate_settings(settings, seats)

    def public_settings(self, settings: Mapping[str, JSON]) -> dict[str, JSON]:
        return public_settings(settings)

    def new_avoiding(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int,
                     dealt: Sequence[str]) -> State:
        return engine.new(settings, seats, seed, dealt)

    def check_decks(self, root: Traversable, report: Report) -> None:
        decks.check_decks(root, report)

    def deck_counts(self, root: Traversable) -> dict[str, dict[str, int]]:
        return decks.deck_counts(root)

    def apply(self, state: State, seat: int, action: Action, now: float) -> State:
        return engine.apply(state, seat, action, now)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal.legal_actions(state, seat)

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return _view(state, seat)

    def deadline(self, state: State) -> float | None:
        return engine.deadline(state)

    def dump(self, state: State) -> dict[str, JSON]:
        return engine.dump(state)

    def load(self, data: Mapping[str, JSON]) -> State:
        return engine.load(data)

    def drawing_key(self, state: State) -> str | None:
        # The round's canvases stay current through voting and the reveal; ink is only
        # accepted where may_draw says so.
        return f"round-{state.round}"

    def drawing_keys(self, state: State) -> list[str]:
        return [f"round-{r}" for r in range(1, state.round + 1)]

    def may_draw(self, state: State, seat: int) -> bool:
        return (state.phase == DRAWING and 0 <= seat < state.players
                and not state.done_drawing[seat])

    def ink_visible(self, state: State, drawer: int, viewer: int | None) -> bool:
        if state.phase == DRAWING:
            return viewer is not None and viewer == drawer
        return True

    def canvas_action(self, state: State, seat: int, blank: bool) -> Action | None:
        return None  # an empty Incognito drawing is just a poor one


GAME = Incognito()

__all__ = ["GAME", "Incognito", "State"]
