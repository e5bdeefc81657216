"""Pictomania's decks: the built-in cards read by level and language, their
check (``atelier decks check``: the game's ``check_decks`` hook) and counts.

Layout: ``decks/pictomania/<lang>/level<N>.json``, ``{"cards": [{"id": "L1-001",
"theme": "...", "words": [7 strings]}]}`` with N from 1 (easiest) to 4
(hardest), every language with the same ids; ``decks/meaning_pairs.json``
lists, per language, pairs of words one drawing cannot tell apart.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

from atelier.content.check import (
    Report,
    allowed_pairs,
    card_findings,
    confusable_words,
    count_items,
    dirs,
    duplicate_ids,
    listed_pairs,
    missing_per_language,
    norm,
    read_json,
    repeated_words,
)
from atelier.content.decks import LEVELS, Card, deck_folder
from atelier.content.meanings import PAIRS_FILE, read_pairs
from atelier.content.models import CARD, LEVEL_FILE, parsed, texts
from atelier.i18n import LANGUAGES

_LEVEL_FILE = re.compile(r"level(\d+)\.json")


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


def deck_counts(root: Traversable) -> dict[str, dict[str, int]]:
    """Cards per level, for every language."""
    decks = root / "decks" / "pictomania"
    return {lang: {str(level): count_items(decks / lang / f"level{level}.json", "cards")
                   for level in LEVELS}
            for lang in LANGUAGES}


def meaning_pairs_of(root: Traversable, report: Report) -> dict[str, list[tuple[str, str]]]:
    """The reviewer's pairs by meaning per language; none if the file is absent."""
    entry = root / "decks" / PAIRS_FILE
    file = f"decks/{PAIRS_FILE}"
    if not entry.is_file():
        return {}
    data = read_json(entry, file, report)
    if data is None:
        return {}
    by_lang = read_pairs(data)
    if by_lang is None:
        report.add(file, "deck_meaning_pairs_bad")
        return {}
    for lang in by_lang:
        if lang not in LANGUAGES:
            report.add(
                file, "content_unknown_language", language=lang, languages=", ".join(LANGUAGES)
            )
    return by_lang


def _check_level_file(
    data: Any,
    file: str,
    level: int,
    report: Report,
    lang: str,
    meaning_pairs: Sequence[tuple[str, str]] = (),
) -> list[str]:
    """Checks one level file; returns its card ids in order."""
    deck = parsed(LEVEL_FILE, data)
    if deck is None:
        report.add(file, "deck_bad_shape")
        return []
    ids: list[str] = []
    labelled: list[tuple[object, object]] = []
    id_pattern = re.compile(rf"L{level}-\d{{3}}")
    for number, raw in enumerate(deck.cards, 1):
        card = parsed(CARD, raw)
        if card is None:
            report.add(file, "deck_card_not_object", card=number)
            continue
        card_id = card.card_id
        label: object = number
        if card_id is None:
            report.add(file, "deck_id_missing", card=number)
        else:
            label = card_id
            ids.append(card_id)
            if not id_pattern.fullmatch(card_id):
                report.add(file, "deck_id_level", id=card_id, level=level, example=f"L{level}-001")
        for key in card.unknown_fields:
            report.add(file, "deck_unknown_field", card=label, field=key)
        if "level" in card.model_fields_set and card.level != level:
            report.add(file, "deck_level_mismatch", card=label, level=card.level, file_level=level)
        if card.theme is None or card.theme == "":
            report.add(file, "deck_theme_missing", card=label)
        report.extend(file, card_findings(label, card.words, card.theme or ""))
        labelled.append((label, card.words))
    report.extend(file, duplicate_ids(ids))
    report.extend(file, repeated_words(labelled))
    words = {norm(w) for _, ws in labelled for w in texts(ws)}
    allowed = allowed_pairs(deck.confusable_ok, words, file, report)
    report.extend(file, confusable_words(labelled, lang, allowed=allowed))
    report.extend(file, listed_pairs(labelled, meaning_pairs))
    return ids


def check_decks(root: Traversable, report: Report) -> None:
    """Every level file of every language: its cards, their words, the pairs a
    drawing cannot tell apart, and the same ids in every language."""
    base = "decks/pictomania"
    ids: dict[int, dict[str, list[str]]] = {level: {} for level in LEVELS}
    meaning_pairs = meaning_pairs_of(root, report)
    for folder in dirs(root / "decks" / "pictomania"):
        lang = folder.name
        if not folder.is_dir():
            report.add(f"{base}/{lang}", "content_stray_file")
            continue
        if lang not in LANGUAGES:
            report.add(
                f"{base}/{lang}",
                "content_unknown_language",
                language=lang,
                languages=", ".join(LANGUAGES),
            )
            continue
        for entry in dirs(folder):
            file = f"{base}/{lang}/{entry.name}"
            match = _LEVEL_FILE.fullmatch(entry.name)
            if not match or int(match.group(1)) not in LEVELS:
                report.add(
                    file, "deck_unknown_level", name=entry.name, low=LEVELS[0], high=LEVELS[-1]
                )
                continue
            level = int(match.group(1))
            data = read_json(entry, file, report)
            found = (
                []
                if data is None
                else _check_level_file(
                    data, file, level, report, lang, meaning_pairs.get(lang, ())
                )
            )
            ids[level][lang] = found
    for level, by_lang in ids.items():
        if not by_lang:
            continue
        for lang in LANGUAGES:
            if lang not in by_lang:
                report.add(
                    f"{base}/{lang}/level{level}.json",
                    "content_file_missing",
                    others=", ".join(by_lang),
                )
        files = {lang: f"{base}/{lang}/level{level}.json" for lang in by_lang}
        missing_per_language(by_lang, files, report)
