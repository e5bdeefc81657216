"""The shapes of a game's actions, declared once and checked before anything is stored.

Each game keeps one :class:`ActionSchema` (its ``actions`` attribute) and
declares every action it accepts as a small pydantic model registered on it::

    ACTIONS = ActionSchema()

    @ACTIONS.action
    class Guess(Action):
        type: Literal["guess"]
        target: Int
        number: Int

The server validates every action through the schema (``validate``) before
the game sees it (``parse``, which returns the model the game's ``apply`` takes
and matches on): an unknown ``type`` is ``bad_action``; a missing, extra,
mistyped or oversized field is ``action_invalid`` naming the field. Whether an
action is allowed *now* (phase, seat, values in range) stays the game's own
rule in ``apply``; the schema only bounds what may reach it and the log.
Adding an action is one declaration, next to its game's others.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from atelier.errors import RuleError
from atelier.jsonvalue import JSON

Int = Annotated[int, Field(ge=-(2**31), le=2**31)]
"""An integer field: strictly an int (not a bool, float or string), and small."""

MAX_SEATS = 16
"""Bound for a list of seats in an action (no game seats more)."""
Word = Annotated[str, Field(max_length=32)]
"""A short string field (a card label, a move); longer limits: ``Annotated[str, Field(...)]``."""


class Action(BaseModel):
    """The base of every declared action: exact types, no fields but the declared ones."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    type: str
    # A model with one type gives it as the default (``Guess(target=1, number=4)``);
    # the schema reads the type from the message before it picks the model.


A = TypeVar("A", bound=Action)


class ActionSchema:
    """A game's actions by ``type``."""

    def __init__(self, *models: type[Action]) -> None:
        self.models: dict[str, type[Action]] = {}
        for model in models:
            self.action(model)

    def action(self, model: type[A]) -> type[A]:
        """Register ``model`` (usable as a class decorator); its ``type`` must be a Literal."""
        names = get_args(model.model_fields["type"].annotation)
        if not names or not all(isinstance(n, str) for n in names):
            raise TypeError(f"{model.__name__}.type must be a Literal of strings")
        for name in names:
            if name in self.models:
                raise TypeError(f"action {name!r} is declared twice")
            self.models[name] = model
        return model

    def types(self) -> tuple[str, ...]:
        return tuple(self.models)

    def parse(self, action: Mapping[str, JSON]) -> Action:
        """``action`` as its declared model, checked once here: the game's
        ``apply`` takes the model and matches on its class. RuleError if its
        ``type`` is unknown or a field is missing, extra, mistyped or too large."""
        kind = action.get("type") if isinstance(action, Mapping) else None
        model = self.models.get(kind) if isinstance(kind, str) else None
        if model is None:
            raise RuleError("bad_action")
        try:
            return model.model_validate(dict(action))
        except ValidationError as exc:
            raise RuleError("action_invalid", detail=_detail(exc)) from None


def as_json(action: Action) -> dict[str, JSON]:
    """What the log keeps of an action: the fields it was given (a default the
    client left out stays out, so a log reads as the client wrote it)."""
    return {"type": action.type, **action.model_dump(exclude_unset=True)}


# The server's own actions (server/model.py decides them), for the games that
# take them; a game registers each on its schema: ``ACTIONS.action(Skip)``.


class System(Action):
    """The host's "next" or a passed deadline."""

    type: Literal["advance", "timeout"]


class Skip(Action):
    """The host's "go on": those absent players count as done."""

    type: Literal["skip"] = "skip"
    seats: Annotated[list[Int], Field(max_length=MAX_SEATS)]


class Remove(Action):
    """A player leaves or is removed during the game."""

    type: Literal["remove"] = "remove"
    seat: Int


def _detail(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"]) or "action"
    if err["type"] == "extra_forbidden":
        return f"unexpected field {where}"[:80]
    if err["type"] == "missing":
        return f"missing field {where}"[:80]
    return f"{where}: {err['msg']}"[:120]

