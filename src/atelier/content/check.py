"""Checks of all content: the interface strings here, each game's decks through
its own check (a game's ``decks.py`` uses the machinery below: ``Report``,
``read_json``, the card checks).

The card checks are pure functions over parsed data, shared with custom decks
(:mod:`atelier.content.custom`) and Pictomania's deck check. Each problem is a
:class:`Finding`: a code and its parameters, whose message is ``error.<code>`` in
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
from typing import Any, Protocol, runtime_checkable

from atelier.content import glossary, plurals
from atelier.content.confusable import Entry, pairs
from atelier.content.decks import (
    MAX_THEME_LENGTH,
    MAX_WORD_LENGTH,
    WORDS_PER_CARD,
)
from atelier.content.findings import Finding
from atelier.content.meanings import (
    clashes,
)
from atelier.content.models import (
    ITEMS,
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
class Report:
    problems: list[Problem] = field(default_factory=list)

    def add(self, file: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(file, Finding(code, params)))

    def extend(self, file: str, findings: Iterable[Finding]) -> None:
        self.problems.extend(Problem(file, f) for f in findings)


def read_json(entry: Traversable, file: str, report: Report) -> Any:
    try:
        return json.loads(entry.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        report.add(file, "content_not_utf8")
    except json.JSONDecodeError as exc:
        report.add(file, "content_bad_json", line=exc.lineno, column=exc.colno, error=exc.msg)
    return None


def allowed_pairs(
    raw: object, words: set[str], file: str, report: Report
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


def missing_per_language(
    ids_by_lang: Mapping[str, Sequence[str]], file_of: Mapping[str, str], report: Report
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


def dirs(folder: Traversable) -> list[Traversable]:
    if not folder.is_dir():
        return []
    # Hidden files (.keep, editor swap files) are not content.
    visible = (e for e in folder.iterdir() if not e.name.startswith("."))
    return sorted(visible, key=lambda e: e.name)


def template_fields(text: str) -> set[str]:
    """The ``{fields}`` a ``str.format`` template uses; ValueError if malformed."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def check_strings(folders: Sequence[tuple[str, Traversable]], report: Report) -> None:
    """Every string file of every folder (label, folder): a key is defined once
    over all of them."""
    defined_in: dict[str, str] = {}
    for label, folder in folders:
        _check_string_files(label, folder, defined_in, report)


def _check_string_files(label: str, folder: Traversable, defined_in: dict[str, str],
                        report: Report) -> None:
    for entry in dirs(folder):
        if not entry.name.endswith(".json"):
            continue
        file = f"{label}/{entry.name}"
        data = read_json(entry, file, report)
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
    data: Mapping[str, Mapping[str, object]], key: str, file: str, report: Report
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


@runtime_checkable
class DeckGame(Protocol):
    """A game with decks of its own in the content folder: it checks and counts
    them (its ``decks.py``), so this module names no game."""

    name: str

    def check_decks(self, root: Traversable, report: Report) -> None:
        """Adds every problem of the game's decks under ``root`` to ``report``."""
        ...

    def deck_counts(self, root: Traversable) -> dict[str, dict[str, int]]:
        """Per language, the size of each part of the game's decks."""
        ...


def check_all(root: Traversable, games: Iterable[object],
              game_strings: Sequence[Traversable] = ()) -> list[Problem]:
    """Every problem in the content folder ``root`` (holding decks/, strings/):
    the interface strings there and in ``game_strings`` (the games' own
    ``strings/`` folders, i18n.string_folders), and each game's decks through
    its own check (``DeckGame.check_decks``)."""
    report = Report()
    for game in games:
        if isinstance(game, DeckGame):
            game.check_decks(root, report)
    folders = [("strings", root / "strings")]
    folders += [(_label(folder), folder) for folder in game_strings]
    check_strings(folders, report)
    return report.problems


def _label(folder: Traversable) -> str:
    """``games/NAME/strings`` for a game's folder (its last three path parts)."""
    return "/".join(str(folder).replace("\\", "/").split("/")[-3:])


def stats(root: Traversable, games: Iterable[object]) -> dict[str, dict[str, dict[str, int]]]:
    """Each game's deck sizes per language (``DeckGame.deck_counts``)."""
    return {game.name: game.deck_counts(root) for game in games if isinstance(game, DeckGame)}


def count_items(entry: Traversable, key: str) -> int:
    """How many entries the list ``key`` of a deck file holds (0 if the file is
    missing or not shaped so): what a game's ``deck_counts`` adds up."""
    if not entry.is_file():
        return 0
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return 0
    fields = parsed(OBJECT, data)
    items = parsed(ITEMS, fields.get(key)) if fields is not None else None
    return len(items) if items is not None else 0
