"""Custom decks: what a host uploads or pastes, and what they get back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from atelier.content.cli import main
from atelier.content.custom import (
    cards_from_settings,
    cards_to_settings,
    confusable_findings,
    export_deck,
    parse_deck,
)
from atelier.content.decks import Card
from atelier.errors import RuleError

DOCS = Path(__file__).resolve().parent.parent / "docs" / "examples"
WORDS = ["cat", "dog", "cow", "pig", "hen", "owl", "fox"]
HEADER = "level,theme,word1,word2,word3,word4,word5,word6,word7"


def refused(text: str, fmt: str | None = None) -> RuleError:
    with pytest.raises(RuleError) as caught:
        parse_deck(text, fmt)  # type: ignore[arg-type]
    return caught.value


def json_deck(*cards: dict[str, object]) -> str:
    return json.dumps({"cards": list(cards)})


def test_documented_examples_parse_to_the_same_cards() -> None:
    from_json = parse_deck((DOCS / "custom-deck.json").read_text(encoding="utf-8"))
    from_csv = parse_deck((DOCS / "custom-deck.csv").read_text(encoding="utf-8"))
    assert [c.words for c in from_json] == [c.words for c in from_csv]
    assert [c.level for c in from_json] == [1, 2, 3]
    assert from_json[0].id == "office-1" and from_json[0].theme == "Our office"
    assert [c.id for c in from_csv] == ["C-001", "C-002", "C-003"]


def test_ids_are_generated_around_the_given_ones() -> None:
    cards = parse_deck(
        json_deck(
            {"level": 1, "words": WORDS},
            {"id": "C-002", "level": 2, "words": WORDS},
            {"level": 3, "words": WORDS},
        )
    )
    assert [c.id for c in cards] == ["C-001", "C-002", "C-003"]
    assert (
        len(
            {
                c.id
                for c in parse_deck(
                    json_deck(
                        {"id": "C-001", "level": 1, "words": WORDS},
                        {"level": 1, "words": [w + "s" for w in WORDS]},
                    )
                )
            }
        )
        == 2
    )


def test_entries_are_trimmed() -> None:
    [card] = parse_deck(
        json_deck({"level": 1, "theme": " Pets ", "words": [f" {w} " for w in WORDS]})
    )
    assert card.words == tuple(WORDS) and card.theme == "Pets"


def test_six_words_names_the_card_in_every_language() -> None:
    err = refused(json_deck({"level": 1, "words": WORDS}, {"level": 1, "words": WORDS[:6]}))
    assert err.code == "deck_card_size"
    assert err.message("en") == "Card 2: needs exactly 7 words, but has 6."
    assert err.message("de") == "Karte 2: braucht genau 7 Begriffe, hat aber 6."
    assert err.message("uk") == "Карта 2: потрібно рівно 7 слів, а є 6."


def test_duplicate_word_within_a_card() -> None:
    err = refused(f"{HEADER}\n1,Pets,cat,dog,Cat,pig,hen,owl,fox\n", "csv")
    assert err.message() == "Card 1: “Cat” is on it twice (words 1 and 3)."


def test_word_on_two_cards_of_the_same_level() -> None:
    other = ["ant", "bee", "fly", "cat", "elk", "emu", "yak"]
    err = refused(json_deck({"level": 2, "words": WORDS}, {"level": 2, "words": other}))
    assert err.message() == "Card 2: “cat” is already on card 1 of the same level."
    assert (
        len(parse_deck(json_deck({"level": 1, "words": WORDS}, {"level": 2, "words": other}))) == 2
    )


def test_empty_and_long_words() -> None:
    assert refused(json_deck({"level": 1, "words": [*WORDS[:6], "  "]})).message() == (
        "Card 1: word 7 is empty."
    )
    err = refused(json_deck({"level": 1, "words": [*WORDS[:6], "w" * 33]}))
    assert err.code == "deck_word_too_long" and err.params["position"] == 7


@pytest.mark.parametrize("bad", ["ca\nt", "ca\x00t", "\u202ecat", "ca\x07t"])
def test_invisible_control_characters_are_refused(bad: str) -> None:
    err = refused(json_deck({"level": 1, "words": [bad, *WORDS[1:]]}))
    assert (err.code, err.params["position"]) == ("deck_word_control", 1)
    err = refused(json_deck({"level": 1, "theme": f"the {bad}", "words": WORDS}))
    assert err.code == "deck_theme_control"


def test_bad_levels() -> None:
    for level in (0, 5, "x", None, True, 2.5):
        err = refused(json_deck({"level": level, "words": WORDS}))
        assert err.code == "custom_level", level
    assert refused(f"{HEADER}\n9,,{','.join(WORDS)}\n").message("de") == (
        "Karte 1: Die Stufe muss eine Zahl von 1 bis 4 sein, nicht „9“."
    )


def test_csv_header_and_cells() -> None:
    assert refused("level,theme,word1\n1,x,y\n", "csv").message() == (
        "The header lacks the column “word2” (it needs level and word1 … word7; id and theme are "
        "optional)."
    )
    assert refused(f"{HEADER},colour\n", "csv").params == {"column": "colour"}
    err = refused(f"{HEADER}\n1,Pets,{','.join(WORDS)}\n\n1,Pets,a,b,c\n", "csv")
    assert err.code == "custom_csv_cells"
    assert err.params == {"line": 4, "count": 5, "expected": 9}


def test_csv_from_a_german_spreadsheet() -> None:
    text = "\ufeffId;Level;Theme;" + ";".join(f"Word{i}" for i in range(1, 8)) + ";;\r\n"
    text += "k1;1;Tiere;Hund;Katze;Maus;Kuh;Schaf;Ziege;Pferd;;\r\n"
    [card] = parse_deck(text)
    assert card == Card(
        "k1", 1, ("Hund", "Katze", "Maus", "Kuh", "Schaf", "Ziege", "Pferd"), "Tiere"
    )


def test_csv_quoted_cells_keep_commas() -> None:
    words = ['"salt, pepper"', *WORDS[1:]]
    [card] = parse_deck(f"{HEADER}\n1,Kitchen,{','.join(words)}\n")
    assert card.words[0] == "salt, pepper"


def test_json_mistakes() -> None:
    err = refused('{"cards": [\n  {"level": 1,}\n]}')
    assert err.code == "custom_bad_json" and err.params["line"] == 2
    assert refused("[1, 2]").code == "custom_bad_shape"
    assert refused(json_deck()).code == "custom_empty"
    assert refused(json_deck({"level": 1, "word": WORDS})).message() == (
        "Card 1: unknown field “word”."
    )
    assert refused(json_deck({"id": "a b", "level": 1, "words": WORDS})).code == "custom_id_invalid"
    reserved = refused(json_deck({"id": "l2-007", "level": 1, "words": WORDS}))
    assert reserved.code == "custom_id_reserved" and reserved.params["card"] == 1
    twice = refused(
        json_deck({"id": "k", "level": 1, "words": WORDS}, {"id": "k", "level": 2, "words": WORDS})
    )
    assert twice.message() == "The id k is used by more than one card."


def test_size_limits() -> None:
    many = [{"level": 1 + n % 4, "words": [f"w{n}-{i}" for i in range(7)]} for n in range(501)]
    err = refused(json.dumps({"cards": many}, separators=(",", ":")))
    assert err.code == "custom_too_many" and err.params == {"count": 501, "max": 500}
    assert len(parse_deck(json.dumps({"cards": many[:500]}, separators=(",", ":")))) == 500
    huge = json_deck({"level": 1, "theme": "t" * 70_000, "words": WORDS})
    assert refused(huge).message() == "The deck is 69 KB; at most 64 KB are allowed."


def test_settings_for_the_engine() -> None:
    cards = parse_deck((DOCS / "custom-deck.json").read_text(encoding="utf-8"))
    settings_ = cards_to_settings(cards, "instead")
    assert settings_["custom_mode"] == "instead"
    assert settings_["custom_cards"][0] == {
        "id": "office-1",
        "level": 1,
        "words": list(cards[0].words),
    }
    assert json.loads(json.dumps(settings_)) == settings_
    assert [c.words for c in cards_from_settings(settings_["custom_cards"])] == [
        c.words for c in cards
    ]
    with pytest.raises(RuleError):
        cards_to_settings(cards, "sometimes")  # type: ignore[arg-type]
    with pytest.raises(RuleError) as caught:
        cards_from_settings([{"id": "x", "level": 1, "words": ["a"] * 7}])
    assert caught.value.code == "deck_word_twice"


def test_command_checks_a_file_in_the_hosts_language(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "deck.csv"
    bad.write_text(f"{HEADER}\n1,,{','.join(WORDS[:6])},\n", encoding="utf-8")
    assert main(["custom", str(bad), "--lang", "uk"]) == 1
    assert capsys.readouterr().err.strip() == "Карта 1: слово 7 порожнє."
    assert main(["custom", str(DOCS / "custom-deck.csv"), "--export", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["cards"]) == 3


entry = (
    st.text(
        # Any printable text: control characters are refused (tested above).
        alphabet=st.characters(
            blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
            blacklist_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
        ),
        min_size=1,
        max_size=32,
    )
    .map(str.strip)
    .filter(bool)
)


@st.composite
def decks(draw: st.DrawFn) -> list[Card]:
    count = draw(st.integers(1, 12))
    words = draw(
        st.lists(
            entry,
            min_size=7 * count,
            max_size=7 * count,
            unique_by=lambda w: " ".join(w.split()).casefold(),
        )
    )
    return [
        Card(
            draw(st.sampled_from(["", f"k{n}"])),
            draw(st.integers(1, 4)),
            tuple(words[7 * n : 7 * n + 7]),
            draw(st.one_of(st.just(""), entry.filter(lambda t: len(t) <= 32))),
        )
        for n in range(count)
    ]


@settings(max_examples=60, deadline=None)
@given(decks(), st.sampled_from(["json", "csv"]))
def test_export_then_parse_gives_the_same_deck(deck: list[Card], fmt: str) -> None:
    assume(not confusable_findings(deck, None))  # random words may share a stem
    cards = parse_deck(export_deck(parse_deck(export_deck(deck, "json")), fmt))  # type: ignore[arg-type]
    assert [(c.level, c.words, c.theme) for c in cards] == [
        (c.level, c.words, c.theme) for c in deck
    ]
    assert parse_deck(export_deck(cards, fmt)) == cards  # type: ignore[arg-type]


# --- confusable words --------------------------------------------------------


def test_cards_without_ids_are_still_compared_with_each_other() -> None:
    """Two cards with no id are two cards: their look-alike words are found
    before the deck is exported, as parsing it again would find them."""
    deck = [
        Card("", 1, ("4", "5", "6", "7", "8", "0000", "ATELA0AAB"), ""),
        Card("", 1, ("0", "1", "2", "3", "00", "000", "ATELA0AAA"), ""),
    ]
    assert confusable_findings(deck, None)
    with pytest.raises(RuleError):
        parse_deck(export_deck(deck, "json"))


def _deck(*cards: tuple[int, list[str]]) -> str:
    return json.dumps({"cards": [{"level": lv, "words": ws} for lv, ws in cards]})


FILLER = ["blorf", "snirk", "quozzle", "vantrip", "gleebo", "troffic"]
OTHER = ["kettle", "wumpus", "zimbra", "plonk", "yagrel", "fendok"]


def test_custom_deck_with_fishing_rod_and_fishing_on_one_level_is_refused() -> None:
    text = _deck((2, ["fishing rod", *FILLER]), (2, ["fishing", *OTHER]))
    with pytest.raises(RuleError) as caught:
        parse_deck(text, lang="en")
    assert caught.value.code == "deck_confusable"
    assert caught.value.message("en") == (
        "Card 1: “fishing rod” and “fishing” on card 2 of the same level are hard to "
        "tell apart in a drawing (both have “fishing”)."
    )
    # On two levels they never meet in one round.
    parse_deck(_deck((2, ["fishing rod", *FILLER]), (3, ["fishing", *OTHER])))


def test_custom_card_confusable_within_itself_is_refused_in_the_hosts_language() -> None:
    with pytest.raises(RuleError) as caught:
        parse_deck(_deck((1, ["Angel", "Angeln", *FILLER[:5]])), lang="de")
    assert caught.value.code == "deck_confusable_card"
    assert caught.value.message("de") == (
        "Karte 1: „Angel“ und „Angeln“ sind gezeichnet kaum zu unterscheiden "
        "(beide enthalten „angel“)."
    )


def test_custom_card_is_checked_against_the_built_in_cards_it_joins() -> None:
    from atelier.games.core import JSON
    from atelier.games.pictomania import GAME
    from atelier.games.pictomania.decks import pictomania_cards

    builtin = pictomania_cards("en")[1][0].words
    word = next(w for w in builtin if " " not in w and len(w) >= 4)
    card: dict[str, JSON] = {"id": "c1", "level": 1, "words": [f"{word} museum", *FILLER]}
    raw: dict[str, JSON] = {"custom_cards": [card], "custom_mode": "alongside", "language": "en"}
    with pytest.raises(RuleError) as caught:
        GAME.validate_settings(raw, 3)
    assert caught.value.code == "deck_confusable_builtin"
    assert caught.value.params["other"] == word
    # Instead of the built-in cards, or on another level, it is fine.
    alone: dict[str, JSON] = {"custom_mode": "instead", "edition": "first", "kids": True,
                              "rounds": 1}
    GAME.validate_settings({**raw, **alone}, 3)
    GAME.validate_settings({**raw, "custom_cards": [{**card, "level": 4}]}, 3)
