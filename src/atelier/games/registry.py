"""Every game the server can host, by name: one registration path for all of them.

A game is two folders: its rules (a module exposing ``GAME``) and its screens (a
folder with ``game.js``, the descriptor the browser client reads). The games
shipped here are named in ``GAME_NAMES`` (rules ``atelier.games.NAME``, screens
``web/NAME/``); any other game is registered with ``register("module:ATTRIBUTE")``
(``atelier serve --extra-game``: tests, benchmarks), whose module may name its
screens folder as ``WEB``. Beside a game's rules, a ``strings/`` folder adds its
interface strings to the catalog (files shaped as ``content/strings/*.json``) and
a ``decks/`` folder holds its decks (``content/decks.py``: ``deck_folder``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module, resources
from pathlib import Path
from types import ModuleType
from typing import Any

from atelier.content.decks import add_decks
from atelier.errors import RuleError
from atelier.games.core import Game
from atelier.i18n import add_strings

GAME_NAMES: tuple[str, ...] = ("pictomania", "incognito", "piet")
"""The games shipped with Atelier: one line per game."""

WEB_DIR = Path(str(resources.files("atelier") / "web"))


@dataclass(frozen=True)
class Registered:
    game: Game[Any]
    web: Path | None
    """The game's screens (a folder holding ``game.js``); None: not offered in the browser."""


_games: dict[str, Registered] = {}


def register(spec: str) -> Game[Any]:
    """Adds the game ``module[:ATTRIBUTE]`` names (``GAME`` by default) and returns it."""
    module_name, _, attr = spec.partition(":")
    module = import_module(module_name)
    game: Game[Any] = getattr(module, attr or "GAME")
    _games[game.name] = Registered(game, _screens(module, game.name))
    home = Path(str(module.__file__)).parent
    if (home / "strings").is_dir():
        add_strings(home / "strings")
    if (home / "decks").is_dir():
        add_decks(game.name, home / "decks")
    return game


def _screens(module: ModuleType, name: str) -> Path | None:
    declared = getattr(module, "WEB", None)
    folder = Path(declared) if declared is not None else WEB_DIR / name
    return folder if (folder / "game.js").is_file() else None


def _registered(name: str) -> Registered | None:
    if name not in _games and name in GAME_NAMES:
        register(f"atelier.games.{name}")
    return _games.get(name)


def get_game(name: str) -> Game[Any]:
    found = _registered(name)
    if found is None:
        raise RuleError("unknown_game", name=name)
    return found.game


def game_names() -> tuple[str, ...]:
    """Every registered game: the shipped ones first, then the others in their order."""
    return (*GAME_NAMES, *(name for name in _games if name not in GAME_NAMES))


def browser_games() -> list[dict[str, str]]:
    """The games the browser client offers, each with where its screens are served."""
    out = []
    for name in game_names():
        found = _registered(name)
        if found is not None and found.web is not None:
            out.append({"name": name, "module": f"/static/{name}/game.js"})
    return out


def extra_screens() -> dict[str, Path]:
    """Screens folders outside ``web/``, by game: served at ``/static/NAME/``."""
    return {name: found.web for name, found in _games.items()
            if found.web is not None and found.web != WEB_DIR / name}
