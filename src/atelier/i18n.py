"""Translated strings: English, German and Ukrainian.

Strings live in ``content/strings/*.json``; each file maps a language to
``{key: text}`` and belongs to one area (core, pictomania, piet, ui, ...), so
that areas never edit the same file. Texts use ``str.format`` fields
(``{name}``); a missing language falls back to English, a missing key to the key.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "de", "uk")
DEFAULT_LANGUAGE = "en"


@cache
def catalog() -> dict[str, dict[str, str]]:
    """Every language's strings, merged over all string files."""
    merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
    folder = resources.files("atelier") / "content" / "strings"
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


def translate(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    strings = catalog()
    text = strings.get(lang, {}).get(key) or strings[DEFAULT_LANGUAGE].get(key) or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text
