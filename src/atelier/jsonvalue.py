"""The type of a JSON value, in a module of its own so the games' core, their
action and settings schemas and the JSON checks all use it without importing
one another."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    # Read-only containers, so a list[str] or dict[str, int] is JSON as it is
    # (list and dict are invariant: a list[str] is not a list[JSON]).
    JSON: TypeAlias = Mapping[str, "JSON"] | Sequence["JSON"] | str | int | float | bool | None
else:
    # At run time pydantic (the log's event models, the states' codec) takes a
    # JSON value as it is: it came from json.loads or from the game's own code,
    # and the game's schemas check its contents. Walking a whole saved state
    # again would only cost time.
    JSON = Any
"""A JSON value, as ``json.loads`` returns it: what states, views, settings,
actions and logged events are made of. A real type, so mypy checks that code
reading one narrows it (``isinstance``) or validates it first."""
