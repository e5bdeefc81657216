"""Word decks, read from ``content/decks/`` (a game registered with a ``decks/``
folder beside its rules reads its own: ``deck_folder``).

Layout (every language has the same ids):

- ``decks/pictomania/<lang>/level<N>.json``: ``{"cards": [{"id": "L1-001",
  "theme": "...", "words": [7 strings]}]}``; N is 1 (easiest) to 4 (hardest).
- ``decks/incognito/<lang>.json``: ``{"words": [{"id": "w001", "text": "..."}],
  "locations": [{"id": "l001", "text": "..."}]}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
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


@cache
def pictomania_cards(lang: str) -> dict[int, tuple[Card, ...]]:
    """The built-in cards of one language by level; levels without a file are empty."""
    result: dict[int, tuple[Card, ...]] = {}
    for level in LEVELS:
        path = deck_folder("pictomania") / lang / f"level{level}.json"
        cards: list[Card] = []
        if path.is_file():
            for raw in json.loads(path.read_text(encoding="utf-8"))["cards"]:
                cards.append(Card(raw["id"], level, tuple(raw["words"]), raw.get("theme", "")))
        result[level] = tuple(cards)
    return result


@cache
def incognito_content(lang: str) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """(secret words, locations) of one language; empty if the file is missing."""
    path = deck_folder("incognito") / f"{lang}.json"
    if not path.is_file():
        return (), ()
    data = json.loads(path.read_text(encoding="utf-8"))
    words = tuple(Item(w["id"], w["text"]) for w in data["words"])
    locations = tuple(Item(x["id"], x["text"]) for x in data["locations"])
    return words, locations
