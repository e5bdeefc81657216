"""What a value decoded from JSON is. In Python ``True`` is an ``int``, but a
client that sends ``true`` for a seat or a count has sent no number."""

from __future__ import annotations

from typing import TypeGuard


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)
