"""Pictomania levels 3-4 and Incognito content, as the engines load them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atelier.content.decks import WORDS_PER_CARD
from atelier.games.incognito.decks import incognito_content
from atelier.games.pictomania.decks import pictomania_cards

LANGS = ("en", "de", "uk")
LEVELS = (3, 4)
MAX_LEN = 32
# letters of Russian that Ukrainian does not have
RUSSIAN_ONLY = re.compile("[ыэъёЫЭЪЁ]")


def _entries(lang: str) -> list[str]:
    out: list[str] = []
    for level in LEVELS:
        for card in pictomania_cards(lang)[level]:
            out.extend((card.theme, *card.words))
    words, locations = incognito_content(lang)
    out.extend(item.text for item in (*words, *locations))
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_each_language_has_enough_cards_with_the_same_ids(level: int) -> None:
    ids = {lang: [c.id for c in pictomania_cards(lang)[level]] for lang in LANGS}
    assert len(ids["en"]) >= 30
    assert ids["en"] == ids["de"] == ids["uk"]
    assert all(i.startswith(f"L{level}-") for i in ids["en"])
    assert len(set(ids["en"])) == len(ids["en"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_card_has_seven_distinct_words_and_a_theme(lang: str, level: int) -> None:
    for card in pictomania_cards(lang)[level]:
        assert len(card.words) == WORDS_PER_CARD, card.id
        assert len({w.casefold() for w in card.words}) == WORDS_PER_CARD, card.id
        assert card.theme, card.id


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("level", LEVELS)
def test_no_word_appears_on_two_cards_of_a_level(lang: str, level: int) -> None:
    where: dict[str, str] = {}
    for card in pictomania_cards(lang)[level]:
        for word in card.words:
            key = word.casefold()
            assert key not in where, f"{word!r} on {where[key]} and {card.id}"
            where[key] = card.id


@pytest.mark.parametrize("lang", LANGS)
def test_entries_are_trimmed_short_and_in_the_right_script(lang: str) -> None:
    for text in _entries(lang):
        assert text == text.strip() and 0 < len(text) <= MAX_LEN, repr(text)
        cyrillic = any("\u0400" <= ch <= "\u04ff" for ch in text)
        latin = any(ch.isascii() and ch.isalpha() for ch in text)
        # a Latin look-alike inside a Ukrainian word breaks matching and search
        assert (cyrillic, latin) == ((True, False) if lang == "uk" else (False, True)), repr(text)
        if lang == "uk":
            assert not RUSSIAN_ONLY.search(text), repr(text)
            assert "'" not in text, f"typographic apostrophe expected in {text!r}"


def test_german_card_words_start_with_a_capital_when_they_are_one_noun() -> None:
    # single-word German entries on these levels are all nouns (or nominalised verbs)
    for level in LEVELS:
        for card in pictomania_cards("de")[level]:
            for word in card.words:
                if " " not in word:
                    assert word[0].isupper(), f"{card.id}: {word!r}"


def test_incognito_has_enough_words_and_locations_with_shared_ids() -> None:
    by_lang = {lang: incognito_content(lang) for lang in LANGS}
    for words, locations in by_lang.values():
        assert len(words) >= 120 and len(locations) >= 60
    for part in (0, 1):
        ids = [[item.id for item in by_lang[lang][part]] for lang in LANGS]
        assert ids[0] == ids[1] == ids[2]
        assert len(set(ids[0])) == len(ids[0])


@pytest.mark.parametrize("lang", LANGS)
def test_incognito_words_and_locations_never_repeat(lang: str) -> None:
    for items in incognito_content(lang):
        texts = [item.text.casefold() for item in items]
        assert len(set(texts)) == len(texts)


@given(
    lang=st.sampled_from(LANGS),
    level=st.sampled_from(LEVELS),
    data=st.data(),
)
def test_any_six_cards_on_the_table_show_42_different_words(
    lang: str, level: int, data: st.DataObject
) -> None:
    cards = pictomania_cards(lang)[level]
    dealt = data.draw(st.lists(st.sampled_from(cards), min_size=6, max_size=6, unique=True))
    words = [w.casefold() for card in dealt for w in card.words]
    assert len(set(words)) == 6 * WORDS_PER_CARD


@pytest.mark.parametrize("lang", LANGS)
def test_no_word_appears_on_two_levels(lang: str) -> None:
    # a room that mixes levels must never put one word on two cards of the table
    cards = pictomania_cards(lang)
    seen = {w.casefold(): c.id for level in (1, 2) for c in cards[level] for w in c.words}
    for level in LEVELS:
        for card in cards[level]:
            for word in card.words:
                key = word.casefold()
                assert seen.get(key, card.id) == card.id, f"{card.id} {word!r} = {seen[key]}"
                seen[key] = card.id
