"""What a reviewer writes down about meanings, which spelling cannot show.

**Pairs by meaning**: entries that one drawing cannot tell apart although they
share no letters (hoover / robot vacuum, Skilift / Seilbahn, коробка / ящик).

The mechanical check (:mod:`atelier.content.confusable`) compares spellings,
so it cannot see these. A reviewer keeps them per language in
``decks/meaning_pairs.json`` (see docs/decks.md); a level that holds both
entries of a pair, on one card or on two, fails the deck check. A pair
names entries as they are written on cards; case and spacing are ignored.
(Incognito's glosses, the same kind of note for its words, are its own:
games/incognito/decks.py.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from pydantic import RootModel, StrictStr, ValidationError

PAIRS_FILE = "meaning_pairs.json"
"""Where the pairs live, under ``decks/``."""
class _PairsFile(RootModel[dict[str, list[tuple[StrictStr, StrictStr]]]]):
    """``{"en": [["hoover", "robot vacuum"], ...], "de": [...], ...}``."""


def read_pairs(data: object) -> dict[str, list[tuple[str, str]]] | None:
    """The pairs per language, or None if ``data`` has another shape."""
    try:
        return _PairsFile.model_validate(data).root
    except ValidationError:
        return None


def _key(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split()).casefold()


@dataclass(frozen=True)
class Clash:
    """Both entries of a listed pair in one level: ``card`` holds ``word``
    and ``other_card`` holds ``other`` (the same card when they share one)."""

    card: object
    word: str
    other_card: object
    other: str


def clashes(
    cards: Iterable[tuple[object, object]], pairs: Sequence[tuple[str, str]]
) -> Iterator[Clash]:
    """Listed pairs whose two entries are both on ``cards`` (label, words),
    each reported once, at the card where the second entry appears."""
    where: dict[str, tuple[object, str]] = {}
    order: list[str] = []
    for label, words in cards:
        if not isinstance(words, list):
            continue
        for word in words:
            if isinstance(word, str) and _key(word) not in where:
                where[_key(word)] = (label, word.strip())
                order.append(_key(word))
    rank = {key: n for n, key in enumerate(order)}
    seen: set[frozenset[str]] = set()
    for a, b in pairs:
        ka, kb = _key(a), _key(b)
        if ka == kb or ka not in where or kb not in where or frozenset((ka, kb)) in seen:
            continue
        seen.add(frozenset((ka, kb)))
        first, second = (ka, kb) if rank[ka] < rank[kb] else (kb, ka)
        (card, word), (other_card, other) = where[second], where[first]
        yield Clash(card, word, other_card, other)

