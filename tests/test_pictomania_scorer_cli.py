"""`atelier score pictomania`: JSON in, JSON out; rule breaks exit 2 with one line."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from atelier.cli import main

ISSUE_EXAMPLE: dict[str, Any] = {
    "edition": "second",
    "variant": "standard",
    "learning_round": False,
    "players": ["red", "blue", "green", "yellow"],
    "drawings": [
        {
            "player": "red",
            "number": 3,
            "void": False,
            "guesses": [{"by": "blue", "number": 3}, {"by": "green", "number": 5}],
        }
    ],
    "black_tokens": {"red": 3, "blue": 2},
    "player_tokens": [3, 2, 1],
}

RULEBOOK: dict[str, Any] = {
    "edition": "second",
    "players": ["red", "blue", "green", "yellow"],
    "drawings": [
        {"player": "red", "number": 1, "guesses": [{"by": "yellow", "number": 1}]},
        {
            "player": "blue",
            "number": 2,
            "guesses": [{"by": "red", "number": 2}, {"by": "yellow", "number": 2}],
        },
        {"player": "green", "number": 3},
        {
            "player": "yellow",
            "number": 4,
            "guesses": [
                {"by": "red", "number": 4},
                {"by": "blue", "number": 4},
                {"by": "green", "number": 6},
            ],
        },
    ],
    "black_tokens": {"yellow": 2},
}


def run(data: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    text = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code = main(["score", "pictomania", "-"])
    out, err = capsys.readouterr()
    return code, out, err


def score(data: Any, capsys: Any, monkeypatch: Any) -> dict[str, Any]:
    code, out, err = run(data, capsys, monkeypatch)
    assert (code, err) == (0, "")
    result: dict[str, Any] = json.loads(out)
    return result


def refused(data: Any, capsys: Any, monkeypatch: Any) -> str:
    code, out, err = run(data, capsys, monkeypatch)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err
    return str(err)


def test_issue_example(capsys: Any, monkeypatch: Any) -> None:
    result = score(ISSUE_EXAMPLE, capsys, monkeypatch)
    assert result["scores"] == {"red": 0, "blue": -3, "green": -6, "yellow": -6}
    assert result["black_sheep"] == "green"
    blue = result["details"]["blue"]
    assert blue["tokens_received"] == [{"from": "red", "value": 3}]
    assert blue["tokens_kept"] == [3, 2, 1]  # nobody guessed blue: not void, just unguessed
    assert blue["black_token"] == 2 and blue["black_token_counted"] == "0"
    red = result["details"]["red"]
    assert red["black_token_counted"] == "+" and red["tokens_kept"] == [2, 1]
    assert result["details"]["green"]["wrong_guesses"] == 1
    assert result["details"]["yellow"]["black_token_counted"] is None


def test_rulebook_scenario_yellow_scores_six(capsys: Any, monkeypatch: Any) -> None:
    result = score(RULEBOOK, capsys, monkeypatch)
    yellow = result["details"]["yellow"]
    assert result["scores"]["yellow"] == 6
    assert [t["value"] for t in yellow["tokens_received"]] == [3, 2]
    assert yellow["tokens_kept"] == [1]
    assert yellow["black_token"] == 2 and yellow["black_token_counted"] == "+"
    assert result["black_sheep"] == "green"
    assert set(result["scores"]) == {"red", "blue", "green", "yellow"}


def test_reads_a_file_too(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(RULEBOOK))
    assert main(["score", "pictomania", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["scores"]["yellow"] == 6


def test_missing_file_is_one_line(tmp_path: Path, capsys: Any) -> None:
    assert main(["score", "pictomania", str(tmp_path / "nope.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1


def test_void_drawing(capsys: Any, monkeypatch: Any) -> None:
    data = copy.deepcopy(RULEBOOK)
    data["drawings"][3]["void"] = True
    result = score(data, capsys, monkeypatch)
    yellow = result["details"]["yellow"]
    assert yellow["tokens_kept"] == [3, 2, 1]
    assert yellow["black_token_counted"] == "0"
    assert result["black_sheep"] is None  # green's wrong guess was handed back
    assert result["details"]["red"]["tokens_received"] == [{"from": "blue", "value": 3}]
    assert result["scores"]["yellow"] == 5 - 6


VOID_BLACK_SHEEP: dict[str, Any] = {
    # Red drew void and guessed wrong on everyone: the black sheep, holding the 3.
    "players": ["red", "blue", "green", "yellow"],
    "drawings": [
        {"player": "red", "number": 1, "void": True},
        {"player": "blue", "number": 2, "guesses": [{"by": "red", "number": 5}]},
        {"player": "green", "number": 3, "guesses": [{"by": "red", "number": 6}]},
        {"player": "yellow", "number": 4, "guesses": [{"by": "red", "number": 7}]},
    ],
    "black_tokens": {"red": 3},
}


@pytest.mark.parametrize(
    ("edition", "counted", "total"),
    # 2nd: "you return your black token to the center" (0): -6, not -9.
    # 1st: "keine Pluspunkte ..., aber immer noch Minuspunkte": -6 - 3.
    [("second", "0", -6), ("first", "-", -9)],
)
def test_void_black_sheep_per_edition(
    edition: str, counted: str, total: int, capsys: Any, monkeypatch: Any
) -> None:
    result = score({**VOID_BLACK_SHEEP, "edition": edition}, capsys, monkeypatch)
    assert result["black_sheep"] == "red"
    assert result["details"]["red"]["black_token_counted"] == counted
    assert result["scores"]["red"] == total


def test_learning_round_counts_every_black_token(capsys: Any, monkeypatch: Any) -> None:
    data = copy.deepcopy(RULEBOOK)
    data["learning_round"] = True
    data["black_tokens"] = {"yellow": 2, "green": 3}
    result = score(data, capsys, monkeypatch)
    assert result["black_sheep"] is None
    assert result["details"]["green"]["black_token_counted"] == "+"
    assert result["scores"]["green"] == -6 + 3


def test_first_edition_table_and_black_sheep(capsys: Any, monkeypatch: Any) -> None:
    data = copy.deepcopy(RULEBOOK)
    data["edition"] = "first"
    data["black_tokens"] = {"yellow": 2, "green": 1, "red": 3}
    result = score(data, capsys, monkeypatch)
    assert result["details"]["green"]["black_token_counted"] == "-"
    assert result["scores"]["green"] == -6 - 1
    assert result["scores"]["red"] == 3 + 3 - (2 + 1) + 3


def test_overrides(capsys: Any, monkeypatch: Any) -> None:
    data = copy.deepcopy(RULEBOOK)
    data["player_tokens"] = [1, 4, 2]  # given out highest first whatever the order
    data["black_token_values"] = [5]
    data["black_tokens"] = {"yellow": 5}
    result = score(data, capsys, monkeypatch)
    assert [t["value"] for t in result["details"]["yellow"]["tokens_received"]] == [4, 2]
    assert result["scores"]["yellow"] == 6 + 5 - 1


def test_competitive_table_has_one_token_fewer(capsys: Any, monkeypatch: Any) -> None:
    data = copy.deepcopy(RULEBOOK)
    data["variant"] = "competitive"
    data["black_tokens"] = {"red": 3, "blue": 2, "yellow": 2}
    assert "yellow" in score(data, capsys, monkeypatch)["scores"]
    data["black_tokens"]["green"] = 1  # standard 4-player table has a 1; competitive drops it
    assert "1" in refused(data, capsys, monkeypatch)


def with_change(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(RULEBOOK)
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is KeyError:
        del node[int(last) if last.isdigit() else last]
    elif last.isdigit():
        node[int(last)] = value
    else:
        node[last] = value
    return data


BREAKS = {
    "own drawing": with_change("drawings.0.guesses.0", {"by": "red", "number": 1}),
    "twice on one drawing": with_change(
        "drawings.1.guesses", [{"by": "red", "number": 2}, {"by": "red", "number": 5}]
    ),
    "number used twice": with_change("drawings.1.guesses.1", {"by": "yellow", "number": 1}),
    "number above 7": with_change("drawings.0.guesses.0.number", 8),
    "number zero": with_change("drawings.0.number", 0),
    "same drawing number": with_change("drawings.2.number", 1),
    "unknown guesser": with_change("drawings.0.guesses.0.by", "purple"),
    "unknown drawer": with_change("drawings.2.player", "purple"),
    "unknown black token holder": with_change("black_tokens", {"purple": 2}),
    "two drawings by one player": with_change("drawings.2.player", "red"),
    "too many players": with_change("players", ["a", "b", "c", "d", "e", "f", "g"]),
    "too few players": with_change("players", ["red", "blue"]),
    "duplicate player": with_change("players", ["red", "blue", "green", "red"]),
    "black value not on table": with_change("black_tokens", {"yellow": 4}),
    "black value taken too often": with_change("black_tokens", {"yellow": 3, "red": 3}),
    "second 1 in first edition": {
        **with_change("black_tokens", {"red": 1, "blue": 1}),
        "edition": "first",
    },
    "edition missing": with_change("edition", KeyError),
    "edition unknown": with_change("edition", "third"),
    "players missing": with_change("players", KeyError),
    "drawing number missing": with_change("drawings.0.number", KeyError),
    "guess by missing": with_change("drawings.0.guesses.0.by", KeyError),
    "number as string": with_change("drawings.0.number", "1"),
    "number as bool": with_change("drawings.0.guesses.0.number", True),
    "number as float": with_change("drawings.0.guesses.0.number", 1.0),
    "void not bool": with_change("drawings.0.void", "yes"),
    "drawings not a list": with_change("drawings", {"red": 1}),
    "guess not an object": with_change("drawings.0.guesses.0", 1),
    "black tokens not an object": with_change("black_tokens", [2]),
    "black value not a number": with_change("black_tokens", {"yellow": "2"}),
    "player tokens not a list": with_change("player_tokens", 3),
    "negative player token": with_change("player_tokens", [3, -2, 1]),
    "unknown field": with_change("colour", "red"),
    "variant unknown": with_change("variant", "kids"),
    "competitive first edition": {**with_change("variant", "competitive"), "edition": "first"},
    "learning round first edition": {**with_change("learning_round", True), "edition": "first"},
}


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_rule_breaks_exit_2_with_one_line(case: str, capsys: Any, monkeypatch: Any) -> None:
    refused(BREAKS[case], capsys, monkeypatch)


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "3", '"x"', "[" * 100000, "NaN"])
def test_malformed_input_exits_2(text: str, capsys: Any, monkeypatch: Any) -> None:
    refused(text, capsys, monkeypatch)


def test_error_names_the_problem(capsys: Any, monkeypatch: Any) -> None:
    assert "own drawing" in refused(BREAKS["own drawing"], capsys, monkeypatch)
    assert "purple" in refused(BREAKS["unknown guesser"], capsys, monkeypatch)
    assert "1-7" in refused(BREAKS["number above 7"], capsys, monkeypatch)
    assert "twice" in refused(BREAKS["number used twice"], capsys, monkeypatch)
    assert "edition" in refused(BREAKS["edition missing"], capsys, monkeypatch)


def test_the_installed_command_reads_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "atelier", "score", "pictomania", "-"],
        input=json.dumps(RULEBOOK),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"]["yellow"] == 6
    bad = subprocess.run(
        [sys.executable, "-m", "atelier", "score", "pictomania", "-"],
        input="{",
        capture_output=True,
        text=True,
        check=False,
    )
    assert (bad.returncode, bad.stdout, bad.stderr.count("\n")) == (2, "", 1)
