"""Every refusal a player, host or scorer user can meet reads naturally in
English, German and Ukrainian: each error code raised anywhere in the package
has a message in every language, with its fields filled in."""

from __future__ import annotations

import re
import string
from collections import defaultdict
from pathlib import Path

from atelier.content.plurals import flat_text
from atelier.errors import RuleError
from atelier.i18n import LANGUAGES, catalog


def texts(lang: str) -> dict[str, str]:
    """A language's strings, each plural object's forms as one text."""
    return {k: str(flat_text(v)) for k, v in catalog()[lang].items()}

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "atelier"
RAISED = (
    re.compile(r'require\((?:[^()]|\([^()]*\))*?,\s*"([a-z_.]+)"', re.S),
    re.compile(r'(?:RuleError|InkError)\(\s*"([a-z_.]+)"'),
)


def raised_codes() -> dict[str, set[str]]:
    """code -> the modules that raise it."""
    where: dict[str, set[str]] = defaultdict(set)
    for module in PACKAGE.rglob("*.py"):
        text = module.read_text(encoding="utf-8")
        for pattern in RAISED:
            for code in pattern.findall(text):
                where[code].add(str(module.relative_to(PACKAGE)))
    return where


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_errors_of_every_area() -> None:
    codes = raised_codes()
    for expected in ("own_drawing", "incognito.tile_used", "unknown_room", "bad_settings",
                     "game_over", "not_your_turn"):
        assert expected in codes, expected


def test_every_raised_error_is_translated_in_every_language() -> None:
    strings = {lang: texts(lang) for lang in LANGUAGES}
    missing = [
        (code, lang, sorted(modules))
        for code, modules in raised_codes().items()
        for lang in LANGUAGES
        if not strings[lang].get(f"error.{code}")
    ]
    assert missing == []


def test_translations_differ_from_english_and_keep_its_fields() -> None:
    strings = {lang: texts(lang) for lang in LANGUAGES}
    for code in raised_codes():
        english = strings["en"][f"error.{code}"]
        for lang in ("de", "uk"):
            text = strings[lang][f"error.{code}"]
            assert text != english, (code, lang)
            assert fields(text) == fields(english), (code, lang)


def test_a_message_names_what_it_is_about_in_every_language() -> None:
    err = RuleError("already_guessed", name="Bohdan")
    assert all("Bohdan" in err.message(lang) for lang in LANGUAGES)
    assert "4" in RuleError("incognito.tile_twice", player="Ben", tile=4).message("uk")


# --- one voice per language (issue 10) ------------------------------------------

AMERICAN = re.compile(
    r"\b(colors?|colored|favou?rite|favor\w*|center\w*|gray|behavior\w*|canceled|theater"
    r"|\w+(?<!s)iz(?:e|es|ed|ing|ation)|\w+yz(?:e|ed|es|ing)|toward)\b",
    re.I,
)


def test_english_strings_use_british_spelling_and_one_apostrophe() -> None:
    english = texts("en")
    american = {k: m.group(0) for k, v in english.items() if (m := AMERICAN.search(v))}
    assert american == {}
    assert [k for k, v in english.items() if "'" in v] == []  # typographic ’ throughout
    assert AMERICAN.search("Pick a color") and AMERICAN.search("organized")
    assert not AMERICAN.search("the size of the colour")


def test_ukrainian_strings_use_the_typographic_apostrophe_and_do_not_inflect_names() -> None:
    ukrainian = texts("uk")
    assert [k for k, v in ukrainian.items() if "'" in v or "\u02bc" in v] == []
    # "гравця {name}" reads a woman's name as a man's genitive (гравця Олександра).
    assert [k for k, v in ukrainian.items() if re.search(r"гравц\w* \{", v)] == []
    assert [k for k, v in ukrainian.items() if "Картк" in v or "картк" in v] == []


def test_ukrainian_uses_the_em_dash_and_no_bracketed_gender_forms() -> None:
    ukrainian = texts("uk")
    # The en dash stays in ranges (1–6); between clauses Ukrainian uses —.
    assert [k for k, v in ukrainian.items() if " – " in v] == []
    # "вгадав(-ла)": a sentence that needs no gender reads better than brackets.
    assert [k for k, v in ukrainian.items() if re.search(r"\w\(-\w+\)", v)] == []
    assert re.search(r"\w\(-\w+\)", "вгадав(-ла)")


def test_english_strings_use_typographic_quotes() -> None:
    english = texts("en")
    # A JSON example ([["hot dog", ...]] or {{"w025": ...}}) keeps JSON's own quotes.
    quoted = [k for k, v in english.items() if '"' in re.sub(r"\[\[.*\]\]|\{\{.*\}\}", "", v)]
    assert quoted == []
