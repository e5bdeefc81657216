"""Wire models: every client message is validated here before anything looks at it.

Strict types (``"v": "1"`` is not 1), no extra fields, bounded strings. A
message that fails becomes ``RuleError("bad_message", detail=...)``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from atelier.errors import RuleError
from atelier.jsoncheck import is_int
from atelier.jsonvalue import JSON

PROTOCOL_VERSION = 1
MAX_TEXT_BYTES = 16 * 1024
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a message may have: no message needs
more than a few levels, and deeper ones cost recursion in every later step."""

Short = Annotated[str, Field(max_length=64)]
Id = Annotated[int, Field(ge=0, le=2**53)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: Id | None = None


class Hello(_Msg):
    t: Literal["hello"]
    v: int
    token: Annotated[str, Field(max_length=128)] | None = None
    lang: Short = "en"
    # the creator's browser, not seated yet: the host role waits for it
    host_key: Annotated[str, Field(max_length=128)] | None = None


class Join(_Msg):
    t: Literal["join"]
    name: Short
    colour: Short
    host_key: Annotated[str, Field(max_length=128)] | None = None


class Leave(_Msg):
    t: Literal["leave"]


class Rename(_Msg):
    t: Literal["rename"]
    name: Short


class Lang(_Msg):
    t: Literal["lang"]
    lang: Short


class Settings(_Msg):
    t: Literal["settings"]
    settings: dict[str, JSON]


class Kick(_Msg):
    t: Literal["kick"]
    player: Short


class Host(_Msg):
    t: Literal["host"]
    player: Short


class Start(_Msg):
    t: Literal["start"]


class Next(_Msg):
    t: Literal["next"]


class Again(_Msg):
    t: Literal["again"]


class GoOn(_Msg):
    t: Literal["go_on"]


class Act(_Msg):
    t: Literal["act"]
    action: dict[str, JSON]


class Agree(_Msg):
    """A player's own agreement to one of the game's agreements (core.AgreementsGame)."""

    t: Literal["agree"]
    name: Short
    on: bool


class Ping(_Msg):
    t: Literal["ping"]


ClientMessage = Annotated[
    Hello | Join | Leave | Rename | Lang | Settings | Kick | Host | Start | Next | Again | GoOn
    | Act | Agree | Ping,
    Field(discriminator="t"),
]
_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def _detail(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"][1:] or err["loc"]) or "message"
    if err["type"] == "union_tag_invalid":
        return f"unknown message type {err['input'].get('t')!r}"[:80]
    if err["type"] == "union_tag_not_found":
        return "missing field t"
    if err["type"] == "extra_forbidden":
        return f"unexpected field {where}"[:80]
    return f"{where}: {err['msg']}"[:120]


def _depth(data: Any) -> int:
    """How deeply ``data`` nests, counted without recursion."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        value, level = todo.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                todo.extend((item, level + 1) for item in value)
    return deepest


def load_json(text: str) -> Any:
    """``text`` parsed, or RuleError: whatever a client sends, parsing it
    raises nothing else (the C parser recurses: deep nesting is a RecursionError)."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise RuleError("bad_message", detail="nested too deeply") from None
    except ValueError:
        raise RuleError("bad_message", detail="not JSON") from None
    if _depth(data) > MAX_DEPTH:
        raise RuleError("bad_message", detail="nested too deeply")
    return data


def parse_client(text: str) -> ClientMessage:
    """A validated client message, or RuleError naming what is wrong."""
    if len(text.encode(errors="replace")) > MAX_TEXT_BYTES:
        raise RuleError("message_too_large", max=MAX_TEXT_BYTES)
    data = load_json(text)
    if not isinstance(data, dict):
        raise RuleError("bad_message", detail="not an object")
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        raise RuleError("bad_message", detail=_detail(exc)) from None


def message_id(text: str) -> int | None:
    """The ``id`` of a message that failed validation, so the error can carry it."""
    if len(text) > MAX_TEXT_BYTES:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if is_int(value) else None
