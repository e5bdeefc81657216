"""A host's own Pictomania cards: read from JSON or CSV, checked like the
built-in decks, written back out, and handed to the engine as settings.

JSON: ``{"cards": [{"id": optional, "level": 1-4, "theme": optional,
"words": [7 strings]}]}``. CSV: a header ``level,theme,word1,...,word7`` (``id``
and ``theme`` optional, any column order, comma, semicolon or tab separated),
then one card per row. Entries are trimmed; ids ``C-001``... are given to
cards without one. Any problem raises :class:`RuleError` naming the card.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from atelier.content.check import (
    card_findings,
    confusable_words,
    duplicate_ids,
    repeated_words,
)
from atelier.content.decks import LEVELS, MAX_WORD_LENGTH, WORDS_PER_CARD, Card
from atelier.content.findings import Finding
from atelier.errors import RuleError
from atelier.jsoncheck import is_int

Format = Literal["json", "csv"]
Mode = Literal["alongside", "instead"]

MAX_CARDS = 500
MAX_BYTES = 64 * 1024
MODES: tuple[str, ...] = ("alongside", "instead")
WORD_COLUMNS: tuple[str, ...] = tuple(f"word{i}" for i in range(1, WORDS_PER_CARD + 1))
_ID = re.compile(r"[\w.-]+")
_BUILT_IN_ID = re.compile(r"L\d+-\d+", re.IGNORECASE)
"""Ids shaped like the built-in cards' are refused: in "alongside" mode they
would clash with a built-in card of the same id."""
_CARD_FIELDS = frozenset({"id", "level", "theme", "words"})


@dataclass(frozen=True)
class _Raw:
    """One card as read, before checks: number is its 1-based position."""

    number: int
    id: object
    level: object
    theme: object
    words: object


def _fail(finding: Finding) -> RuleError:
    return RuleError(finding.code, **finding.params)


def _trim(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


def sniff_format(text: str) -> Format:
    """JSON if the text starts like a JSON value, otherwise CSV."""
    return "json" if text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[") else "csv"


def parse_deck(text: str, fmt: Format | None = None, lang: str | None = None) -> list[Card]:
    """The cards of a custom deck, or RuleError saying what is wrong and where.
    ``lang`` is the deck's language, for the confusable-word check (None: the
    rules of every language)."""
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise RuleError("custom_too_big", size=-(-size // 1024), max=MAX_BYTES // 1024)
    text = text.removeprefix("\ufeff")
    fmt = fmt or sniff_format(text)
    if fmt == "json":
        raws = _read_json(text)
    elif fmt == "csv":
        raws = _read_csv(text)
    else:
        raise RuleError("custom_format", fmt=str(fmt))
    return _checked(raws, lang)


def cards_from_settings(raw: object) -> list[Card]:
    """Cards from the engine's ``custom_cards`` setting, checked the same way
    except for confusable words (a game already under way keeps its deck)."""
    return _checked(_from_data({"cards": raw}), None, confusables=False)


def confusable_findings(
    cards: Sequence[Card], lang: str | None, builtin: Sequence[Card] = ()
) -> list[Finding]:
    """Confusable words within each level of a custom deck and, when it is
    played alongside them, against the ``builtin`` cards of the same level."""
    found: list[Finding] = []
    # A card without an id is named by its place in the deck: two cards with the
    # same empty name would pass for one card, whose words are not compared.
    named = [(c.id or n, c) for n, c in enumerate(cards, 1)]
    for level in LEVELS:
        mine = [(name, list(c.words)) for name, c in named if c.level == level]
        if mine:
            theirs = [(c.id, list(c.words)) for c in builtin if c.level == level]
            found.extend(confusable_words(mine, lang, theirs))
    return found


def check_confusables(
    cards: Sequence[Card], lang: str | None, builtin: Sequence[Card] = ()
) -> None:
    """RuleError for the first confusable pair (see :func:`confusable_findings`)."""
    for finding in confusable_findings(cards, lang, builtin):
        raise _fail(finding)


def _read_json(text: str) -> list[_Raw]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError("custom_bad_json", line=exc.lineno, column=exc.colno) from None
    return _from_data(data)


def _from_data(data: object) -> list[_Raw]:
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise RuleError("custom_bad_shape")
    raws: list[_Raw] = []
    for number, card in enumerate(data["cards"], 1):
        if not isinstance(card, dict):
            raise RuleError("deck_card_not_object", card=number)
        for key in card:
            if key not in _CARD_FIELDS:
                raise RuleError("deck_unknown_field", card=number, field=str(key))
        words = card.get("words")
        if isinstance(words, list):
            words = [_trim(w) for w in words]
        raws.append(
            _Raw(number, _trim(card.get("id")), card.get("level"), _trim(card.get("theme")), words)
        )
    return raws


def _delimiter(header: str) -> str:
    # Spreadsheets in German locales save CSV with semicolons.
    return max((",", ";", "\t"), key=header.count)


def _read_csv(text: str) -> list[_Raw]:
    header_line = next((line for line in text.splitlines() if line.strip()), "")
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(header_line))
    try:
        header: list[str] | None = None
        raws: list[_Raw] = []
        for row in rows:
            if not any(cell.strip() for cell in row):
                continue
            if header is None:
                header = _header(row)
                continue
            cells = [cell.strip() for cell in row]
            while len(cells) > len(header) and not cells[-1]:
                cells.pop()
            if len(cells) != len(header):
                raise RuleError(
                    "custom_csv_cells", line=rows.line_num, count=len(cells), expected=len(header)
                )
            values = dict(zip(header, cells, strict=True))
            raws.append(
                _Raw(
                    len(raws) + 1,
                    values.get("id") or None,
                    values["level"],
                    values.get("theme", ""),
                    [values[c] for c in WORD_COLUMNS],
                )
            )
    except csv.Error as exc:
        raise RuleError("custom_csv_broken", line=rows.line_num, error=str(exc)) from None
    if header is None:
        raise RuleError("custom_empty")
    return raws


def _header(row: Sequence[str]) -> list[str]:
    names = [cell.strip().lower() for cell in row]
    while names and not names[-1]:  # spreadsheets pad rows with empty cells
        names.pop()
    known = {"id", "level", "theme", *WORD_COLUMNS}
    for name in names:
        if name not in known:
            raise RuleError("custom_csv_header_unknown", column=name)
    for name in dict.fromkeys(names):
        if names.count(name) > 1:
            raise RuleError("custom_csv_header_twice", column=name)
    for name in ("level", *WORD_COLUMNS):
        if name not in names:
            raise RuleError("custom_csv_header_missing", column=name)
    return names


def _level(raw: _Raw) -> int:
    level = raw.level
    if isinstance(level, str) and level.strip().isdigit():
        level = int(level)
    if not is_int(level) or level not in LEVELS:
        shown = "" if level is None else str(level)
        raise RuleError(
            "custom_level", card=raw.number, level=shown, low=LEVELS[0], high=LEVELS[-1]
        )
    return level


def _check_id(raw: _Raw) -> None:
    if raw.id is None or raw.id == "":
        return
    if not (isinstance(raw.id, str) and len(raw.id) <= MAX_WORD_LENGTH and _ID.fullmatch(raw.id)):
        raise RuleError("custom_id_invalid", card=raw.number, id=str(raw.id), max=MAX_WORD_LENGTH)
    if _BUILT_IN_ID.fullmatch(raw.id):
        raise RuleError("custom_id_reserved", card=raw.number, id=raw.id)


def _checked(raws: list[_Raw], lang: str | None, confusables: bool = True) -> list[Card]:
    if not raws:
        raise RuleError("custom_empty")
    if len(raws) > MAX_CARDS:
        raise RuleError("custom_too_many", count=len(raws), max=MAX_CARDS)
    levels: list[int] = []
    for raw in raws:
        levels.append(_level(raw))
        _check_id(raw)
        theme = "" if raw.theme is None else raw.theme
        for finding in card_findings(raw.number, raw.words, theme):
            raise _fail(finding)
    given = [raw.id for raw in raws if isinstance(raw.id, str) and raw.id]
    for finding in duplicate_ids(given):
        raise _fail(finding)
    for level in LEVELS:
        same = [
            (raw.number, raw.words) for raw, lv in zip(raws, levels, strict=True) if lv == level
        ]
        for finding in repeated_words(same):
            raise _fail(finding)
        if confusables:
            for finding in confusable_words(same, lang):
                raise _fail(finding)
    return _with_ids(raws, levels, set(given))


def _with_ids(raws: Iterable[_Raw], levels: Iterable[int], taken: set[str]) -> list[Card]:
    counter = 0
    cards: list[Card] = []
    for raw, level in zip(raws, levels, strict=True):
        card_id = raw.id if isinstance(raw.id, str) and raw.id else ""
        while not card_id:
            counter += 1
            candidate = f"C-{counter:03d}"
            card_id = "" if candidate in taken else candidate
        assert isinstance(raw.words, list) and isinstance(raw.theme, str | None)
        cards.append(Card(card_id, level, tuple(raw.words), raw.theme or ""))
    return cards


def export_deck(cards: Iterable[Card], fmt: Format) -> str:
    """The cards as a file that :func:`parse_deck` reads back unchanged."""
    cards = list(cards)
    if fmt == "json":
        data = {
            "cards": [
                {"id": c.id, "level": c.level, "theme": c.theme, "words": list(c.words)}
                for c in cards
            ]
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["id", "level", "theme", *WORD_COLUMNS])
        for c in cards:
            writer.writerow([c.id, c.level, c.theme, *c.words])
        return out.getvalue()
    raise RuleError("custom_format", fmt=str(fmt))


def cards_to_settings(cards: Iterable[Card], mode: Mode = "alongside") -> dict[str, Any]:
    """The Pictomania settings that put these cards in play:
    ``{"custom_cards": [{"id", "level", "words"}], "custom_mode": mode}``."""
    if mode not in MODES:
        raise RuleError("bad_settings", field="custom_mode")
    return {
        "custom_cards": [{"id": c.id, "level": c.level, "words": list(c.words)} for c in cards],
        "custom_mode": mode,
    }


def deck_summary(cards: Iterable[Card]) -> Mapping[int, int]:
    """Cards per level (every level present), e.g. for a host's upload preview."""
    counts = dict.fromkeys(LEVELS, 0)
    for card in cards:
        counts[card.level] += 1
    return counts
