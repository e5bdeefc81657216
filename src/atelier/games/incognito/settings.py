"""Incognito's room settings: defaults, validation, and the word and location pools."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from pydantic import Field

from atelier.errors import RuleError, require
from atelier.games.core import JSON
from atelier.games.incognito.decks import incognito_content
from atelier.games.settings import Language, SettingsModel, checked, defaults
from atelier.jsoncheck import as_int, as_list, as_strs

MIN_PLAYERS = 3
MAX_PLAYERS = 6
TILES = 6
"""Words on the table each round, on number tiles 1..6 (also the vote cards per player)."""

MAX_ROUNDS = 10
MAX_COUNTDOWN = 120.0
MAX_DRAWING_TIME = 3600.0
MIN_DRAWING_TIME = 5.0
"""A shorter drawing phase is no game, and a limit near 0 makes a deadline per instant."""
DRAWING_TIME_STEP = 5.0
"""The form's step: a browser counts steps from the minimum, so 5 keeps every
multiple of 5 (the offered 180 and the maximum) a value it accepts."""
DRAWING_TIME_OFFERED = 180.0
"""What a ticked "time limit" box starts at."""
MAX_CUSTOM_ITEMS = 2000
MAX_ITEM_LENGTH = 80



class Settings(SettingsModel):
    """Each field's type, bounds and default; docs/incognito.md says what they mean."""

    language: Language = "en"
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] = 3
    countdown: Annotated[float, Field(ge=0, le=MAX_COUNTDOWN)] = 5
    """Seconds between the last secret shown and the drawing."""
    drawing_time_limit: (
        Annotated[float, Field(ge=MIN_DRAWING_TIME, le=MAX_DRAWING_TIME,
                               json_schema_extra={"step": DRAWING_TIME_STEP})] | None
    ) = Field(default=None, examples=[DRAWING_TIME_OFFERED])
    custom_words: list[Any] = Field(default=[], max_length=MAX_CUSTOM_ITEMS)
    custom_locations: list[Any] = Field(default=[], max_length=MAX_CUSTOM_ITEMS)


def default_settings() -> dict[str, JSON]:
    return defaults(Settings)


def _clean_items(value: JSON, field: str) -> list[str]:
    """Custom word or location list: stripped, non-empty, duplicates (any case) dropped,
    so that no word repeats within a game."""
    seen: set[str] = set()
    items: list[str] = []
    for raw in as_list(value):
        if not isinstance(raw, str):
            raise RuleError("bad_settings", field=field)
        text = " ".join(raw.split())
        require(0 < len(text) <= MAX_ITEM_LENGTH, "bad_settings", field=field)
        if text.casefold() not in seen:
            seen.add(text.casefold())
            items.append(text)
    return items


def validate_settings(settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
    """The full settings with defaults filled in; RuleError if a value is invalid or the
    words or locations cannot last the whole game for ``seats`` players."""
    result = checked(Settings, settings)
    rounds = as_int(result["rounds"])
    result["custom_words"] = _clean_items(result["custom_words"], "custom_words")
    result["custom_locations"] = _clean_items(result["custom_locations"], "custom_locations")

    words, locations = pools(result)
    need_words = TILES * rounds
    if len(words) < need_words:
        raise RuleError("incognito.too_few_words", need=need_words, have=len(words))
    need_locations = max(seats, 0) * rounds
    if len(locations) < need_locations:
        raise RuleError("incognito.too_few_locations", need=need_locations,
                        have=len(locations))
    return result


SECRET_LISTS = ("custom_words", "custom_locations")
"""The host's own words and locations: the words are what players hide and
find, so no one learns them before they are dealt; only their counts are shown."""


def public_settings(settings: Mapping[str, JSON]) -> dict[str, JSON]:
    public = dict(settings)
    for key in SECRET_LISTS:
        value = settings.get(key)
        public[key] = len(value) if isinstance(value, list) else 0
    return public


def pools(settings: Mapping[str, JSON]) -> tuple[list[str], list[str]]:
    """(words, locations) to deal from: a custom list replaces the built-in deck of the
    room's language; built-in duplicates are dropped too."""
    deck_words, deck_locations = incognito_content(str(settings["language"]))
    words = as_strs(settings["custom_words"]) or _unique(w.text for w in deck_words)
    locations = as_strs(settings["custom_locations"]) or _unique(x.text for x in deck_locations)
    return words, locations


def _unique(texts: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for text in texts:
        if text.casefold() not in seen:
            seen.add(text.casefold())
            out.append(text)
    return out
