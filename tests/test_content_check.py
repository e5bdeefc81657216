"""`atelier decks check` on small content trees, one problem at a time."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from atelier.content.check import check_all, stats
from atelier.content.cli import main
from atelier.content.decks import content_root
from atelier.i18n import string_folders
from support.content import DECK_GAMES

LANGS = ("en", "de", "uk")


def card(card_id: str, *words: str, theme: str = "Theme") -> dict[str, Any]:
    return {"id": card_id, "theme": theme, "words": list(words)}


def good_cards(level: int, lang: str) -> list[dict[str, Any]]:
    return [
        card(f"L{level}-{n:03d}", *(f"{lang}-w{level}-{n}-{i}" for i in range(7))) for n in (1, 2)
    ]


def write(root: Path, relative: str, data: Any) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A complete, valid content tree: two levels, Incognito, one strings file."""
    for lang in LANGS:
        for level in (1, 2):
            write(
                tmp_path,
                f"decks/pictomania/{lang}/level{level}.json",
                {"cards": good_cards(level, lang)},
            )
        write(
            tmp_path,
            f"decks/incognito/{lang}.json",
            {
                "words": [{"id": "w001", "text": f"{lang} sock"}, {"id": "w002", "text": "cat"}],
                "locations": [{"id": "l001", "text": f"{lang} in a cave"}],
            },
        )
    write(
        tmp_path,
        "strings/ui.json",
        {lang: {"ui.hello": f"{lang}: hello {{name}}", "ui.bye": "bye"} for lang in LANGS},
    )
    return tmp_path


def lines(root: Path) -> list[str]:
    return [p.line() for p in check_all(root, DECK_GAMES)]


def set_cards(root: Path, lang: str, level: int, cards: list[dict[str, Any]]) -> None:
    write(root, f"decks/pictomania/{lang}/level{level}.json", {"cards": cards})


def test_valid_tree_has_no_problems_and_command_says_ok(root: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert lines(root) == []
    assert main(["check", "--root", str(root)]) == 0
    assert capsys.readouterr().out.startswith("ok: decks of pictomania 12, incognito ")


def test_card_with_six_words_is_reported_with_file_and_id(root: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    cards = good_cards(1, "de")
    cards[1]["words"].pop()
    set_cards(root, "de", 1, cards)
    assert lines(root) == [
        "decks/pictomania/de/level1.json: Card L1-002: needs exactly 7 words, but has 6."
    ]
    assert main(["check", "--root", str(root)]) == 1
    assert "L1-002" in capsys.readouterr().out


def test_duplicate_within_a_card_ignores_case_and_spaces(root: Path) -> None:
    set_cards(
        root,
        "en",
        2,
        [card("L2-001", "Cat", "dog", "cow", "pig", "hen", " cat", "owl"), good_cards(2, "en")[1]],
    )
    found = lines(root)
    assert (
        "decks/pictomania/en/level2.json: Card L2-001: “cat” is on it twice (words 1 and 6)."
        in found
    )
    assert (
        "decks/pictomania/en/level2.json: Card L2-001: word 6 (“ cat”) starts or ends with a space."
        in found
    )


def test_word_on_two_cards_of_one_level(root: Path) -> None:
    cards = good_cards(1, "uk")
    cards[1]["words"][3] = cards[0]["words"][5].upper()
    set_cards(root, "uk", 1, cards)
    assert lines(root) == [
        f"decks/pictomania/uk/level1.json: Card L1-002: “{cards[0]['words'][5].upper()}” "
        "is already on card L1-001 of the same level."
    ]


def test_same_word_on_two_levels_is_fine(root: Path) -> None:
    cards = good_cards(2, "en")
    cards[0]["words"][0] = good_cards(1, "en")[0]["words"][0]
    set_cards(root, "en", 2, cards)
    assert lines(root) == []


def test_empty_and_over_long_entries(root: Path) -> None:
    cards = good_cards(1, "en")
    cards[0]["words"][2] = ""
    cards[1]["words"][4] = "x" * 33
    set_cards(root, "en", 1, cards)
    found = lines(root)
    assert "decks/pictomania/en/level1.json: Card L1-001: word 3 is empty." in found
    assert any("L1-002: word 5" in f and "longer than 32" in f for f in found)
    assert len(found) == 2


def test_exactly_32_characters_is_allowed(root: Path) -> None:
    cards = good_cards(1, "en")
    cards[0]["words"][0] = "y" * 32
    set_cards(root, "en", 1, cards)
    assert lines(root) == []


def test_id_missing_in_one_language(root: Path) -> None:
    set_cards(root, "uk", 2, good_cards(2, "uk")[:1])
    assert lines(root) == [
        "decks/pictomania/uk/level2.json: L2-002 is missing here (it exists in de, en)."
    ]


def test_extra_id_in_one_language_is_missing_in_the_others(root: Path) -> None:
    extra = card("L1-003", *(f"extra{i}" for i in range(7)))
    set_cards(root, "de", 1, [*good_cards(1, "de"), extra])
    found = lines(root)
    assert "decks/pictomania/en/level1.json: L1-003 is missing here (it exists in de)." in found
    assert "decks/pictomania/uk/level1.json: L1-003 is missing here (it exists in de)." in found


def test_level_file_missing_in_a_language(root: Path) -> None:
    (root / "decks/pictomania/de/level2.json").unlink()
    found = lines(root)
    assert "decks/pictomania/de/level2.json: This file is missing (it exists in en, uk)." in found


def test_duplicate_ids_and_ids_of_another_level(root: Path) -> None:
    for lang in LANGS:
        cards = good_cards(1, lang)
        cards[1]["id"] = "L1-001"
        cards.append(card("L2-009", *(f"{lang}-z{i}" for i in range(7))))
        set_cards(root, lang, 1, cards)
    found = lines(root)
    assert "decks/pictomania/en/level1.json: The id L1-001 is used by more than one card." in found
    assert any("en/level1.json: The id L2-009 does not fit level 1" in f for f in found)


def test_unknown_level_and_language(root: Path) -> None:
    write(root, "decks/pictomania/en/level5.json", {"cards": []})
    write(root, "decks/pictomania/fr/level1.json", {"cards": []})
    found = lines(root)
    assert any(f.startswith("decks/pictomania/en/level5.json: Unknown level file") for f in found)
    assert any(f.startswith("decks/pictomania/fr: Unknown language “fr”") for f in found)


def test_card_level_field_must_match_its_file(root: Path) -> None:
    cards = good_cards(2, "en")
    cards[0]["level"] = 3
    set_cards(root, "en", 2, cards)
    assert lines(root) == [
        "decks/pictomania/en/level2.json: Card L2-001: level 3 in the file for level 2."
    ]


def test_missing_theme_and_broken_json(root: Path) -> None:
    cards = good_cards(1, "en")
    del cards[0]["theme"]
    set_cards(root, "en", 1, cards)
    (root / "decks/pictomania/de/level2.json").write_text('{"cards": [', encoding="utf-8")
    found = lines(root)
    assert "decks/pictomania/en/level1.json: Card L1-001: the theme is missing." in found
    assert any(
        f.startswith("decks/pictomania/de/level2.json: Not valid JSON at line 1") for f in found
    )


def test_incognito_duplicates_and_missing_ids(root: Path) -> None:
    write(
        root,
        "decks/incognito/de.json",
        {
            "words": [
                {"id": "w001", "text": "Socke"},
                {"id": "w002", "text": "socke "},
                {"id": "w002", "text": "Katze"},
            ],
            "locations": [],
        },
    )
    found = lines(root)
    assert "decks/incognito/de.json: w002: “socke ” starts or ends with a space." in found
    assert "decks/incognito/de.json: w002: “socke” is the same as w001." in found
    assert "decks/incognito/de.json: The id w002 is used twice." in found
    assert "decks/incognito/de.json: l001 is missing here (it exists in en, uk)." in found


def test_incognito_language_file_missing(root: Path) -> None:
    (root / "decks/incognito/uk.json").unlink()
    assert lines(root) == ["decks/incognito/uk.json: This file is missing (it exists in de, en)."]


def test_strings_missing_key_empty_text_and_different_fields(root: Path) -> None:
    write(
        root,
        "strings/ui.json",
        {
            "en": {"ui.hello": "Hello {name}", "ui.bye": "Bye", "ui.only": "x"},
            "de": {"ui.hello": "Hallo {nam}", "ui.bye": " "},
            "uk": {"ui.hello": "Привіт, {name}", "ui.bye": "Бувай"},
        },
    )
    found = lines(root)
    assert "strings/ui.json: The key ui.only is missing in de." in found
    assert "strings/ui.json: The key ui.only is missing in uk." in found
    assert "strings/ui.json: The key ui.bye is empty in de." in found
    assert (
        "strings/ui.json: The key ui.hello uses different fields per language "
        "(en: name; de: nam; uk: name)." in found
    )
    assert len(found) == 4


def test_strings_broken_template_and_key_in_two_files(root: Path) -> None:
    write(root, "strings/zz.json", {lang: {"ui.bye": "{oops"} for lang in LANGS})
    found = lines(root)
    assert "strings/zz.json: The key ui.bye is also defined in strings/ui.json." in found
    assert any("strings/zz.json: The key ui.bye in en is not a valid template" in f for f in found)


def test_stats_lists_every_language_and_level(root: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (root / "decks/incognito/uk.json").unlink()
    counts = stats(root, DECK_GAMES)
    assert counts["pictomania"]["uk"] == {"1": 2, "2": 2, "3": 0, "4": 0}
    assert counts["incognito"]["uk"] == {"words": 0, "locations": 0}
    assert counts["incognito"]["en"] == {"words": 2, "locations": 1}
    assert main(["stats", "--json", "--root", str(root)]) == 0
    assert json.loads(capsys.readouterr().out) == counts
    assert main(["stats", "--root", str(root)]) == 0
    table = capsys.readouterr().out
    assert "pictomania" in table and "locations" in table


def test_file_without_cards_list_is_reported(root: Path) -> None:
    write(root, "decks/pictomania/en/level1.json", {})
    found = lines(root)
    assert (
        "decks/pictomania/en/level1.json: Expected an object with a list of cards under “cards”."
        in found
    )


def test_command_without_a_subcommand_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main([]) == 2
    assert "usage: atelier decks" in capsys.readouterr().err


# --- confusable words ---------------------------------------------------------


def with_words(level: int, lang: str, first: list[str], second: list[str]) -> list[dict[str, Any]]:
    """The two good cards of a level, their first words replaced."""
    cards = good_cards(level, lang)
    cards[0]["words"][: len(first)] = first
    cards[1]["words"][: len(second)] = second
    return cards


def test_fishing_rod_and_fishing_on_two_level_2_cards_fail_the_check(root: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    set_cards(root, "en", 2, with_words(2, "en", ["fishing rod"], ["fishing"]))
    assert lines(root) == [
        "decks/pictomania/en/level2.json: Card L2-001: “fishing rod” and “fishing” on card "
        "L2-002 of the same level are hard to tell apart in a drawing (both have “fishing”)."
    ]
    assert main(["check", "--root", str(root)]) == 1
    assert "fishing rod" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [
        ("en", "surfing", "surfboard"),  # a stem starts a compound
        ("en", "firefighter", "fire engine"),  # a word starts a compound
        ("en", "fire station", "fire engine"),  # the same first word
        ("en", "baker", "bakery"),  # one stem, two endings
        ("en", "energy", "renewable energy"),  # one inside the other
        ("de", "Angel", "Angeln"),
        ("de", "Maler", "Malen"),
        ("de", "Erinnern", "Erinnerung"),
        ("de", "Feuerwehrmann", "Feuerwehrauto"),  # compounds that begin alike
        ("de", "Katze", "Hauskatze"),  # a compound ending in the other word
        ("uk", "пекар", "пекарня"),
        ("uk", "пожежна частина", "пожежна машина"),
        ("uk", "поліцейський", "поліцейська машина"),  # another ending of one adjective
    ],
)
def test_confusable_words_on_two_cards_of_a_level(
    root: Path, lang: str, first: str, second: str
) -> None:
    set_cards(root, lang, 1, with_words(1, lang, [first], [second]))
    found = check_all(root, DECK_GAMES)
    assert [p.finding.code for p in found] == ["deck_confusable"]
    assert found[0].finding.params["word"] == first
    assert found[0].finding.params["other"] == second


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["basketball", "volleyball"]),  # the same head, different things
        ("en", ["butter", "butterfly"]),  # butter + a three-letter rest
        ("en", ["parrot", "carrot"]),  # rhymes are drawn apart
        ("en", ["sing", "zebra crossing"]),  # cross + ing, not a kind of singing
        ("de", ["Ringen", "Skispringen"]),  # ring + en at the end is too little
        ("en", ["tip of the iceberg", "tug of war"]),  # function words
        ("de", ["Schraubenzieher", "Schraubenschlüssel"]),  # on one card: its theme
        ("de", ["Essen", "Bogenschießen"]),  # ß is no "ss" here
        ("uk", ["морська зірка", "падуча зірка"]),  # shared head noun
    ],
)
def test_related_words_on_one_card_and_unrelated_ones_pass(
    root: Path, lang: str, words: list[str]
) -> None:
    set_cards(root, lang, 1, with_words(1, lang, words, []))
    assert lines(root) == []


def test_confusable_words_on_one_card(root: Path) -> None:
    set_cards(root, "uk", 2, with_words(2, "uk", ["вудка", "вудка для риби"], []))
    assert lines(root) == [
        "decks/pictomania/uk/level2.json: Card L2-001: “вудка” and “вудка для риби” are hard "
        "to tell apart in a drawing (both have “вудка”)."
    ]


def test_a_reviewed_pair_is_allowed_and_a_stale_one_reported(root: Path) -> None:
    cards = with_words(1, "en", ["hot dog"], ["hot chocolate"])
    set_cards(root, "en", 1, cards)
    assert [p.finding.code for p in check_all(root, DECK_GAMES)] == ["deck_confusable"]
    data: dict[str, Any] = {"cards": cards, "confusable_ok": [["Hot chocolate", "hot dog"]]}
    write(root, "decks/pictomania/en/level1.json", data)
    assert lines(root) == []
    data["confusable_ok"].append(["hot dog", "corn dog"])
    write(root, "decks/pictomania/en/level1.json", data)
    assert lines(root) == [
        "decks/pictomania/en/level1.json: “confusable_ok” names “corn dog”, which is on no "
        "card of this level."
    ]
    write(root, "decks/pictomania/en/level1.json", {"cards": cards, "confusable_ok": ["hot dog"]})
    assert [p.finding.code for p in check_all(root, DECK_GAMES)] == [
        "deck_confusable_ok_bad",
        "deck_confusable",
    ]


# --- pairs by meaning ------------------------------------------------------

PAIRS = "decks/meaning_pairs.json"


def test_a_listed_pair_on_two_cards_of_a_level_fails_the_check(root: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    set_cards(root, "en", 2, with_words(2, "en", ["hoover"], ["robot vacuum"]))
    assert lines(root) == []  # no shared letters: the mechanical check passes them
    write(root, PAIRS, {"en": [["Robot  vacuum", "hoover"]], "de": [["Skilift", "Seilbahn"]]})
    assert lines(root) == [
        "decks/pictomania/en/level2.json: Card L2-002: “robot vacuum” and “hoover” on card "
        "L2-001 of the same level are a listed pair that one drawing cannot tell apart "
        "(decks/meaning_pairs.json)."
    ]
    assert main(["check", "--root", str(root)]) == 1
    assert "robot vacuum" in capsys.readouterr().out


def test_a_listed_pair_on_one_card_is_a_near_synonym(root: Path) -> None:
    set_cards(root, "de", 1, with_words(1, "de", ["Suppe", "Eintopf"], []))
    write(root, PAIRS, {"de": [["Suppe", "Eintopf"]]})
    found = check_all(root, DECK_GAMES)
    assert [p.finding.code for p in found] == ["deck_meaning_pair_card"]
    assert found[0].finding.message("de") == (
        "Karte L1-001: „Eintopf“ und „Suppe“ sind ein in decks/meaning_pairs.json eingetragenes "
        "Paar, das gezeichnet nicht zu unterscheiden ist."
    )


def test_a_pair_on_two_levels_or_in_another_language_passes(root: Path) -> None:
    set_cards(root, "uk", 1, with_words(1, "uk", ["бігти"], []))
    set_cards(root, "uk", 2, with_words(2, "uk", ["спринт"], []))
    set_cards(root, "en", 2, with_words(2, "en", ["коробка"], ["ящик"]))
    write(root, PAIRS, {"uk": [["спринт", "бігти"], ["коробка", "ящик"]]})
    assert lines(root) == []


def test_a_pairs_file_of_another_shape_is_reported(root: Path) -> None:
    write(root, PAIRS, {"en": [["hoover", "robot vacuum", "mop"]]})
    assert [p.finding.code for p in check_all(root, DECK_GAMES)] == ["deck_meaning_pairs_bad"]
    write(root, PAIRS, {"fr": [["aspirateur", "robot"]]})
    assert lines(root) == [
        "decks/meaning_pairs.json: Unknown language “fr”; the languages are en, de, uk."
    ]


def test_the_shipped_pairs_fail_a_shipped_level_that_gets_one(tmp_path: Path) -> None:
    # the fixed decks pass; one listed word back on a card of its partner's level fails
    tree = tmp_path / "content"
    shutil.copytree(Path(str(content_root())), tree)
    assert lines(tree) == []
    pairs = json.loads((tree / PAIRS).read_text(encoding="utf-8"))
    assert {"en", "de", "uk"} <= set(pairs)
    level = tree / "decks/pictomania/en/level2.json"
    data: dict[str, Any] = json.loads(level.read_text(encoding="utf-8"))
    words = data["cards"][47]["words"]
    assert "hoover" in data["cards"][44]["words"] and "robot vacuum" not in words
    words[words.index("e-reader")] = "robot vacuum"
    level.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert [p.finding.code for p in check_all(tree, DECK_GAMES)] == ["deck_meaning_pair"]


# --- Incognito glosses ------------------------------------------------------

GLOSSES = "decks/incognito_glosses.json"


def test_every_incognito_word_needs_a_gloss_and_every_gloss_a_word(root: Path) -> None:
    write(root, GLOSSES, {"w001": "sock", "w002": "cat (the animal)"})
    assert lines(root) == []
    write(root, GLOSSES, {"w001": "sock", "w003": "kite (toy flown on a string)"})
    assert lines(root) == [
        "decks/incognito_glosses.json: Incognito word w002 has no gloss: name its object in "
        "English, so that every language can be read against it.",
        "decks/incognito_glosses.json: The gloss for w003 names no Incognito word.",
    ]
    write(root, GLOSSES, {"w001": "sock", "w002": " "})
    assert [p.finding.code for p in check_all(root, DECK_GAMES)] == ["incognito_glosses_bad"]


def test_the_shipped_glosses_cover_every_incognito_word() -> None:
    glosses = json.loads((Path(str(content_root())) / GLOSSES).read_text(encoding="utf-8"))
    assert [p.line() for p in check_all(content_root(), DECK_GAMES, string_folders()[1:])] == []
    assert len(glosses) >= 150
    # the senses the review found drifting: kite / dragon, nail / fingernail
    assert "toy" in glosses["w025"] and "metal" in glosses["w089"]
