"""Default token tables (docs/pictomania.md, Token values; the rulebooks' figures are missing).

Every table is a default: rooms and the scorer may override it.
"""

from __future__ import annotations

from typing import Literal

Edition = Literal["first", "second"]

MIN_PLAYERS = 3
MAX_PLAYERS = 6

# Each colour owns 3, 2, 1, 1, 1; with P players each uses the P-1 highest.
_COLOUR_TOKENS: tuple[int, ...] = (3, 2, 1, 1, 1)

_BLACK_SECOND: dict[int, tuple[int, ...]] = {
    3: (3, 2, 1),
    4: (3, 2, 2, 1),
    5: (3, 2, 2, 1, 1),
    6: (3, 3, 2, 2, 1, 1),
}
_BLACK_FIRST: dict[int, tuple[int, ...]] = {
    3: (3, 2),
    4: (3, 2, 1),
    5: (3, 2, 2, 1),
    6: (3, 2, 2, 1, 1),
}


def player_tokens(players: int) -> tuple[int, ...]:
    """One player's scoring tokens, highest first."""
    return _COLOUR_TOKENS[: players - 1]


def black_tokens(edition: Edition, competitive: bool, players: int) -> tuple[int, ...]:
    """The black tokens on the table, highest first."""
    if edition == "first":
        return _BLACK_FIRST[players]
    table = _BLACK_SECOND[players]
    # The competitive variant drops the lowest token: one fewer than players.
    return table[:-1] if competitive else table
