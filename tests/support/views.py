"""Reading what a game shows, as a test reads it."""

from __future__ import annotations

from typing import Any, TypeVar

from atelier.games.core import Game

S = TypeVar("S")


def seen(game: Game[S], state: S, seat: int | None) -> Any:
    """What ``seat`` sees (None: a spectator), typed for reading deep into it:
    a test trusts the shape it checks, and a wrong one fails the test all the same."""
    return game.view(state, seat)


def saved(game: Game[S], state: S) -> Any:
    """The state as the game saves it, typed for reading deep into it."""
    return game.dump(state)
