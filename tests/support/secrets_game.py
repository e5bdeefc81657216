"""The test game ("secrets"): a tiny drawing game with a secret word per seat,
hidden ink until the reveal, a deadline and an optional computer seat, so the
server's paths can be tested without depending on a real engine's rules. The
server subprocess loads it with ``--extra-game support.secrets_game:SECRETS``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import Field

from atelier.errors import RuleError, require
from atelier.games.actions import Action, ActionSchema
from atelier.games.core import SYSTEM
from atelier.games.settings import SettingsModel, checked, defaults

SECRETS_ACTIONS = ActionSchema()


@SECRETS_ACTIONS.action
class Done(Action):
    type: Literal["done"] = "done"


@SECRETS_ACTIONS.action
class Note(Action):
    type: Literal["note"] = "note"
    text: Annotated[str, Field(max_length=40)] = ""


@SECRETS_ACTIONS.action
class SystemAction(Action):
    type: Literal["advance", "timeout"]


class SecretsSettings(SettingsModel):
    computer: bool = False
    seconds: Annotated[float, Field(ge=0, le=600)] = 0


class SecretsGame:
    """Each seat gets a secret word; everyone draws (ink hidden from others until
    the reveal); "done" ends your drawing; when all are done (or the deadline
    passes, or the host says next) the words and drawings are revealed."""

    name = "secrets"
    actions = SECRETS_ACTIONS
    min_seats = 2
    max_seats = 4
    settings_model = SecretsSettings

    def default_settings(self) -> dict[str, Any]:
        return defaults(SecretsSettings)

    def validate_settings(self, settings: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return checked(SecretsSettings, settings)

    def public_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        return dict(settings)

    def new(self, settings: Mapping[str, Any], seats: Sequence[str], seed: int) -> dict[str, Any]:
        rng = random.Random(seed)
        words = [f"secret{rng.randrange(10**9):09d}" for _ in seats]
        return {"phase": "drawing", "names": list(seats), "words": words,
                "done": [False] * len(seats), "deadline": None,
                "seconds": settings["seconds"], "log": []}

    def apply(self, state: Mapping[str, Any], seat: int, action: Action,
              now: float) -> dict[str, Any]:
        s: dict[str, Any] = json.loads(json.dumps(state))
        kind = action.type
        if kind == "advance":
            require(seat == SYSTEM, "not_a_player")
            require(s["phase"] in ("drawing", "reveal"), "wrong_phase")
            s["phase"] = "reveal" if s["phase"] == "drawing" else "over"
        elif kind == "timeout":
            require(seat == SYSTEM, "not_a_player")
            require(s["phase"] == "drawing" and s["deadline"] is not None, "wrong_phase")
            require(now >= s["deadline"], "timeout_early")
            s["phase"] = "reveal"
        elif kind == "done":
            require(0 <= seat < len(s["names"]), "not_a_player")
            require(s["phase"] == "drawing", "wrong_phase")
            require(not s["done"][seat], "wrong_phase")
            s["done"][seat] = True
            if s["seconds"] and s["deadline"] is None:
                s["deadline"] = now + s["seconds"]
            if all(s["done"]):
                s["phase"] = "reveal"
        elif kind == "note":
            require(0 <= seat < len(s["names"]), "not_a_player")
            require(s["phase"] == "drawing", "wrong_phase")
            assert isinstance(action, Note)
            s["log"].append([seat, action.text])
        else:
            raise RuleError("bad_action")
        return s

    def view(self, state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
        revealed = state["phase"] in ("reveal", "over")
        return {
            "phase": state["phase"],
            "names": state["names"],
            "done": state["done"],
            "deadline": state["deadline"],
            "notes": len(state["log"]),
            "my_word": state["words"][seat] if seat is not None and seat >= 0 else None,
            "words": state["words"] if revealed else None,
        }

    def deadline(self, state: Mapping[str, Any]) -> float | None:
        return state["deadline"] if state["phase"] == "drawing" else None

    def legal_actions(self, state: Mapping[str, Any], seat: int) -> list[Action]:
        if state["phase"] != "drawing" or not 0 <= seat < len(state["names"]):
            return []
        notes: list[Action] = [Note(text="hello")]
        return notes if state["done"][seat] else [Done(), *notes]

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return bool(state["phase"] == "over")

    def dump(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return dict(state)

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)

    # drawing
    def drawing_key(self, state: Mapping[str, Any]) -> str | None:
        return None if state["phase"] == "over" else "round-1"

    def may_draw(self, state: Mapping[str, Any], seat: int) -> bool:
        return state["phase"] == "drawing" and 0 <= seat < len(state["done"]) and not state[
            "done"][seat]

    def ink_visible(self, state: Mapping[str, Any], drawer: int, viewer: int | None) -> bool:
        return drawer == viewer or state["phase"] in ("reveal", "over")

    def ink_tools(self, state: Mapping[str, Any], seat: int) -> frozenset[str]:
        return frozenset({"pen", "undo", "clear"})

    def drawing_keys(self, state: Mapping[str, Any]) -> list[str]:
        return ["round-1"]

    def canvas_action(self, state: Mapping[str, Any], seat: int,
                      blank: bool) -> Action | None:
        return None  # no rule cares whether a canvas is empty

    # computer players
    def computer_seats(self, settings: Mapping[str, Any]) -> dict[int, str]:
        return {1: "robot"} if settings.get("computer") else {}  # its level

    def bot_to_act(self, state: Mapping[str, Any], seat: int) -> bool:
        return bool(state["phase"] == "drawing" and not state["done"][seat])

    def bot_action(self, state: Mapping[str, Any], seat: int) -> Action | None:
        if self.bot_to_act(state, seat):
            return Done()
        return None


SECRETS = SecretsGame()
