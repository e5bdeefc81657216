"""Every game the server can host, by name. Each game package exposes ``GAME``."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from atelier.errors import RuleError
from atelier.games.core import Game

GAME_NAMES: tuple[str, ...] = ("pictomania", "incognito", "piet")


def get_game(name: str) -> Game[Any]:
    if name not in GAME_NAMES:
        raise RuleError("unknown_game", name=name)
    game: Game[Any] = import_module(f"atelier.games.{name}").GAME
    return game
