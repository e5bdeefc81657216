"""Words that one drawing cannot tell apart: a mechanical first pass.

Two entries of one level are *confusable* when a guesser looking at a drawing
of one could honestly name the other. What can be caught without a
dictionary, per language (``en``, ``de``, ``uk``):

- **shared stem**: a word of each entry reduces to the same stem after
  stripping common endings (baker / bakery, Angel / Angeln, Erinnern /
  Erinnerung, пекар / пекарня, fire station / fire engine);
- **compound**: a word of one entry starts with the stem of a word of the
  other (surfing / surfboard, fire / firefighter, Feuerwehr / Feuerwehrmann)
  or ends with a whole word of the other (Katze / Hauskatze, ball / football);
- **near-identical**: two words of five letters or more one edit apart
  (Maler / Malen).

Across two cards any of these counts. Within one card, where a theme makes
related words normal (Basketball, Volleyball), only an entry that is wholly
inside the other counts: every word of the shorter entry matches a word of
the longer one (fishing / fishing rod, Hochsprung / Stabhochsprung).

Limits: synonyms and meanings (stonemason / sculptor, climate change / global
warming, burnout / exhaustion) are not caught; Ukrainian vowel alternations
(кінь / коня) and irregular forms are missed; a short stem (under four
letters) is only matched whole. A reviewed pair that is fine may be listed
in a level file's ``"confusable_ok"`` (see docs/decks.md); pairs that clash
by meaning alone are listed by a reviewer instead (:mod:`atelier.content.meanings`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

MIN_STEM = 4
"""Stems shorter than this only match a whole word (car / carpet is no pair)."""
MIN_REST = 4
"""A compound's other part has at least this many letters (fire + fighter, but
not butter + fly)."""
MIN_NEAR = 5
"""Words shorter than this are not compared by edit distance."""
MIN_PREFIX = 6
"""Two compounds on different cards that begin with this many letters alike
are a pair (Krankenhaus / Krankenwagen)."""
MIN_WORD = 3
"""Shorter words (of, in, на) are never compared."""

# Function words: shared by many idioms and titles, they tell nothing apart.
_STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        (
            "the", "and", "for", "with", "from", "into", "onto", "your", "you",
            "our", "their", "his", "her", "its", "one", "two", "not", "off", "out",
            "over", "under", "about", "someone", "something",
        )
    ),
    "de": frozenset(
        (
            "der", "die", "das", "den", "dem", "des", "ein", "eine", "einer",
            "einem", "einen", "eines", "und", "oder", "mit", "von", "vom", "zum",
            "zur", "auf", "aus", "bei", "für", "gegen", "über", "unter", "ohne",
            "vor", "nach", "ist", "sind", "kein", "keine", "nicht", "sich", "sein",
            "seine", "ihr", "ihre", "man", "mehr", "als", "wie",
        )
    ),
    "uk": frozenset(
        (
            "без", "від", "для", "під", "над", "про", "при", "через", "після",
            "між", "біля", "або", "але", "щось", "хтось", "його", "її", "їх",
            "свій", "своя", "своє", "свої", "не", "ні", "як", "що", "це", "той",
            "та",
        )
    ),
}
_ALL_STOPWORDS = frozenset().union(*_STOPWORDS.values())

# Endings stripped to find a stem, per language. Every ending that fits is
# tried, so a word has several candidate stems; two words match when any of
# their candidates (of at least MIN_STEM letters) are equal.
_ENDINGS: dict[str, tuple[str, ...]] = {
    "en": (
        "ations", "ation", "ings", "ing", "eries", "ery", "ers", "er", "ors", "or",
        "ies", "es", "ists", "ist", "ed", "ure", "y", "s", "e",
    ),
    "de": (
        "ungen", "innen", "ung", "erin", "heit", "keit", "chen", "lein", "ern",
        "er", "en", "em", "es", "in", "e", "n", "s",
    ),
    "uk": (
        "ування", "ювання", "ання", "ення", "іння", "ння", "ництво", "ство",
        "ість", "ості", "ниця", "ник", "ець", "ція", "тися", "ться", "ти", "ся",
        "ня", "ар", "ач", "ка", "ки", "ок", "ій", "ий", "ої", "ий", "ів", "ам",
        "ами", "ах", "ом", "ою", "а", "я", "о", "е", "и", "і", "ї", "й", "ь", "у", "ю",
    ),
}
_ALL_ENDINGS = tuple(dict.fromkeys(e for endings in _ENDINGS.values() for e in endings))
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
_DOUBLED = re.compile(r"([bdfgklmnprt])\1$")


def words_of(entry: str, lang: str | None = None) -> tuple[str, ...]:
    """The words of an entry that are compared: lower case (not case-folded:
    ß stays, so Bogenschießen does not end in "essen"), apostrophes unified
    (м’яч = м'яч), without short and function words."""
    text = entry.lower().replace("\u2019", "'").replace("\u02bc", "'")
    stop = _STOPWORDS.get(lang or "", _ALL_STOPWORDS)
    return tuple(w for w in _WORD.findall(text) if len(w) >= MIN_WORD and w not in stop)


@cache
def stems(word: str, lang: str | None) -> frozenset[str]:
    """The word itself and what is left after stripping each ending that fits
    (``lang`` None: the endings of every language)."""
    found = {word}
    for ending in _ENDINGS.get(lang or "", _ALL_ENDINGS):
        if word.endswith(ending):
            stem = word[: -len(ending)]
            found.add(stem)
            if lang in ("en", None):  # running -> runn -> run
                found.add(_DOUBLED.sub(r"\1", stem))
    return frozenset(s for s in found if s == word or len(s) >= MIN_STEM)


_INFLECTION = frozenset("enrstmaoiuyäöüаяоеєиіїуюйь")
"""Letters that endings are made of: Maler / Malen differ in one, Schaf / Schal
(sheep, scarf) do not."""


def _near(a: str, b: str) -> bool:
    """Two forms of one word: one insertion, deletion or substitution apart,
    in the last two letters, and only in letters endings are made of."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    start = len(_common_start(a, b))
    if start < max(len(a), len(b)) - 2:
        return False
    rest = set(a[start:]) ^ set(b[start:])
    if not rest <= _INFLECTION:
        return False
    if len(a) > len(b):
        a, b = b, a
    return a[start + (len(a) == len(b)) :] == b[start + 1 :]


def _word_link(
    a: str, b: str, lang: str | None, loose: bool = False, strict: bool = False
) -> str | None:
    """What words a and b share, or None. ``loose`` also links two compounds
    that begin alike (Feuerwehrmann / Feuerwehrauto); ``strict`` only links
    one word's forms (no compounds, no near forms)."""
    shared = stems(a, lang) & stems(b, lang)
    if shared:
        return max(shared, key=len)
    if strict:
        return None
    for x, y in ((a, b), (b, a)):
        # y is x (or x's stem) plus another word: surf|board, fire|fighter;
        # the longest such start counts, so butter|fly is no pair.
        least = MIN_STEM + (lang == "uk")  # Ukrainian stems of four letters match too much
        starts = [s for s in stems(x, lang) if len(s) >= least and y.startswith(s)]
        if starts and len(y) - len(max(starts, key=len)) >= MIN_REST:
            return max(starts, key=len)
        # y is another word plus x: haus|katze, foot|ball; but not when x is
        # mostly y's ending: cros|sing is cross + ing, not a kind of "sing".
        if (
            len(x) >= MIN_STEM
            and y.endswith(x)
            and len(y) - len(x) >= MIN_REST
            and _root_length(x, y, lang) >= MIN_STEM
        ):
            return x
    if len(a) >= MIN_NEAR and len(b) >= MIN_NEAR and _near(a, b):
        return _common_start(a, b)
    if loose:
        common = _common_start(a, b)
        if len(common) >= MIN_PREFIX and min(len(a), len(b)) - len(common) >= MIN_REST:
            return common
    return None


def _root_length(x: str, y: str, lang: str | None) -> int:
    """How much of x, found at the end of y, is more than y's ending (of two
    letters or more); one letter less when there is such an ending, so that
    a short word plus an ending (ring|en in Skispr|ingen) is not enough."""
    endings = _ENDINGS.get(lang or "", _ALL_ENDINGS)
    ending = max((len(e) for e in endings if len(e) >= 2 and y.endswith(e)), default=0)
    return len(x) - ending - (1 if ending else 0)


def _common_start(a: str, b: str) -> str:
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[:i]


def link(
    a: str, b: str, lang: str | None, same_card: bool = False, strict: bool = False
) -> str | None:
    """What makes entries a and b confusable (a stem or word they share), or None.
    ``strict``: only one entry inside the other, word by word (for a host's
    card against the built-in ones, which the host cannot change)."""
    wa, wb = words_of(a, lang), words_of(b, lang)
    if not wa or not wb:
        return None
    if wa == wb:  # the same entry twice: reported as such, except against built-in cards
        return " ".join(wa) if strict else None
    # One entry inside the other: every word of the shorter finds a partner.
    small, big = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    shared: list[str] = []
    for x in small:
        found = next((f for y in big if (f := _word_link(x, y, lang, strict=strict))), None)
        if found is None:
            break
        shared.append(found)
    else:
        return " ".join(shared)
    if same_card or strict:
        return None
    # On different cards, also the same first word or compound start:
    # fire station / fire engine, пожежна частина / пожежна машина.
    return _word_link(wa[0], wb[0], lang, loose=True)


# --- many entries at once -------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One word of a card: ``card`` labels the card (id or number);
    ``builtin`` marks a built-in card a custom deck is played alongside."""

    card: object
    text: str
    builtin: bool = False


@dataclass(frozen=True)
class Pair:
    first: Entry
    second: Entry
    shared: str


def _keys(word: str, lang: str | None) -> tuple[set[str], set[str]]:
    """(keys a word is filed under, keys it looks up): two entries can only be
    confusable if one looks up a key the other is filed under."""
    filed = {f"s:{s}" for s in stems(word, lang)} | {f"w:{word}"}
    look = set(filed)
    for i in range(MIN_STEM, len(word) - MIN_REST + 1):
        look.add(f"s:{word[:i]}")  # fire|fighter looks up the stem "fire"
    for i in range(MIN_REST, len(word) - MIN_STEM + 1):
        look.add(f"w:{word[i:]}")  # haus|katze looks up the word "katze"
    if len(word) >= MIN_PREFIX + MIN_REST:
        filed.add(f"p:{word[:MIN_PREFIX]}")
        look.add(f"p:{word[:MIN_PREFIX]}")
    if len(word) >= MIN_NEAR:
        for i in range(len(word)):
            key = f"d:{word[:i]}{word[i + 1 :]}"
            filed.add(key)
            look.add(key)
        filed.add(f"d:{word}")
        look.add(f"d:{word}")
    return filed, look


def pairs(
    entries: Sequence[Entry],
    lang: str | None,
    against: Sequence[Entry] = (),
    allowed: Iterable[tuple[str, str]] = (),
) -> Iterator[Pair]:
    """Confusable pairs among ``entries`` (within a card too), and between
    ``entries`` and ``against`` (never within ``against``), in entry order.
    ``allowed`` pairs of texts are reviewed and skipped (either order)."""
    ok = {frozenset(_norm(text) for text in pair) for pair in allowed}
    pool = [*entries, *against]
    filed: defaultdict[str, list[int]] = defaultdict(list)
    looks: list[set[str]] = []
    for index, entry in enumerate(pool):
        mine: set[str] = set()
        for word in words_of(entry.text, lang):
            f, look = _keys(word, lang)
            for key in f:
                filed[key].append(index)
            mine |= look
        looks.append(mine)
    count = len(entries)
    candidates: set[tuple[int, int]] = set()
    for i, look in enumerate(looks):
        for key in look:
            for j in filed.get(key, ()):
                if j != i and min(i, j) < count:
                    candidates.add((min(i, j), max(i, j)))
    for i, j in sorted(candidates):
        a, b = pool[i], pool[j]
        if frozenset((_norm(a.text), _norm(b.text))) in ok:
            continue
        theirs = b.builtin
        shared = link(
            a.text, b.text, lang, same_card=not theirs and a.card == b.card, strict=theirs
        )
        if shared:
            yield Pair(a, b, shared)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("\u2019", "'").split())
