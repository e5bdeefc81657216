"""`atelier score incognito FILE|-`: the JSON it prints and the errors it refuses."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from atelier.cli import main
from atelier.games.incognito.scoring import score_round
from atelier.tools.score_incognito import parse_round

ISSUE_EXAMPLE = {
    "players": ["ann", "bob", "cy", "dee"],
    "words": {"ann": 2, "bob": 5, "cy": 1, "dee": 6},
    "votes": {"ann": {"bob": 5, "cy": 3, "dee": 6}, "bob": {"ann": 2, "cy": 1, "dee": 4}},
}


def run_stdin(text: str, capsys: pytest.CaptureFixture[str],
              monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    code = main(["score", "incognito", "-"])
    out, err = capsys.readouterr()
    return code, out, err


def test_issue_example_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ISSUE_EXAMPLE), encoding="utf-8")
    assert main(["score", "incognito", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    result = json.loads(out)
    assert result["scores"] == {"ann": 4, "bob": 4, "cy": 2, "dee": 2}
    assert list(result["scores"]) == ISSUE_EXAMPLE["players"]
    assert result["details"]["ann"] == {
        "found": ["bob", "dee"], "found_by": ["bob"],
        "finding_points": 2, "author_points": 2, "total": 4,
    }
    assert result["details"]["cy"]["found_by"] == ["bob"]


def test_rulebook_example_from_stdin(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    data = {
        "players": ["Marjolaine", "Roméo", "Ада", "Ben", "Cleo"],
        "words": {"Marjolaine": 1, "Roméo": 3, "Ада": 4, "Ben": 5, "Cleo": 6},
        "votes": {
            "Marjolaine": {"Roméo": 3, "Ада": 4, "Ben": 6, "Cleo": 2},
            "Roméo": {"Marjolaine": 1}, "Ада": {"Marjolaine": 1},
            "Ben": {"Marjolaine": 1}, "Cleo": {"Marjolaine": 2},
        },
    }
    code, out, _ = run_stdin(json.dumps(data, ensure_ascii=False), capsys, monkeypatch)
    assert code == 0
    scores = json.loads(out)["scores"]
    assert scores["Marjolaine"] == 4
    # Roméo and Ада: found hers (1) + found by her only (2); Ben found hers, nobody his
    assert scores == {"Marjolaine": 4, "Roméo": 3, "Ада": 3, "Ben": 1, "Cleo": 0}


def test_every_player_is_scored_even_without_votes(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"players": ["a", "b", "c"], "words": {"a": 1, "b": 2, "c": 3}, "votes": {}}
    code, out, _ = run_stdin(json.dumps(data), capsys, monkeypatch)
    assert code == 0
    assert json.loads(out)["scores"] == {"a": 0, "b": 0, "c": 0}


def _case(**changes: Any) -> str:
    data: dict[str, Any] = json.loads(json.dumps(ISSUE_EXAMPLE))
    data.update(changes)
    return json.dumps(data)


BAD_INPUTS = {
    "own drawing": (_case(votes={"ann": {"ann": 2}}), "ann"),
    "tile above 6": (_case(votes={"ann": {"bob": 7}}), "7"),
    "tile 0": (_case(votes={"ann": {"bob": 0}}), "0"),
    "word tile outside": (_case(words={"ann": 9, "bob": 5, "cy": 1, "dee": 6}), "9"),
    "tile used twice": (_case(votes={"ann": {"bob": 4, "cy": 4}}), "4"),
    "two authors on a tile": (_case(words={"ann": 5, "bob": 5, "cy": 1, "dee": 6}), "5"),
    "unknown voter": (_case(votes={"eve": {"ann": 2}}), "eve"),
    "unknown author": (_case(votes={"ann": {"eve": 2}}), "eve"),
    "unknown word owner": (_case(words={"ann": 2, "bob": 5, "cy": 1, "dee": 6, "eve": 3}),
                           "eve"),
    "two players": (json.dumps({"players": ["a", "b"], "words": {"a": 1, "b": 2},
                                "votes": {}}), "3"),
    "seven players": (json.dumps({"players": list("abcdefg"),
                                  "words": {p: i + 1 for i, p in enumerate("abcdef")},
                                  "votes": {}}), "6"),
    "duplicate name": (_case(players=["ann", "bob", "cy", "ann"]), "ann"),
    "missing word": (_case(words={"ann": 2, "bob": 5, "cy": 1}), "dee"),
    "malformed json": ('{"players": [', "JSON"),
    "not an object": ("[1, 2]", "top level"),
    "players not a list": (_case(players="ann"), "players"),
    "a name not a string": (_case(players=["ann", "bob", "cy", 4]), "players"),
    "tile as string": (_case(votes={"ann": {"bob": "5"}}), "votes.ann.bob"),
    "tile as boolean": (_case(words={"ann": True, "bob": 5, "cy": 1, "dee": 6}), "words.ann"),
    "tile as float": (_case(votes={"ann": {"bob": 5.0}}), "votes.ann.bob"),
    "ballot not an object": (_case(votes={"ann": [5]}), "votes.ann"),
    "words missing": (json.dumps({"players": ["a", "b", "c"], "votes": {}}), "words"),
    "duplicate key": ('{"players": ["a", "b", "c"], "words": {"a": 1, "b": 2, "c": 3},'
                      ' "votes": {"a": {"b": 2}, "a": {"b": 3}}}', "a"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line_naming_it(
        name: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    text, mention = BAD_INPUTS[name]
    code, out, err = run_stdin(text, capsys, monkeypatch)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert mention in err


def test_missing_file_and_bad_arguments(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "incognito", str(tmp_path / "nope.json")]) == 2
    assert main(["score", "incognito"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 2


def test_the_installed_command_reads_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "atelier", "score", "incognito", "-"],
        input=json.dumps(ISSUE_EXAMPLE), capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"]["ann"] == 4


def test_a_round_without_votes_scores_nobody() -> None:
    players, words, votes = parse_round(
        json.dumps({"players": ["a", "b", "c"], "words": {"a": 1, "b": 2, "c": 3}})
    )
    assert votes == {}
    assert score_round(players, words, votes).totals == {"a": 0, "b": 0, "c": 0}
