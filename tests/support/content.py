"""The games whose decks the content check reads (each checks its own)."""

from __future__ import annotations

from atelier.games.registry import get_game

DECK_GAMES = [get_game("pictomania"), get_game("incognito")]
