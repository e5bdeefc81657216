"""What a value decoded from JSON is. In Python ``True`` is an ``int``, but a
client that sends ``true`` for a seat or a count has sent no number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:
    from atelier.jsonvalue import JSON


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


# Readers for JSON this process wrote or already validated (a logged state, checked
# settings): they narrow the type, and a value of the wrong kind is a bug, not a
# player's mistake, so they raise TypeError rather than a RuleError.


def as_int(value: JSON) -> int:
    if not is_int(value):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def as_number(value: JSON) -> float:
    if not is_number(value):
        raise TypeError(f"expected a number, got {value!r}")
    return value


def as_str(value: JSON) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def as_list(value: JSON) -> Sequence[JSON]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"expected a list, got {value!r}")
    return value


def as_object(value: JSON) -> Mapping[str, JSON]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected an object, got {value!r}")
    return value


def as_strs(value: JSON) -> list[str]:
    return [as_str(item) for item in as_list(value)]


def as_ints(value: JSON) -> list[int]:
    return [as_int(item) for item in as_list(value)]
