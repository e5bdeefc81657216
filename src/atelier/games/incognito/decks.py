"""Incognito's decks: the built-in secret words and locations, their check
(``atelier decks check``: the game's ``check_decks`` hook) and counts.

Layout: ``decks/incognito/<lang>.json``, ``{"words": [{"id": "w001", "text":
"..."}], "locations": [{"id": "l001", "text": "..."}]}``, every language with
the same ids; ``decks/incognito_glosses.json`` gives each word id a short
English gloss, so every language names the same object.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources.abc import Traversable
from typing import Annotated, Any

from pydantic import BaseModel, Field, RootModel, StrictStr, TypeAdapter, ValidationError

from atelier.content.check import (
    Report,
    count_items,
    dirs,
    duplicate_ids,
    missing_per_language,
    norm,
    read_json,
)
from atelier.content.decks import (
    MAX_LOCATION_LENGTH,
    MAX_WORD_LENGTH,
    Item,
    deck_folder,
)
from atelier.content.models import ITEMS, OBJECT, parsed
from atelier.i18n import LANGUAGES

GLOSSES_FILE = "incognito_glosses.json"
"""Where the glosses live, under ``decks/``. An Incognito word id is one object
in every language, but its texts are chosen per language, and a word with two
senses (Drachen: kite or dragon) drifts to the other one in translation; the
gloss names each id's object in English, unambiguously, and the check makes
sure every word id has one, so a reviewer reads each language against it."""


class IncognitoItem(BaseModel):
    """A secret word or a location: ``{"id": "w001", "text": "sock"}``."""

    id: Annotated[StrictStr, Field(min_length=1)]
    text: StrictStr


ITEM: TypeAdapter[IncognitoItem] = TypeAdapter(IncognitoItem)


class _GlossesFile(RootModel[dict[str, StrictStr]]):
    """``{"w001": "sock", "w025": "kite (toy flown on a string)", ...}``."""


def read_glosses(data: object) -> dict[str, str] | None:
    """Each word id's gloss, or None if ``data`` has another shape."""
    try:
        glosses = _GlossesFile.model_validate(data).root
    except ValidationError:
        return None
    return glosses if all(text.strip() for text in glosses.values()) else None


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


def deck_counts(root: Traversable) -> dict[str, dict[str, int]]:
    """Words and locations, for every language."""
    decks = root / "decks" / "incognito"
    kinds = ("words", "locations")
    return {lang: {kind: count_items(decks / f"{lang}.json", kind) for kind in kinds}
            for lang in LANGUAGES}


def _check_items(data: Any, kind: str, limit: int, file: str, report: Report) -> list[str]:
    fields = parsed(OBJECT, data)
    items = parsed(ITEMS, fields.get(kind)) if fields is not None else None
    if items is None:
        report.add(file, "incognito_list_missing", list=kind)
        return []
    ids: list[str] = []
    first: dict[str, str] = {}
    for number, raw in enumerate(items, 1):
        item = parsed(ITEM, raw)
        if item is None:
            report.add(file, "incognito_item_bad", list=kind, number=number)
            continue
        item_id, text = item.id, item.text
        ids.append(item_id)
        if not text.strip():
            report.add(file, "incognito_text_empty", id=item_id)
        elif text != text.strip():
            report.add(file, "incognito_text_spaces", id=item_id, text=text)
        elif len(text) > limit:
            report.add(file, "incognito_text_too_long", id=item_id, text=text, max=limit)
        key = norm(text)
        if key and key in first:
            report.add(
                file, "incognito_text_twice", id=item_id, text=text.strip(), other=first[key]
            )
        elif key:
            first[key] = item_id
    for finding in duplicate_ids(ids):
        report.add(file, "incognito_id_duplicate", id=finding.params["id"])
    return ids


def check_decks(root: Traversable, report: Report) -> None:
    """Every language's words and locations, the same ids in each, and a gloss
    for every word."""
    base = "decks/incognito"
    ids: dict[str, dict[str, list[str]]] = {"words": {}, "locations": {}}
    limits = {"words": MAX_WORD_LENGTH, "locations": MAX_LOCATION_LENGTH}
    for entry in dirs(root / "decks" / "incognito"):
        file = f"{base}/{entry.name}"
        lang = entry.name.removesuffix(".json")
        if not entry.name.endswith(".json") or lang not in LANGUAGES:
            report.add(
                file, "content_unknown_language", language=lang, languages=", ".join(LANGUAGES)
            )
            continue
        data = read_json(entry, file, report)
        if data is None:
            continue
        for kind, by_lang in ids.items():
            by_lang[lang] = _check_items(data, kind, limits[kind], file, report)
    if ids["words"] or ids["locations"]:
        present = set(ids["words"]) | set(ids["locations"])
        for lang in LANGUAGES:
            if lang not in present:
                report.add(
                    f"{base}/{lang}.json", "content_file_missing", others=", ".join(sorted(present))
                )
    for by_lang in ids.values():
        missing_per_language(by_lang, {lang: f"{base}/{lang}.json" for lang in by_lang}, report)
    _check_glosses(root, ids["words"], report)


def _check_glosses(
    root: Traversable, word_ids: Mapping[str, Sequence[str]], report: Report
) -> None:
    """Every Incognito word id has a gloss naming its object, and every gloss a word."""
    entry = root / "decks" / GLOSSES_FILE
    file = f"decks/{GLOSSES_FILE}"
    if not entry.is_file():
        return
    data = read_json(entry, file, report)
    if data is None:
        return
    glosses = read_glosses(data)
    if glosses is None:
        report.add(file, "incognito_glosses_bad")
        return
    everywhere: dict[str, None] = {}
    for ids in word_ids.values():
        everywhere.update(dict.fromkeys(ids))
    for word_id in everywhere:
        if word_id not in glosses:
            report.add(file, "incognito_gloss_missing", id=word_id)
    for word_id in glosses:
        if word_id not in everywhere:
            report.add(file, "incognito_gloss_stale", id=word_id)
