"""Pictomania, both editions: rules engine, views and the round scorer.

``GAME`` is what the server hosts; see docs/pictomania.md for actions and phases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from atelier.games.core import JSON
from atelier.games.pictomania import engine, legal, settings, state, view
from atelier.games.pictomania.actions import ACTIONS
from atelier.games.pictomania.state import State
from atelier.games.pictomania.tokens import MAX_PLAYERS, MIN_PLAYERS

# The 1st edition's boards wipe clean; the 2nd edition's "once you have made
# your first guess, you cannot modify your drawing" means you may until then.
# Either way the tools end exactly when `may_draw` does.
_ALL_TOOLS = frozenset({"pen", "eraser", "undo", "clear"})


class Pictomania:
    name = "pictomania"
    actions = ACTIONS
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    settings_model = settings.Settings
    seats_removable = True  # the host may take a player out mid-game (SYSTEM "remove")

    def default_settings(self) -> dict[str, Any]:
        return settings.default_settings()

    def validate_settings(self, raw: Mapping[str, Any], seats: int) -> dict[str, Any]:
        out = settings.validate(raw)
        # Only when a host changes settings: a game already started (and
        # replayed after a restart) keeps the deck it was accepted with.
        settings.check_custom_confusables(out)
        return out

    def public_settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return settings.public_settings(raw)

    def new(self, raw: Mapping[str, Any], seats: Sequence[str], seed: int) -> State:
        return engine.new(raw, seats, seed)

    def new_avoiding(
        self, raw: Mapping[str, Any], seats: Sequence[str], seed: int, dealt: Sequence[str]
    ) -> State:
        return engine.new(raw, seats, seed, dealt)

    def dealt(self, st: State) -> list[str]:
        return list(st.memory)

    def cards_needed(self, values: Mapping[str, Any]) -> int:
        return int(values["rounds"]) * settings.cards_per_round(values)

    def final_scores(self, st: State) -> list[int]:
        return list(st.totals)

    def apply(self, st: State, seat: int, action: Mapping[str, Any], now: float) -> State:
        return engine.apply(st, seat, action, now)

    def legal_actions(self, st: State, seat: int) -> list[dict[str, Any]]:
        return legal.legal_actions(st, seat)

    quick_settings: Mapping[str, JSON] = {"rounds": 2}

    def ends_part(self, action: Mapping[str, JSON]) -> bool:
        ready = action == {"type": "ready", "ready": True}
        return ready or action.get("type") in ("done", "confirm")

    def view(self, st: State, seat: int | None) -> dict[str, Any]:
        return view.view(st, seat)

    def deadline(self, st: State) -> float | None:
        return engine.deadline(st)

    def is_over(self, st: State) -> bool:
        return st.phase == "over"

    def dump(self, st: State) -> dict[str, Any]:
        return state.dump(st)

    def load(self, data: Mapping[str, Any]) -> State:
        return state.load(dict(data))

    def drawing_key(self, st: State) -> str | None:
        return view.drawing_key(st)

    def may_draw(self, st: State, seat: int) -> bool:
        return engine.may_draw(st, seat)

    def ink_visible(self, st: State, drawer: int, viewer: int | None) -> bool:
        return True  # everyone draws in plain sight

    def ink_tools(self, st: State, seat: int) -> frozenset[str]:
        if not engine.may_draw(st, seat):
            return frozenset()
        return _ALL_TOOLS

    def canvas_action(self, st: State, seat: int, blank: bool) -> dict[str, Any] | None:
        return engine.canvas_action(st, seat, blank)

    # -- guesses on a drawing's replay (atelier.server.marks) --------------------

    def marked_drawing(self, action: Mapping[str, Any]) -> int | None:
        """The seat whose drawing ``action`` marks: a guess marks its target's."""
        target = action.get("target")
        return target if action.get("type") == "guess" and isinstance(target, int) else None

    def revealed_guesses(self, st: State, key: str, seat: int) -> list[dict[str, Any]] | None:
        """The guesses on ``seat``'s drawing of round ``key`` with their verdicts,
        once revealed; None while that round is still being drawn."""
        return view.revealed_guesses(st, key, seat)


GAME = Pictomania()
