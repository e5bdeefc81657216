"""Every Incognito message a player or a scorer user can see exists in English, German and
Ukrainian, with the same fields."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

from atelier.games.core import RuleError
from atelier.i18n import LANGUAGES

SOURCE = Path(__file__).parent.parent / "src" / "atelier" / "games" / "incognito"
PARAMS = {"player": "Ben", "author": "Ann", "tile": 7, "max": 6, "need": 18, "have": 3,
          "first": "Ann", "second": "Ben", "name": "k", "line": 1, "column": 2,
          "detail": "d", "field": "votes", "min": 3}


def strings() -> dict[str, dict[str, str]]:
    path = resources.files("atelier") / "content" / "strings" / "incognito.json"
    data: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_in_every_language_with_the_same_fields() -> None:
    data = strings()
    assert set(data) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert set(data[lang]) == set(data["en"]), lang
        for key, english in data["en"].items():
            assert data[lang][key].strip(), (lang, key)
            assert fields(data[lang][key]) == fields(english), (lang, key)
            assert fields(english) <= set(PARAMS) | {"round", "rounds", "seconds",
                                                     "points", "names"}, key


def test_every_error_raised_is_translated_and_filled_in() -> None:
    codes: set[str] = set()
    for module in SOURCE.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        codes |= set(re.findall(r'require\((?:[^()]|\([^()]*\))*?,\s*"([a-z_.]+)"', text))
        codes |= set(re.findall(r'RuleError\(\s*"([a-z_.]+)"', text))
    assert {"incognito.own_drawing", "incognito.tile_used", "incognito.shared_tile",
            "incognito.time_up", "bad_settings"} <= codes
    for code in codes:
        messages = RuleError(code, **PARAMS).messages()
        assert len(set(messages.values())) == len(LANGUAGES), code
        for lang, message in messages.items():
            assert not message.startswith("error."), (code, lang)
            assert "{" not in message and "\n" not in message, (code, lang)


def test_german_and_ukrainian_name_the_player() -> None:
    assert "Ben" in RuleError("incognito.tile_twice", player="Ben", tile=4).message("de")
    assert "4" in RuleError("incognito.tile_twice", player="Ben", tile=4).message("uk")
