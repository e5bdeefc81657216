"""Counted strings have their language's plural forms: the content check finds
a count without them and forms a language does not have, and translate()
picks the form CLDR gives for the count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from atelier.content.check import check_all
from atelier.content.plurals import counted_word, plural_findings
from atelier.i18n import catalog, plural_categories, string_folders, translate
from support.content import DECK_GAMES

POINTS = {
    "en": {"one": "{count} point", "other": "{count} points"},
    "de": {"one": "{count} Punkt", "other": "{count} Punkte"},
    "uk": {"one": "{count} очко", "few": "{count} очки", "many": "{count} очок",
           "other": "{count} очка"},
}


def tree(tmp_path: Path, strings: dict[str, Any]) -> Path:
    """A content folder holding only one strings file (no decks: nothing else to find)."""
    folder = tmp_path / "strings"
    folder.mkdir()
    (folder / "ui.json").write_text(json.dumps(strings, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def codes(root: Path) -> list[tuple[str, str, str]]:
    return sorted(
        (p.finding.code, str(p.finding.params["name"]), str(p.finding.params["language"]))
        for p in check_all(root, DECK_GAMES)
        if p.finding.code.startswith("strings_")
    )


def test_the_content_check_fails_on_a_count_without_plural_forms(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            "en": {"ui.cells": "{count} cells", "ui.points": POINTS["en"]},
            "de": {"ui.cells": "Zellen: {count}", "ui.points": POINTS["de"]},
            "uk": {"ui.cells": "Клітинок: {count}", "ui.points": POINTS["uk"]},
        },
    )
    assert codes(root) == [
        ("strings_plural_missing", "ui.cells", "de"),
        ("strings_plural_missing", "ui.cells", "en"),
        ("strings_plural_missing", "ui.cells", "uk"),
    ]


def test_the_content_check_fails_on_missing_and_foreign_forms(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            "en": {"ui.points": {**POINTS["en"], "few": "{count} pointlets"}},
            "de": {"ui.points": {"other": "{count} Punkte"}},
            "uk": {"ui.points": {"one": "{count} очко", "other": "{count} очок"}},
        },
    )
    assert codes(root) == [
        ("strings_plural_form_missing", "ui.points", "de"),
        ("strings_plural_form_missing", "ui.points", "uk"),
        ("strings_plural_form_missing", "ui.points", "uk"),
        ("strings_plural_form_unknown", "ui.points", "en"),
    ]


def test_a_label_a_unit_or_an_ordinal_is_not_a_count() -> None:
    assert counted_word("en", "Round {n} of {total}") is None
    assert counted_word("en", "Points: {n}") is None
    assert counted_word("de", "{n} Pkt.") is None
    assert counted_word("de", "Bonusplättchen im Wert von {n} nehmen") is None
    assert counted_word("uk", "{size} КБ") is None
    assert counted_word("en", "+{n} for the author") is None
    assert counted_word("en", "needs {min} to {max} players") == "players"
    assert counted_word("de", "höchstens {max} Zeichen.") == "Zeichen"
    assert counted_word("uk", "від {min} до {max} гравців") == "гравців"


def test_the_shipped_strings_have_every_plural_form_they_need() -> None:
    found = [
        (file.name, f.code, f.params)
        for folder in string_folders()
        for file in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if file.name.endswith(".json")
        for f in plural_findings(json.loads(file.read_text(encoding="utf-8")))
    ]
    assert found == []
    counted = [k for k, v in catalog()["uk"].items() if isinstance(v, dict)]
    assert len(counted) >= 20  # the counted strings are plural objects, not labels


def test_languages_have_the_cldr_categories() -> None:
    assert plural_categories("en") == plural_categories("de") == {"one", "other"}
    assert plural_categories("uk") == {"one", "few", "many", "other"}


def test_translate_picks_the_form_by_the_count_in_each_language() -> None:
    assert translate("ig.points", "en", n=1) == "1 point"
    assert translate("ig.points", "en", n=0) == "0 points"
    assert translate("ig.points", "de", n=1) == "1 Punkt"
    assert [translate("ig.points", "uk", n=n) for n in (1, 3, 5, 11, 21, 24)] == [
        "1 очко", "3 очки", "5 очок", "11 очок", "21 очко", "24 очки",
    ]
    assert translate("error.custom_csv_cells", "en", line=4, count=1, expected=8) == (
        "Line 4 has 1 cell, but the header has 8."
    )
    assert translate("error.custom_csv_cells", "de", line=4, count=1, expected=8) == (
        "Zeile 4 hat 1 Zelle, die Kopfzeile aber 8."
    )
    # A count missing from the fields: the "other" form, its field left as it is.
    assert translate("ig.points", "en") == "{n} points"


def test_piet_says_exactly_two_players() -> None:
    exact = translate("error.seat_count_exact", "en", count=2)
    assert exact == "This game needs exactly 2 players."
    assert translate("error.seat_count_exact", "uk", count=2) == (
        "Для цієї гри потрібно рівно 2 гравці."
    )
    assert translate("error.seat_count", "uk", min=3, max=6) == (
        "Для цієї гри потрібно від 3 до 6 гравців."
    )
