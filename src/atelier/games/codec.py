"""A game state's JSON form, read from the state's own declaration.

A game whose state is a dataclass gets ``dump`` and ``load`` from its field
types: tuples become lists and back, nested dataclasses objects and back,
defaults fill fields an older save did not have. A field whose JSON form is
not the obvious one (a card kept as ``[id, level, words]``, a map with number
keys kept as pairs) says so in its type with :func:`saved_as`, so a save
written by an earlier release still loads::

    CODEC = StateCodec(State)
    data = CODEC.dump(state)     # JSON-ready, detached from the state
    state = CODEC.load(data)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BeforeValidator, PlainSerializer, TypeAdapter

from atelier.games.core import JSON, RngState, rng_from_json, rng_to_json

S = TypeVar("S")
T = TypeVar("T")


def saved_as(to_json: Callable[[T], JSON], from_json: Callable[[JSON], T]) -> tuple[Any, ...]:
    """The metadata for ``Annotated[T, *saved_as(...)]``: how a value of T is
    written, as a JSON list, and read back from one."""

    def read(value: Any) -> Any:
        return from_json(value) if isinstance(value, list) else value

    return (PlainSerializer(to_json), BeforeValidator(read))


SavedRng = Annotated[RngState, *saved_as(rng_to_json, rng_from_json)]
"""A generator's state: ``[version, [internal...], gauss]``; read back as the
tuples ``random.setstate`` wants."""


class StateCodec(Generic[S]):
    """``dump`` and ``load`` for one state class."""

    def __init__(self, cls: type[S]) -> None:
        self._adapter: TypeAdapter[S] = TypeAdapter(cls)

    def dump(self, state: S) -> dict[str, JSON]:
        data: dict[str, JSON] = self._adapter.dump_python(state, mode="json")
        return data

    def load(self, data: Mapping[str, JSON]) -> S:
        # Through JSON first: the state shares nothing with the caller's data.
        return self._adapter.validate_python(json.loads(json.dumps(data)))

