"""Pictomania, both editions: rules engine, views and the round scorer.

``GAME`` is what the server hosts; see docs/pictomania.md for actions and phases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atelier.games.core import JSON
from atelier.games.pictomania import engine, legal, view
from atelier.games.pictomania.actions import ACTIONS
from atelier.games.pictomania.settings import (
    Settings,
    cards_per_round,
    check_custom_confusables,
    default_settings,
    public_settings,
    validate,
)
from atelier.games.pictomania.state import State, dump, load
from atelier.games.pictomania.tokens import MAX_PLAYERS, MIN_PLAYERS
from atelier.jsoncheck import as_int

# The 1st edition's boards wipe clean; the 2nd edition's "once you have made
# your first guess, you cannot modify your drawing" means you may until then.
# Either way the tools end exactly when `may_draw` does.
_ALL_TOOLS = frozenset({"pen", "eraser", "undo", "clear"})


class Pictomania:
    name = "pictomania"
    actions = ACTIONS
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    settings_model = Settings
    seats_removable = True  # the host may take a player out mid-game (SYSTEM "remove")

    def default_settings(self) -> dict[str, JSON]:
        return default_settings()

    def validate_settings(self, settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        full = validate(settings)
        # Only when a host changes settings: a game already started (and
        # replayed after a restart) keeps the deck it was accepted with.
        check_custom_confusables(full)
        return full

    def public_settings(self, settings: Mapping[str, JSON]) -> dict[str, JSON]:
        return public_settings(settings)

    def new(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int) -> State:
        return engine.new(settings, seats, seed)

    def new_avoiding(
        self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int,
        dealt: Sequence[str],
    ) -> State:
        return engine.new(settings, seats, seed, dealt)

    def dealt(self, state: State) -> list[str]:
        return list(state.memory)

    def cards_needed(self, settings: Mapping[str, JSON]) -> int:
        return as_int(settings["rounds"]) * cards_per_round(settings)

    def final_scores(self, state: State) -> list[int]:
        return list(state.totals)

    def apply(self, state: State, seat: int, action: Mapping[str, JSON], now: float) -> State:
        return engine.apply(state, seat, action, now)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, JSON]]:
        return legal.legal_actions(state, seat)

    quick_settings: Mapping[str, JSON] = {"rounds": 2}

    def ends_part(self, action: Mapping[str, JSON]) -> bool:
        ready = action == {"type": "ready", "ready": True}
        return ready or action.get("type") in ("done", "confirm")

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return view.view(state, seat)

    def deadline(self, state: State) -> float | None:
        return engine.deadline(state)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def dump(self, state: State) -> dict[str, JSON]:
        return dump(state)

    def load(self, data: Mapping[str, JSON]) -> State:
        return load(dict(data))

    def drawing_key(self, state: State) -> str | None:
        return view.drawing_key(state)

    def may_draw(self, state: State, seat: int) -> bool:
        return engine.may_draw(state, seat)

    def ink_visible(self, state: State, drawer: int, viewer: int | None) -> bool:
        return True  # everyone draws in plain sight

    def ink_tools(self, state: State, seat: int) -> frozenset[str]:
        if not engine.may_draw(state, seat):
            return frozenset()
        return _ALL_TOOLS

    def canvas_action(self, state: State, seat: int, blank: bool) -> dict[str, JSON] | None:
        return engine.canvas_action(state, seat, blank)

    # -- guesses on a drawing's replay (atelier.server.room.marks) --------------------

    def marked_drawing(self, action: Mapping[str, JSON]) -> int | None:
        """The seat whose drawing ``action`` marks: a guess marks its target's."""
        target = action.get("target")
        return target if action.get("type") == "guess" and isinstance(target, int) else None

    def revealed_guesses(self, state: State, key: str, seat: int) -> list[dict[str, JSON]] | None:
        """The guesses on ``seat``'s drawing of round ``key`` with their verdicts,
        once revealed; None while that round is still being drawn."""
        return view.revealed_guesses(state, key, seat)


GAME = Pictomania()
