"""The rules summaries the lobby shows: complete, in order, and true to RULINGS.md."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from atelier.i18n import LANGUAGES, translate

SECTIONS = ("pictomania", "pictomania.first", "pictomania.second", "incognito", "piet")


def rules() -> dict[str, dict[str, str]]:
    path = resources.files("atelier") / "content" / "strings" / "rules.json"
    data: dict[str, dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def paragraphs(section: str, lang: str) -> list[str]:
    """What a client shows: the title, then p1, p2, ... until one is missing."""
    texts = rules()[lang]
    shown = [texts[f"rules.{section}.title"]]
    n = 1
    while f"rules.{section}.p{n}" in texts:
        shown.append(texts[f"rules.{section}.p{n}"])
        n += 1
    return shown


@pytest.mark.parametrize("section", SECTIONS)
def test_every_section_reads_in_order_in_every_language(section: str) -> None:
    en = paragraphs(section, "en")
    assert len(en) >= 4
    for lang in LANGUAGES:
        texts = paragraphs(section, lang)
        assert len(texts) == len(en), lang
        assert all(t.strip() for t in texts)
        # numbers carry the rules: the same ones must appear in each translation
        for english, translated in zip(en, texts, strict=True):
            assert _digits(english) == _digits(translated), (lang, english)


def _digits(text: str) -> list[str]:
    return sorted(c for c in text if c.isdigit())


def test_no_stray_rules_keys() -> None:
    for lang in LANGUAGES:
        shown = {f"rules.{s}.{k}" for s in SECTIONS for k in ("title",)}
        for section in SECTIONS:
            shown.update(f"rules.{section}.p{n}" for n in range(1, len(paragraphs(section, lang))))
        assert set(rules()[lang]) == shown


def test_editions_state_their_rounds_and_cards() -> None:
    first = " ".join(paragraphs("pictomania.first", "en"))
    second = " ".join(paragraphs("pictomania.second", "en"))
    assert "5 rounds" in first and "Six word cards" in first
    assert "4 rounds" in second and "Three word cards" in second
    assert "learning round" in second.lower()
    assert "5 Runden" in " ".join(paragraphs("pictomania.first", "de"))
    assert "4 раунди" in " ".join(paragraphs("pictomania.second", "uk"))


def test_scoring_examples_match_the_rulebooks() -> None:
    assert "3 + 2 + 1 = 6" in " ".join(paragraphs("piet", "uk"))
    incognito = " ".join(paragraphs("incognito", "de"))
    assert "1 Punkt" in incognito and "2 Punkte" in incognito
    assert translate("rules.pictomania.title", "uk") == "Піктоманія"
