"""``atelier piet score|moves|arena`` and the record format."""

import io
import json
import sys
from pathlib import Path

import pytest

from atelier.cli import main
from atelier.games.piet.notation import RecordError, read_record

RECORD = """# a short game
setup: beginner

a1b1>a1
a2>b4
c1c2>c1
"""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_score_prints_the_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["piet", "score", write(tmp_path, RECORD)], capsys)
    assert code == 0 and err == ""
    assert json.loads(out) == {"scores": {"1": 4, "2": 1}, "finished": False, "winner": None,
                               "phase": "painting", "to_move": "2"}
    assert out.startswith('{"scores": {"1": 4, "2": 1}, "finished": false')


def test_score_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"setup: empty\nR@a1\n")))
    code, out, _ = run(["piet", "score", "-"], capsys)
    assert code == 0
    assert json.loads(out)["phase"] == "filling" and json.loads(out)["to_move"] == "2"


def test_moves_are_canonical_sorted_and_complete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["piet", "moves", write(tmp_path, "setup: empty\n")], capsys)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 27 and lines == sorted(lines)
    assert lines[0] == "B@a1"
    code, out, _ = run(["piet", "moves", write(tmp_path, "")], capsys)
    lines = out.splitlines()
    assert lines == sorted(lines) and len(lines) == 480
    assert "a1b1>c3" in lines and "b1a1>c3" not in lines and "a1b1>d3" not in lines


def test_a_finished_game_has_no_moves_and_a_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from atelier.tools.piet_arena import play_game

    record = play_game("greedy", "greedy", True, 5).record
    path = write(tmp_path, record)
    code, out, _ = run(["piet", "moves", path], capsys)
    assert code == 0 and out == ""
    code, out, _ = run(["piet", "score", path], capsys)
    result = json.loads(out)
    assert result["finished"] is True and result["phase"] == "over" and result["to_move"] is None
    scores = result["scores"]
    assert result["winner"] == ("1" if scores["1"] > scores["2"] else
                                "2" if scores["2"] > scores["1"] else "draw")


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("a1b1>a1\n# note\n\na1>a1\n", 4, "no piece on palette cell a1"),
        ("setup: beginner\na1b1>d1\n", 2, "would not fit"),
        ("a1b1>a1\nzz\n", 2, "Cannot read the move “zz”"),
        ("setup: weird\n", 1, "Cannot read the header"),
        ("a1>a1\nsetup: empty\n", 2, "Headers must come before"),
        ("a1>a1\na2c2>a1\n", 2, "connected"),
        ("R@a1\n", 1, "painting phase"),
        ("a1>a1 !b2=Y\n", 1, "without paintbrushes"),
    ],
)
def test_a_bad_line_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, reason: str
) -> None:
    for command in ("score", "moves"):
        code, out, err = run(["piet", command, write(tmp_path, text)], capsys)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith(f"line {line}: ")
        assert reason in err


def test_records_read_headers_comments_and_any_cell_order() -> None:
    replayed = read_record("\ufeff# x\r\nsetup: empty\r\nbrushes: on\r\nR@a1\r\n")
    assert replayed.record.setup == "empty" and replayed.record.brushes
    same = read_record("b1a1>d3\n").final
    assert same == read_record("a1b1>c3\n").final
    with pytest.raises(RecordError) as err:
        read_record("brushes: on\nbrushes: off\n")
    assert err.value.line == 2


def test_arena_prints_results_and_times(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["piet", "arena", "--a", "greedy", "--b", "random", "--games", "4"], capsys)
    assert code == 0
    assert "A wins/draws/losses" in out and "A first  " in out and "A second " in out
    assert "mean score difference" in out and "median" in out and "p95" in out
