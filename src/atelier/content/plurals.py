"""Counted interface strings have their language's plural forms.

A text with a count in it ("{count} points") reads wrong for some numbers
unless it is a plural object (``atelier.i18n``): one form per CLDR plural
category of its language, picked by the count. This check finds

* a key whose plain text puts a number field right before a word it counts
  ("{max} players") in any language, or that is a plural object in another
  language: every language must give it plural forms;
* a plural object without one of its language's categories, with a category
  its language does not have, or with a form that is not text.

Pure: it takes a strings file's parsed data and returns findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from atelier.content.findings import Finding
from atelier.i18n import LANGUAGES, PLURAL_BY, PLURAL_FIELD, plural_categories

# Fields that carry a number of things. Ordinals and labels ("Round {n} of",
# "Card {card}") are not counts: the word after them decides (see _COUNTED).
NUMBER_FIELDS = frozenset(
    {
        "count", "n", "max", "min", "need", "have", "needed", "expected", "rounds",
        "total", "seconds", "points", "brushes", "size", "per_minute",
    }
)
# A number field followed by a word: the word is counted unless it is one of
# these (prepositions and conjunctions after a number read the same for all).
_NOT_NOUNS = {
    "en": {"of", "to", "and", "or", "a", "an", "at", "in", "on", "for", "from", "left", "s"},
    "de": {"von", "bis", "und", "oder", "aus", "für", "pro", "im", "in", "s"},
    "uk": {"з", "із", "до", "та", "і", "й", "на", "за", "у", "в", "с"},
}
# "+{n} …" is a score change, not a count of the word after it.
_COUNTED = re.compile(r"(?<!\+)\{(\w+)\}\s+(\w+)(\.?)")


def counted_word(lang: str, text: str) -> str | None:
    """The word a number field counts in ``text`` ("players" in "{max} players"), if any."""
    for field_name, word, dot in _COUNTED.findall(text):
        if field_name not in NUMBER_FIELDS or word.casefold() in _NOT_NOUNS.get(lang, set()):
            continue
        if word.isupper() or (dot and len(word) <= 4):  # a unit or abbreviation (KB, Pkt.)
            continue
        if lang == "de" and not word[0].isupper():  # German nouns are capitalised: a verb
            continue
        return str(word)
    return None


def is_plural(value: object) -> bool:
    return isinstance(value, dict)


def forms(value: Mapping[str, object]) -> dict[str, object]:
    """A plural object's forms, without its ``by``."""
    return {k: v for k, v in value.items() if k != PLURAL_BY}


def flat_text(value: object) -> object:
    """A plural object's forms as one text (for the checks of fields and emptiness);
    anything else as it is."""
    if isinstance(value, dict) and value and all(isinstance(v, str) for v in value.values()):
        return "\n".join(str(v) for k, v in value.items() if k != PLURAL_BY)
    return value


def plural_findings(data: Mapping[str, Mapping[str, object]]) -> Iterator[Finding]:
    """Problems of the counted texts of one strings file (``{lang: {key: text}}``)."""
    keys: dict[str, None] = {}
    for lang in LANGUAGES:
        keys.update(dict.fromkeys(data.get(lang, {})))
    for key in keys:
        texts = {lang: data[lang][key] for lang in LANGUAGES if key in data.get(lang, {})}
        words = [
            w for lang, v in texts.items() if isinstance(v, str) and (w := counted_word(lang, v))
        ]
        counted = words[0] if words else PLURAL_FIELD
        plural = bool(words) or any(is_plural(v) for v in texts.values())
        for lang, text in texts.items():
            if isinstance(text, str):
                if plural:
                    yield Finding(
                        "strings_plural_missing", {"name": key, "language": lang, "word": counted}
                    )
            elif isinstance(text, dict):
                yield from _form_findings(key, lang, text)


def _form_findings(key: str, lang: str, text: Mapping[str, object]) -> Iterator[Finding]:
    wanted = plural_categories(lang)
    have = forms(text)
    for category in sorted(wanted - set(have)):
        yield Finding(
            "strings_plural_form_missing", {"name": key, "language": lang, "form": category}
        )
    for category in sorted(set(have) - wanted):
        yield Finding(
            "strings_plural_form_unknown",
            {"name": key, "language": lang, "form": category, "forms": ", ".join(sorted(wanted))},
        )
    by = text.get(PLURAL_BY, PLURAL_FIELD)
    if not isinstance(by, str) or not all(isinstance(v, str) for v in have.values()):
        yield Finding("strings_not_text", {"name": key, "language": lang})
