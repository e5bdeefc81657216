"""Where word decks are (``content/decks/<game>/``, or a ``decks/`` folder
beside a registered game's rules: ``deck_folder``) and what they are made of:
cards of words by level, and items (a word or a location). Each game reads and
checks its own decks (games/pictomania/decks.py, games/incognito/decks.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

LEVELS: tuple[int, ...] = (1, 2, 3, 4)
WORDS_PER_CARD = 7
MAX_WORD_LENGTH = 32
"""Longest word or phrase on a card: it has to fit a phone-sized card display."""
MAX_THEME_LENGTH = 40
MAX_LOCATION_LENGTH = 64


@dataclass(frozen=True)
class Card:
    id: str
    level: int
    words: tuple[str, ...]
    theme: str = ""

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "level": self.level, "words": list(self.words), "theme": self.theme}


@dataclass(frozen=True)
class Item:
    id: str
    text: str


def content_root() -> Traversable:
    """The folder holding ``decks/`` and ``strings/``."""
    return resources.files("atelier") / "content"


def _root() -> Traversable:
    return content_root() / "decks"


_game_folders: dict[str, Traversable] = {}
"""Games' own ``decks/`` folders (games/registry.py adds them as it registers a game)."""


def add_decks(game: str, folder: Traversable) -> None:
    """A game's decks are read from ``folder`` instead of ``decks/<game>/``."""
    _game_folders[game] = folder


def deck_folder(game: str) -> Traversable:
    """Where ``game``'s decks are: its own ``decks/`` folder, else ``decks/<game>/``."""
    return _game_folders.get(game) or _root() / game
