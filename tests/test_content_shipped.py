"""The content that ships: `atelier decks check` and `stats` over the real files."""

from __future__ import annotations

import json
import re

import pytest

from atelier.cli import main
from atelier.content.check import check_all
from atelier.content.decks import LEVELS, content_root
from atelier.games.incognito.decks import incognito_content
from atelier.games.pictomania.decks import pictomania_cards
from atelier.i18n import LANGUAGES, string_folders
from support.content import DECK_GAMES


def test_check_finds_no_problem_in_the_shipped_content(capsys) -> None:  # type: ignore[no-untyped-def]
    assert [p.line() for p in check_all(content_root(), DECK_GAMES, string_folders()[1:])] == []
    assert main(["decks", "check"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_stats_json_counts_every_language_and_level(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["decks", "stats", "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert set(counts) == {"pictomania", "incognito"}
    for lang in LANGUAGES:
        per_level = counts["pictomania"][lang]
        assert list(per_level) == ["1", "2", "3", "4"]
        # the floor: 50 per level (levels 3-4 are counted by their own tests)
        assert per_level["1"] >= 50 and per_level["2"] >= 50
        for level in LEVELS:
            # a level that has begun to ship must be complete and the same in every language
            assert per_level[str(level)] in (0, counts["pictomania"]["en"][str(level)])
            assert per_level[str(level)] == 0 or per_level[str(level)] >= 30
        assert set(counts["incognito"][lang]) == {"words", "locations"}
        assert counts["incognito"][lang]["words"] >= 150
        assert counts["incognito"][lang]["locations"] >= 80


@pytest.mark.parametrize("level", [1, 2])
def test_easy_levels_load_as_cards_with_the_same_ids_everywhere(level: int) -> None:
    decks = {lang: pictomania_cards(lang)[level] for lang in LANGUAGES}
    ids = [c.id for c in decks["en"]]
    assert ids == [f"L{level}-{n:03d}" for n in range(1, len(ids) + 1)]
    for lang, cards in decks.items():
        assert [c.id for c in cards] == ids
        assert all(c.level == level and len(c.words) == 7 and c.theme for c in cards), lang


def test_level_1_german_cards_are_all_nouns_or_all_verbs() -> None:
    # nouns are capitalised; the action cards (gehen, essen) hold lower-case
    # infinitives only, so a card never mixes the two
    for card in pictomania_cards("de")[1]:
        nouns = [w for w in card.words if w[0].isupper()]
        verbs = [w for w in card.words if w.split()[-1].islower() and w.endswith("n")]
        assert len(nouns) == 7 or len(verbs) == 7, (card.id, card.words)
    kinds = [card.words[0][0].isupper() for card in pictomania_cards("de")[1]]
    assert kinds.count(False) <= 2, "level 1 is mostly things to draw"


@pytest.mark.parametrize("level", [1, 2])
def test_ukrainian_words_use_ukrainian_letters_and_apostrophe(level: int) -> None:
    for card in pictomania_cards("uk")[level]:
        for text in (*card.words, card.theme):
            assert not re.search(r"[ыэъёЫЭЪЁ']", text), (card.id, text)
            assert not re.search(r"[A-Za-z]", text), (card.id, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_easy_levels_and_incognito_use_one_apostrophe(lang: str) -> None:
    # the typographic apostrophe, as in the interface strings ("butcher’s", "хом’як")
    cards = [c for level in (1, 2) for c in pictomania_cards(lang)[level]]
    texts = [text for c in cards for text in (*c.words, c.theme)]
    words, locations = incognito_content(lang)
    texts += [item.text for item in (*words, *locations)]
    assert [t for t in texts if "'" in t] == []
