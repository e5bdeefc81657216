"""Checks of all content: Pictomania decks, Incognito words and locations,
interface strings.

The card checks are pure functions over parsed data, shared with custom decks
(:mod:`atelier.content.custom`). Each problem is a :class:`Finding`: a code
and its parameters, whose message is ``error.<code>`` in
``strings/content.json``, so the same problem reads the same in the command's
output and in a host's browser.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import Any

from atelier.content import glossary, plurals
from atelier.content.confusable import Entry, pairs
from atelier.content.decks import (
    LEVELS,
    MAX_LOCATION_LENGTH,
    MAX_THEME_LENGTH,
    MAX_WORD_LENGTH,
    WORDS_PER_CARD,
)
from atelier.content.findings import Finding
from atelier.content.meanings import (
    GLOSSES_FILE,
    PAIRS_FILE,
    clashes,
    read_glosses,
    read_pairs,
)
from atelier.content.models import (
    CARD,
    ITEM,
    ITEMS,
    LEVEL_FILE,
    OBJECT,
    STRINGS_FILE,
    TEXT,
    WORD_PAIRS,
    parsed,
    texts,
)
from atelier.i18n import LANGUAGES

_LEVEL_FILE = re.compile(r"level(\d+)\.json")


@dataclass(frozen=True)
class Problem:
    """A finding in a file, named relative to the content folder."""

    file: str
    finding: Finding

    def line(self) -> str:
        return f"{self.file}: {self.finding.message()}"


def norm(text: str) -> str:
    """How two entries are compared for duplicates: trimmed, case-insensitive."""
    return " ".join(text.split()).casefold()


# --- one card --------------------------------------------------------------


# Invisible characters that break a card's layout or reorder what others read
# (a right-to-left override can make a word display as another).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_control(text: str) -> bool:
    return any(unicodedata.category(c) == "Cc" or c in _BIDI_CONTROLS for c in text)


def _text_findings(
    card: object, position: int, text: str, limit: int, what: str = "word"
) -> Iterator[Finding]:
    """Empty, padded, too long or with control characters: ``what`` is "word" or "theme"."""
    if has_control(text):
        yield Finding(f"deck_{what}_control", {"card": card, "position": position})
    elif not text.strip():
        yield Finding(f"deck_{what}_empty", {"card": card, "position": position})
    elif text != text.strip():
        yield Finding(f"deck_{what}_spaces", {"card": card, "position": position, "word": text})
    elif len(text) > limit:
        yield Finding(
            f"deck_{what}_too_long",
            {"card": card, "position": position, "word": text, "max": limit},
        )


def card_findings(card: object, words: object, theme: object = "") -> list[Finding]:
    """Problems of one card on its own; ``card`` labels it (id or number)."""
    entries = parsed(ITEMS, words)
    if entries is None:
        return [Finding("deck_words_missing", {"card": card})]
    found: list[Finding] = []
    if len(entries) != WORDS_PER_CARD:
        found.append(
            Finding(
                "deck_card_size",
                {"card": card, "count": len(entries), "expected": WORDS_PER_CARD},
            )
        )
    first_at: dict[str, int] = {}
    for position, entry in enumerate(entries, 1):
        word = parsed(TEXT, entry)
        if word is None:
            found.append(Finding("deck_word_not_text", {"card": card, "position": position}))
            continue
        found.extend(_text_findings(card, position, word, MAX_WORD_LENGTH))
        key = norm(word)
        if not key:
            continue
        if key in first_at:
            found.append(
                Finding(
                    "deck_word_twice",
                    {
                        "card": card,
                        "word": word.strip(),
                        "first": first_at[key],
                        "second": position,
                    },
                )
            )
        else:
            first_at[key] = position
    text = parsed(TEXT, theme)
    if text is None:
        found.append(Finding("deck_theme_not_text", {"card": card}))
    elif text:
        found.extend(_text_findings(card, 0, text, MAX_THEME_LENGTH, "theme"))
    return found


def repeated_words(cards: Iterable[tuple[object, object]]) -> list[Finding]:
    """Words on more than one card of a level: each card (label, words) after
    the first that holds a word names the card that had it first."""
    first_card: dict[str, object] = {}
    found: list[Finding] = []
    for label, words in cards:
        for word in dict.fromkeys(texts(words)):
            key = norm(word)
            if not key:
                continue
            if key in first_card and first_card[key] != label:
                found.append(
                    Finding(
                        "deck_word_repeated",
                        {"card": label, "word": word.strip(), "other": first_card[key]},
                    )
                )
            else:
                first_card.setdefault(key, label)
    return found


def _entries(cards: Iterable[tuple[object, object]], builtin: bool = False) -> list[Entry]:
    return [
        Entry(label, word, builtin)
        for label, words in cards
        for word in dict.fromkeys(w for w in texts(words) if w.strip())
    ]


def confusable_words(
    cards: Iterable[tuple[object, object]],
    lang: str | None,
    builtin: Iterable[tuple[object, object]] = (),
    allowed: Iterable[tuple[str, str]] = (),
) -> list[Finding]:
    """Words of one level that one drawing cannot tell apart (see
    :mod:`atelier.content.confusable`): within a card, across ``cards``, and
    between ``cards`` and the ``builtin`` cards they are played alongside.
    ``lang`` None applies the rules of every language."""
    found: list[Finding] = []
    for pair in pairs(_entries(cards), lang, _entries(builtin, True), allowed):
        a, b = pair.first, pair.second
        params: dict[str, Any] = {"card": a.card, "word": a.text, "other": b.text}
        params["shared"] = pair.shared
        if b.builtin:
            found.append(Finding("deck_confusable_builtin", {**params, "other_card": b.card}))
        elif a.card == b.card:
            found.append(Finding("deck_confusable_card", params))
        else:
            found.append(Finding("deck_confusable", {**params, "other_card": b.card}))
    return found


def listed_pairs(
    cards: Iterable[tuple[object, object]], reviewed: Sequence[tuple[str, str]]
) -> list[Finding]:
    """Entries of one level that a reviewer listed as a pair by meaning (see
    :mod:`atelier.content.meanings`)."""
    found: list[Finding] = []
    for clash in clashes(cards, reviewed):
        params: dict[str, Any] = {"card": clash.card, "word": clash.word, "other": clash.other}
        if clash.card == clash.other_card:
            found.append(Finding("deck_meaning_pair_card", params))
        else:
            found.append(Finding("deck_meaning_pair", {**params, "other_card": clash.other_card}))
    return found


def duplicate_ids(ids: Iterable[str]) -> list[Finding]:
    seen: set[str] = set()
    found: list[Finding] = []
    for card_id in ids:
        if card_id in seen:
            found.append(Finding("deck_id_duplicate", {"id": card_id}))
        seen.add(card_id)
    return found


# --- files -------------------------------------------------------------------


@dataclass
class _Report:
    problems: list[Problem] = field(default_factory=list)

    def add(self, file: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(file, Finding(code, params)))

    def extend(self, file: str, findings: Iterable[Finding]) -> None:
        self.problems.extend(Problem(file, f) for f in findings)


def _read_json(entry: Traversable, file: str, report: _Report) -> Any:
    try:
        return json.loads(entry.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        report.add(file, "content_not_utf8")
    except json.JSONDecodeError as exc:
        report.add(file, "content_bad_json", line=exc.lineno, column=exc.colno, error=exc.msg)
    return None


def _allowed_pairs(
    raw: object, words: set[str], file: str, report: _Report
) -> list[tuple[str, str]]:
    """A level file's ``confusable_ok``: pairs reviewed and kept on purpose."""
    if raw is None:
        return []
    pairs = parsed(WORD_PAIRS, raw)
    if pairs is None:
        report.add(file, "deck_confusable_ok_bad")
        return []
    for pair in pairs:
        for word in pair:
            if norm(word) not in words:
                report.add(file, "deck_confusable_ok_stale", word=word)
    return pairs


def _missing_per_language(
    ids_by_lang: Mapping[str, Sequence[str]], file_of: Mapping[str, str], report: _Report
) -> None:
    """Every id present in one language must be present in all of them."""
    everywhere: dict[str, None] = {}
    for ids in ids_by_lang.values():
        everywhere.update(dict.fromkeys(ids))
    for lang, ids in ids_by_lang.items():
        have = set(ids)
        for card_id in everywhere:
            if card_id not in have:
                others = [o for o, o_ids in ids_by_lang.items() if card_id in o_ids]
                report.add(
                    file_of[lang], "content_id_missing", id=card_id, others=", ".join(others)
                )


def _dirs(folder: Traversable) -> list[Traversable]:
    if not folder.is_dir():
        return []
    # Hidden files (.keep, editor swap files) are not content.
    visible = (e for e in folder.iterdir() if not e.name.startswith("."))
    return sorted(visible, key=lambda e: e.name)


def _meaning_pairs(root: Traversable, report: _Report) -> dict[str, list[tuple[str, str]]]:
    """The reviewer's pairs by meaning per language; none if the file is absent."""
    entry = root / "decks" / PAIRS_FILE
    file = f"decks/{PAIRS_FILE}"
    if not entry.is_file():
        return {}
    data = _read_json(entry, file, report)
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
    report: _Report,
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
    allowed = _allowed_pairs(deck.confusable_ok, words, file, report)
    report.extend(file, confusable_words(labelled, lang, allowed=allowed))
    report.extend(file, listed_pairs(labelled, meaning_pairs))
    return ids


def check_pictomania(root: Traversable, report: _Report) -> None:
    base = "decks/pictomania"
    ids: dict[int, dict[str, list[str]]] = {level: {} for level in LEVELS}
    meaning_pairs = _meaning_pairs(root, report)
    for folder in _dirs(root / "decks" / "pictomania"):
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
        for entry in _dirs(folder):
            file = f"{base}/{lang}/{entry.name}"
            match = _LEVEL_FILE.fullmatch(entry.name)
            if not match or int(match.group(1)) not in LEVELS:
                report.add(
                    file, "deck_unknown_level", name=entry.name, low=LEVELS[0], high=LEVELS[-1]
                )
                continue
            level = int(match.group(1))
            data = _read_json(entry, file, report)
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
        _missing_per_language(by_lang, files, report)


def _check_items(data: Any, kind: str, limit: int, file: str, report: _Report) -> list[str]:
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


def check_incognito(root: Traversable, report: _Report) -> None:
    base = "decks/incognito"
    ids: dict[str, dict[str, list[str]]] = {"words": {}, "locations": {}}
    limits = {"words": MAX_WORD_LENGTH, "locations": MAX_LOCATION_LENGTH}
    for entry in _dirs(root / "decks" / "incognito"):
        file = f"{base}/{entry.name}"
        lang = entry.name.removesuffix(".json")
        if not entry.name.endswith(".json") or lang not in LANGUAGES:
            report.add(
                file, "content_unknown_language", language=lang, languages=", ".join(LANGUAGES)
            )
            continue
        data = _read_json(entry, file, report)
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
        _missing_per_language(by_lang, {lang: f"{base}/{lang}.json" for lang in by_lang}, report)
    _check_glosses(root, ids["words"], report)


def _check_glosses(
    root: Traversable, word_ids: Mapping[str, Sequence[str]], report: _Report
) -> None:
    """Every Incognito word id has a gloss naming its object, and every gloss a word."""
    entry = root / "decks" / GLOSSES_FILE
    file = f"decks/{GLOSSES_FILE}"
    if not entry.is_file():
        return
    data = _read_json(entry, file, report)
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


def template_fields(text: str) -> set[str]:
    """The ``{fields}`` a ``str.format`` template uses; ValueError if malformed."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def check_strings(root: Traversable, report: _Report) -> None:
    defined_in: dict[str, str] = {}
    for entry in _dirs(root / "strings"):
        if not entry.name.endswith(".json"):
            continue
        file = f"strings/{entry.name}"
        data = _read_json(entry, file, report)
        if data is None:
            continue
        table = parsed(STRINGS_FILE, data)
        if table is None:
            report.add(file, "strings_bad_shape")
            continue
        for lang in table:
            if lang not in LANGUAGES:
                report.add(
                    file, "content_unknown_language", language=lang, languages=", ".join(LANGUAGES)
                )
        keys: dict[str, None] = {}
        for lang in LANGUAGES:
            keys.update(dict.fromkeys(table.get(lang, {})))
        for key in keys:
            if key in defined_in:
                report.add(file, "strings_twice", name=key, other=defined_in[key])
            else:
                defined_in[key] = file
            _check_key(table, key, file, report)
        report.extend(file, [*plurals.plural_findings(table), *glossary.glossary_findings(table)])


def _check_key(
    data: Mapping[str, Mapping[str, object]], key: str, file: str, report: _Report
) -> None:
    fields: dict[str, set[str]] = {}
    for lang in LANGUAGES:
        raw = data.get(lang, {}).get(key)
        # a plural object is checked as its forms together (fields, emptiness)
        text = parsed(TEXT, plurals.flat_text(raw))
        if raw is None:
            report.add(file, "strings_missing", name=key, language=lang)
        elif text is None:
            report.add(file, "strings_not_text", name=key, language=lang)
        elif not text.strip():
            report.add(file, "strings_empty", name=key, language=lang)
        else:
            try:
                fields[lang] = template_fields(text)
            except ValueError as exc:
                report.add(file, "strings_bad_template", name=key, language=lang, error=str(exc))
    if len({frozenset(f) for f in fields.values()}) > 1:
        detail = "; ".join(f"{lang}: {', '.join(sorted(f)) or '-'}" for lang, f in fields.items())
        report.add(file, "strings_fields", name=key, detail=detail)


def check_all(root: Traversable) -> list[Problem]:
    """Every problem in the content folder ``root`` (holding decks/, strings/)."""
    report = _Report()
    check_pictomania(root, report)
    check_incognito(root, report)
    check_strings(root, report)
    return report.problems


# --- counts -------------------------------------------------------------------


def _count(entry: Traversable, key: str) -> int:
    if not entry.is_file():
        return 0
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return 0
    fields = parsed(OBJECT, data)
    items = parsed(ITEMS, fields.get(key)) if fields is not None else None
    return len(items) if items is not None else 0


def stats(root: Traversable) -> dict[str, dict[str, dict[str, int]]]:
    """Cards per level and Incognito words/locations, for every language."""
    decks = root / "decks"
    return {
        "pictomania": {
            lang: {
                str(level): _count(decks / "pictomania" / lang / f"level{level}.json", "cards")
                for level in LEVELS
            }
            for lang in LANGUAGES
        },
        "incognito": {
            lang: {
                kind: _count(decks / "incognito" / f"{lang}.json", kind)
                for kind in ("words", "locations")
            }
            for lang in LANGUAGES
        },
    }
