"""Every message a Pictomania player can see exists in English, German and Ukrainian."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

from atelier.games.core import RuleError
from atelier.i18n import LANGUAGES

SOURCE = Path(__file__).parent.parent / "src" / "atelier" / "games" / "pictomania"


def strings() -> dict[str, dict[str, str]]:
    path = resources.files("atelier") / "content" / "strings" / "pictomania.json"
    data: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_in_every_language_with_the_same_fields() -> None:
    data = strings()
    assert set(data) == set(LANGUAGES)
    for key, english in data["en"].items():
        for lang in LANGUAGES:
            assert data[lang].get(key), (lang, key)
            assert fields(data[lang][key]) == fields(english), (lang, key)
    assert len({data["en"][k] for k in data["en"]}) == len(data["en"])


def test_every_error_the_engine_raises_is_translated() -> None:
    codes: set[str] = set()
    for module in SOURCE.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        codes |= set(re.findall(r'require\((?:[^()]|\([^()]*\))*?,\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'RuleError\("([a-z_]+)"', text))
    assert {"own_drawing", "number_spent", "already_guessed", "bad_settings"} <= codes
    for code in codes:
        for lang in LANGUAGES:
            message = RuleError(code, name="X", number=3, value=2, field="f").message(lang)
            assert message != f"error.{code}", (code, lang)
    assert "Ben" in RuleError("already_guessed", name="Ben").message("uk")
