"""Tally: the players take turns adding 1 or 2 to a shared count; whoever brings
it to the target wins. The whole game in one module, for tests/test_extra_game.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from atelier.errors import RuleError
from atelier.games.actions import Action, ActionSchema
from atelier.games.settings import SettingsModel, checked, defaults

WEB = Path(__file__).parent.parent / "web"
"""The game's screens (game.js, the descriptor the client reads)."""

ACTIONS = ActionSchema()


@ACTIONS.action
class Add(Action):
    type: Literal["add"] = "add"
    amount: Literal[1, 2]


class TallySettings(SettingsModel):
    target: Annotated[int, Field(ge=3, le=30)] = 7


class TallyGame:
    name = "tally"
    actions = ACTIONS
    min_seats = 2
    max_seats = 4
    settings_model = TallySettings
    quick_settings: Mapping[str, Any] = {}  # no clocks to begin with

    def default_settings(self) -> dict[str, Any]:
        return defaults(TallySettings)

    def validate_settings(self, settings: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return checked(TallySettings, settings)

    def public_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        return dict(settings)

    def new(self, settings: Mapping[str, Any], seats: Sequence[str], seed: int) -> dict[str, Any]:
        return {"seats": len(seats), "target": settings["target"], "total": 0, "to_move": 0,
                "winner": None}

    def apply(self, state: Mapping[str, Any], seat: int, action: Action,
              now: float) -> dict[str, Any]:
        if not isinstance(action, Add):
            raise RuleError("bad_action")
        if state["winner"] is not None:
            raise RuleError("game_over")
        if seat != state["to_move"]:
            raise RuleError("not_your_turn")
        total = min(state["target"], state["total"] + action.amount)
        won = total == state["target"]
        return {**state, "total": total, "winner": seat if won else None,
                "to_move": seat if won else (seat + 1) % state["seats"]}

    def legal_actions(self, state: Mapping[str, Any], seat: int) -> list[Action]:
        if state["winner"] is not None or seat != state["to_move"]:
            return []
        return [Add(amount=1), Add(amount=2)]

    def ends_part(self, action: Action) -> bool:
        return isinstance(action, Add)

    def view(self, state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
        over = state["winner"] is not None
        return {"phase": "over" if over else "playing", "total": state["total"],
                "target": state["target"], "to_move": None if over else state["to_move"],
                "winner": state["winner"]}

    def deadline(self, state: Mapping[str, Any]) -> float | None:
        return None

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return state["winner"] is not None

    def dump(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return dict(state)

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)


GAME = TallyGame()
