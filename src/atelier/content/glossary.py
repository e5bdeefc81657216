"""The interface strings use the glossary's terms.

``glossary.json`` (beside this module; docs/glossary.md explains each term)
lists, per term and language, the word the interface uses and the words it
must not use for the same thing. A word to avoid is a stem: it matches at the
start of a word, in any case, so one entry covers a Ukrainian or German word's
endings ("Ускладнен" finds "Ускладнений" and "ускладненому"); one that ends in a
space is a whole word ("Stein " finds "Stein," but not "Steinbock").

Pure: it takes a strings file's parsed data and returns findings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from atelier.content import plurals
from atelier.content.findings import Finding
from atelier.i18n import LANGUAGES

_FIELD = re.compile(r"\{\w*\}")


@dataclass(frozen=True)
class Avoid:
    term: str  # the glossary entry, in English ("host")
    use: str  # the word to use instead, in the string's language
    word: str  # the stem to avoid
    pattern: re.Pattern[str]


def parse(data: Mapping[str, object]) -> dict[str, list[Avoid]]:
    """Words to avoid per language, from the glossary's JSON."""
    found: dict[str, list[Avoid]] = {lang: [] for lang in LANGUAGES}
    terms = data.get("terms")
    for entry in terms if isinstance(terms, list) else []:
        for lang in LANGUAGES:
            words = entry[lang]
            for word in words.get("avoid", []):
                # a trailing space marks a whole word ("Stein " is not "Steinbock")
                end = r"(?!\w)" if word.endswith(" ") else ""
                pattern = re.compile(rf"(?<!\w){re.escape(word.strip())}{end}", re.IGNORECASE)
                found[lang].append(Avoid(entry["term"], words["use"], word, pattern))
    return found


@cache
def avoided() -> dict[str, list[Avoid]]:
    text = (resources.files("atelier") / "content" / "glossary.json").read_text(encoding="utf-8")
    return parse(json.loads(text))


def glossary_findings(
    data: Mapping[str, Mapping[str, object]], words: Mapping[str, list[Avoid]] | None = None
) -> Iterator[Finding]:
    """Texts of one strings file (``{lang: {key: text}}``) that use a word the
    glossary says not to (``words``: the shipped glossary unless given)."""
    words = avoided() if words is None else words
    for lang in LANGUAGES:
        for key, value in data.get(lang, {}).items():
            text = plurals.flat_text(value)
            if not isinstance(text, str):
                continue
            text = _FIELD.sub(" ", text)  # "{brushes}" names a field, not a word
            for avoid in words.get(lang, []):
                if avoid.pattern.search(text):
                    yield Finding(
                        "strings_glossary",
                        {
                            "name": key,
                            "language": lang,
                            "word": avoid.word,
                            "term": avoid.term,
                            "use": avoid.use,
                        },
                    )
