"""The interface strings use the glossary's words: the content check finds a
word the glossary says not to use, per language, and the shipped strings have
none; docs/glossary.md lists every term."""

from __future__ import annotations

import json
from pathlib import Path

from atelier.content.check import check_all
from atelier.content.glossary import avoided, glossary_findings, parse
from atelier.i18n import LANGUAGES, string_folders
from support.content import DECK_GAMES

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = json.loads((ROOT / "src/atelier/content/glossary.json").read_text(encoding="utf-8"))


def test_the_content_check_finds_a_word_the_glossary_avoids(tmp_path: Path) -> None:
    folder = tmp_path / "strings"
    folder.mkdir()
    strings = {
        "en": {"tv.waiting": "Waiting for the host.", "lobby.away": "offline"},
        "de": {"tv.waiting": "Warten, bis der Gastgeber startet.", "lobby.away": "abwesend"},
        "uk": {"tv.waiting": "Чекаємо на ведучого.", "lobby.away": "Не в мережі"},
    }
    (folder / "ui.json").write_text(json.dumps(strings, ensure_ascii=False), encoding="utf-8")
    found = sorted(
        (p.finding.params["name"], p.finding.params["language"], p.finding.params["word"])
        for p in check_all(tmp_path, DECK_GAMES)
        if p.finding.code == "strings_glossary"
    )
    assert found == [
        ("lobby.away", "en", "offline"),
        ("lobby.away", "uk", "не в мережі"),
        ("tv.waiting", "de", "Gastgeber"),
    ]
    message = next(p.line() for p in check_all(tmp_path, DECK_GAMES) if "Gastgeber" in p.line())
    assert message == (
        "strings/ui.json: The key tv.waiting in de says “Gastgeber”; "
        "the glossary’s word for “host” is “Spielleitung”."
    )


def test_a_stem_matches_endings_but_not_inside_a_word() -> None:
    words = parse(
        {"terms": [{"term": "x", "en": {"use": "paintbrush", "avoid": ["brush"]},
                    "de": {"use": "a", "avoid": []},
                    "uk": {"use": "змагальний", "avoid": ["ускладнен"]}}]}
    )
    def hits(lang: str, text: object) -> int:
        return len(list(glossary_findings({lang: {"k": text}}, words)))
    assert hits("en", "2 brushes") == 1
    assert hits("en", "Paintbrushes left") == 0
    assert hits("uk", "Ускладненому варіанті") == 1
    # A plural object's forms are read too.
    assert hits("en", {"one": "{n} brush", "other": "{n} paintbrushes"}) == 1


def test_a_word_ending_in_a_space_matches_only_the_whole_word() -> None:
    words = parse(
        {"terms": [{"term": "piece", "en": {"use": "piece", "avoid": []},
                    "de": {"use": "Teil", "avoid": ["Stein ", "Steine "]},
                    "uk": {"use": "фішка", "avoid": []}}]}
    )
    def hits(text: str) -> int:
        return len(list(glossary_findings({"de": {"k": text}}, words)))
    assert hits("neun Steine, mit denen") == 1
    assert hits("einen Stein.") == 1
    assert hits("Steinbock und Meilenstein") == 0


def test_the_shipped_strings_use_the_glossary_words() -> None:
    found = [
        p.line() for p in check_all(ROOT / "src/atelier/content", DECK_GAMES, string_folders()[1:])
        if p.finding.code == "strings_glossary"
    ]
    assert found == []


def test_every_term_has_each_language_and_is_in_the_docs() -> None:
    docs = (ROOT / "docs/glossary.md").read_text(encoding="utf-8")
    assert set(avoided()) == set(LANGUAGES)
    for entry in GLOSSARY["terms"]:
        assert f"| {entry['term']} |" in docs, entry["term"]
        for lang in LANGUAGES:
            assert entry[lang]["use"] in docs, (entry["term"], lang)
            for word in entry[lang]["avoid"]:
                assert word.strip() in docs, (entry["term"], lang, word)
