"""Translated strings: English, German and Ukrainian.

Strings live in ``strings/*.json`` folders, by one convention: what the
whole client shares in ``content/strings/``, and each game's own beside its
rules (``games/<game>/strings/``, the shipped games and any registered with
``--extra-game`` alike). Each file maps a language to ``{key: text}`` and
belongs to one area (core, ui, a game's screens, its rules, ...). Texts use ``str.format`` fields
(``{name}``); a missing language falls back to English, a missing key to the key.

A text that counts something is an object of plural forms instead of a
string, one form for each CLDR plural category of its language (English and
German: ``one``, ``other``; Ukrainian: ``one``, ``few``, ``many``, ``other``)::

    "ig.points": {"one": "{count} point", "other": "{count} points"}

The form is picked by the ``count`` field, or by the field that ``"by"`` names
(``{"by": "max", "one": ..., "other": ...}``). The categories come from CLDR
through Babel here and from ``Intl.PluralRules`` in the browser (``web/i18n.js``),
so both pick the same form; ``content/plurals.py`` checks that every counted
text has exactly its language's forms.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from babel import Locale

LANGUAGES: tuple[str, ...] = ("en", "de", "uk")
DEFAULT_LANGUAGE = "en"
PLURAL_FIELD = "count"  # the field that picks a plural form unless "by" names another
PLURAL_BY = "by"

Text = str | dict[str, str]


_game_folders: list[Path] = []
"""Extra games' ``strings/`` folders (games/registry.py adds them as it registers one)."""


def add_strings(folder: Path) -> None:
    """Merges ``folder``'s string files into the catalog, after the shipped ones."""
    if folder not in _game_folders:
        _game_folders.append(folder)
        catalog.cache_clear()


def string_folders() -> list[Traversable]:
    """Every ``strings/`` folder: the shared one, each shipped game's (any package
    under ``atelier/games/`` that has one) and each extra game's."""
    package = resources.files("atelier")
    shipped = sorted((entry / "strings" for entry in (package / "games").iterdir()
                      if entry.is_dir() and (entry / "strings").is_dir()),
                     key=lambda folder: str(folder))
    known = {str(folder) for folder in shipped}
    extra = [folder for folder in _game_folders if str(folder) not in known]
    return [package / "content" / "strings", *shipped, *extra]


@cache
def catalog() -> dict[str, dict[str, Text]]:
    """Every language's strings, merged over all string files."""
    merged: dict[str, dict[str, Text]] = {lang: {} for lang in LANGUAGES}
    for folder in string_folders():
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".json"):
                continue
            data = json.loads(entry.read_text(encoding="utf-8"))
            for lang, strings in data.items():
                merged.setdefault(lang, {}).update(strings)
    return merged


def pick_language(preferred: str | None) -> str:
    """The supported language closest to ``preferred`` (a tag like ``de-AT``)."""
    if preferred:
        for part in preferred.replace(" ", "").split(","):
            tag = part.split(";")[0].split("-")[0].lower()
            if tag in LANGUAGES:
                return tag
    return DEFAULT_LANGUAGE


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_category(lang: str, number: float) -> str:
    """The CLDR plural category of ``number`` in ``lang`` (one, few, many, other)."""
    return str(_locale(lang).plural_form(number))


def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories ``lang`` has, for whole and fractional counts."""
    return frozenset(_locale(lang).plural_form.tags | {"other"})


def pick_form(text: Text, lang: str, params: Mapping[str, Any]) -> str:
    """The text to format: a plain string as it is, a plural object's form for its count."""
    if isinstance(text, str):
        return text
    number = params.get(text.get(PLURAL_BY, PLURAL_FIELD))
    if isinstance(number, bool) or not isinstance(number, int | float):
        return text.get("other", "")
    return text.get(plural_category(lang, number)) or text.get("other", "")


def translate(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    strings = catalog()
    found = strings.get(lang, {}).get(key)
    if not found:
        lang, found = DEFAULT_LANGUAGE, strings[DEFAULT_LANGUAGE].get(key)
    text = pick_form(found, lang, params) if found else key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text
