"""The content files' shapes, as pydantic models for :mod:`atelier.content.check`.

A model is strict where a wrong shape is one problem for the whole file or
item (a level file without a list of cards, an Incognito item without an id)
and lenient where the check names each wrong part itself: a card's fields
keep whatever the file holds, so the check can say which word of which card
is not text.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    Strict,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

T = TypeVar("T")


def parsed(adapter: TypeAdapter[T], data: object) -> T | None:
    """``data`` as the adapter's type, or None if it has another shape."""
    try:
        return adapter.validate_python(data)
    except ValidationError:
        return None


def texts(words: object) -> list[str]:
    """The entries of ``words`` that are text; none if it is not a list."""
    entries = parsed(ITEMS, words) or []
    return [text for entry in entries if (text := parsed(TEXT, entry)) is not None]


class RawCard(BaseModel):
    """One card as written in a level file; fields other than these four are
    kept in ``model_extra`` (usually a typo, reported as unknown)."""

    model_config = ConfigDict(extra="allow")

    id: JsonValue = None
    theme: JsonValue = None
    words: JsonValue = None
    level: JsonValue = None

    @property
    def card_id(self) -> str | None:
        """The id, if it is usable: non-empty text."""
        return parsed(_ID, self.id)

    @property
    def unknown_fields(self) -> list[str]:
        return list(self.model_extra or {})


class LevelFile(BaseModel):
    """``{"cards": [...], "confusable_ok": [...]}``; other keys are ignored."""

    cards: list[JsonValue]
    confusable_ok: JsonValue = None


_ID: TypeAdapter[str] = TypeAdapter(Annotated[StrictStr, Field(min_length=1)])
TEXT: TypeAdapter[str] = TypeAdapter(StrictStr)
CARD: TypeAdapter[RawCard] = TypeAdapter(RawCard)
LEVEL_FILE: TypeAdapter[LevelFile] = TypeAdapter(LevelFile)
ITEMS: TypeAdapter[list[Any]] = TypeAdapter(Annotated[list[Any], Strict()])
"""A list as JSON has it (a tuple or a set is not one)."""
WORD_PAIRS: TypeAdapter[list[tuple[str, str]]] = TypeAdapter(list[tuple[StrictStr, StrictStr]])
"""A level file's ``confusable_ok``: pairs of words."""
STRINGS_FILE: TypeAdapter[dict[str, dict[str, Any]]] = TypeAdapter(dict[str, dict[str, Any]])
"""A strings file: language -> {key: text}; the texts are checked one by one."""
OBJECT: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
