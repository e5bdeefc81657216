"""Wire models: every client message is validated here before anything looks at it.

Strict types (``"v": "1"`` is not 1), no extra fields, bounded strings. A
message that fails becomes ``RuleError("bad_message", detail=...)``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from atelier.games.core import RuleError

PROTOCOL_VERSION = 1
MAX_TEXT_BYTES = 16 * 1024
MAX_FRAME_BYTES = 64 * 1024

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


class Join(_Msg):
    t: Literal["join"]
    name: Short
    colour: Short


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
    settings: dict[str, Any]


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


class Act(_Msg):
    t: Literal["act"]
    action: dict[str, Any]


class Ping(_Msg):
    t: Literal["ping"]


ClientMessage = Annotated[
    Hello | Join | Leave | Rename | Lang | Settings | Kick | Host | Start | Next | Act | Ping,
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


def parse_client(text: str) -> ClientMessage:
    """A validated client message, or RuleError naming what is wrong."""
    if len(text.encode()) > MAX_TEXT_BYTES:
        raise RuleError("message_too_large", max=MAX_TEXT_BYTES)
    try:
        data = json.loads(text)
    except ValueError:
        raise RuleError("bad_message", detail="not JSON") from None
    if not isinstance(data, dict):
        raise RuleError("bad_message", detail="not an object")
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        raise RuleError("bad_message", detail=_detail(exc)) from None


def message_id(text: str) -> int | None:
    """The ``id`` of a message that failed validation, so the error can carry it."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None
