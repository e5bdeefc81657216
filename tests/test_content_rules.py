"""The rules summaries the lobby shows: complete, in order, and true to the Rulings sections
of docs/pictomania.md, docs/incognito.md and docs/piet.md."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from atelier.i18n import LANGUAGES, translate

SECTIONS = ("pictomania", "pictomania.first", "pictomania.second", "incognito", "piet")


def rules() -> dict[str, dict[str, str]]:
    """Every game's rules summary (each game keeps its own, beside its rules)."""
    data: dict[str, dict[str, str]] = {}
    for game in ("pictomania", "incognito", "piet"):
        path = resources.files("atelier") / "games" / game / "strings" / "rules.json"
        for lang, texts in json.loads(path.read_text(encoding="utf-8")).items():
            data.setdefault(lang, {}).update(texts)
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


def test_issue_10_rules_are_stated_in_every_language() -> None:
    """Each language names, in its own words, what issue 10 corrected."""
    expect = [
        # 2nd edition: pen, eraser, undo, clear until the first guess
        (("pictomania.second", "en"), ["rub out", "undo", "until your first guess"]),
        (("pictomania.second", "de"), ["radieren", "rückgängig", "bis zu deinem ersten Tipp"]),
        (("pictomania.second", "uk"), ["стирати", "скасовувати", "до першої здогадки"]),
        # a void drawing's black token, per edition
        (("pictomania.second", "en"), ["goes back to the middle", "even if you are the black"]),
        (("pictomania.first", "en"), ["never counts in your favour", "still counts against you"]),
        (("pictomania.first", "de"), ["keine Pluspunkte", "immer noch Minuspunkte"]),
        (("pictomania.second", "de"), ["zurück in die Mitte", "auch wenn du das schwarze Schaf"]),
        (("pictomania.first", "uk"), ["ніколи не дає ПО", "все одно віднімаються"]),
        (("pictomania.second", "uk"), ["повертається на середину", "навіть якщо ви біла ворона"]),
        # void guesses count for no black sheep; your own guesses still score
        (("pictomania", "en"), ["not towards the black sheep", "still score"]),
        (("pictomania", "de"), ["auch nicht für das schwarze Schaf", "zählen aber ganz normal"]),
        (("pictomania", "uk"), ["не враховуються й під час визначення білої", "зараховуються"]),
        # 1st edition: the highest token; drawing nothing; a swap only for an unknown word
        (("pictomania.first", "en"), ["most stars", "draw nothing", "does not know a word"]),
        # the Incognito countdown is the room's, as its host sets it
        (("incognito", "en"), ["unless the host has set a different length"]),
        (("incognito", "de"), ["sofern für den Raum keine andere Dauer"]),
        (("incognito", "uk"), ["якщо ведучий не задав іншої тривалості"]),
    ]
    for (section, lang), phrases in expect:
        text = " ".join(paragraphs(section, lang))
        for phrase in phrases:
            assert phrase in text, (section, lang, phrase)
    for lang in LANGUAGES:
        assert "no eraser" not in " ".join(paragraphs("pictomania.second", lang))
