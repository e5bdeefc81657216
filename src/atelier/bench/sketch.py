"""A free-drawing "game" for the ink benchmark: everyone draws, everyone sees
everything, nothing is scored. Loaded by the benchmark's server with
``--extra-game atelier.bench.sketch:GAME``; it is not offered to players."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from atelier.errors import RuleError
from atelier.games.actions import Action, ActionSchema
from atelier.games.core import SYSTEM, Game
from atelier.games.settings import SettingsModel, checked

ACTIONS = ActionSchema()


@ACTIONS.action
class Advance(Action):
    type: Literal["advance"]  # the system ends the sketch


@ACTIONS.action
class Tick(Action):
    """A player's logged action that only counts itself: what `atelier bench
    restart` checks survives a restart (the count of acknowledged ticks)."""

    type: Literal["tick"] = "tick"


class NoSettings(SettingsModel):
    """A sketch has none."""


class SketchGame:
    name = "sketch"
    min_seats = 1
    max_seats = 6
    actions = ACTIONS
    settings_model = NoSettings

    def default_settings(self) -> dict[str, Any]:
        return {}

    def validate_settings(self, settings: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return checked(NoSettings, settings)

    def public_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        return dict(settings)

    def new(self, settings: Mapping[str, Any], seats: Sequence[str], seed: int) -> dict[str, Any]:
        return {"seats": len(seats), "over": False}

    def apply(self, state: Mapping[str, Any], seat: int, action: Action,
              now: float) -> dict[str, Any]:
        if action.type == "advance" and seat == SYSTEM:
            return {**state, "over": True}
        if action.type == "tick" and 0 <= seat < state["seats"]:
            ticks = list(state.get("ticks") or [0] * state["seats"])
            ticks[seat] += 1
            return {**state, "ticks": ticks}
        raise RuleError("bad_action")

    def view(self, state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
        return {"over": state["over"], "ticks": state.get("ticks") or [0] * state["seats"]}

    def deadline(self, state: Mapping[str, Any]) -> float | None:
        return None

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return bool(state["over"])

    def dump(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return dict(state)

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)

    def drawing_key(self, state: Mapping[str, Any]) -> str | None:
        return "sketch"

    def may_draw(self, state: Mapping[str, Any], seat: int) -> bool:
        return not state["over"]

    def ink_visible(self, state: Mapping[str, Any], drawer: int, viewer: int | None) -> bool:
        return True

    def ink_tools(self, state: Mapping[str, Any], seat: int) -> frozenset[str]:
        return frozenset({"pen", "eraser", "undo", "clear"})

    def drawing_keys(self, state: Mapping[str, Any]) -> list[str]:
        return ["sketch"]

    def canvas_action(self, state: Mapping[str, Any], seat: int,
                      blank: bool) -> Action | None:
        return None  # no rule cares whether a canvas is empty


GAME: Game[dict[str, Any]] = SketchGame()  # mypy checks it keeps the game contract
