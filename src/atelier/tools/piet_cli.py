"""``atelier piet score|moves|arena``: records and computer players from the shell."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from atelier.games.piet.notation import RecordError, Replayed, format_move, read_record
from atelier.games.piet.rules import OVER, legal_moves, winner

USAGE = """usage: atelier piet score FILE|-
       atelier piet moves FILE|-
       atelier piet arena [--a LEVEL] [--b LEVEL] [--games N] [--seed S] [--brushes]
                          [--setup beginner|empty] [--budget NODES]"""


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.buffer.read().decode("utf-8")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _replay(argv: list[str]) -> Replayed | int:
    """The record the one argument names, or the exit status of a bad call."""
    if len(argv) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    path = argv[0]
    try:
        return read_record(_read(path))
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {path}: {error}", file=sys.stderr)
        return 2


def score_json(replayed: Replayed) -> dict[str, object]:
    state = replayed.final
    won = winner(state)
    return {
        "scores": {"1": state.scores[0], "2": state.scores[1]},
        "finished": state.phase == OVER,
        "winner": None if won is None else "draw" if won < 0 else str(won + 1),
        "phase": state.phase,
        "to_move": None if state.phase == OVER else str(state.to_move + 1),
    }


def _score(argv: list[str]) -> int:
    replayed = _replay(argv)
    if isinstance(replayed, int):
        return replayed
    print(json.dumps(score_json(replayed)))
    return 0


def _moves(argv: list[str]) -> int:
    replayed = _replay(argv)
    if isinstance(replayed, int):
        return replayed
    lines = sorted(format_move(m, brush=False) for m in legal_moves(replayed.final))
    if lines:
        print("\n".join(lines))
    return 0


def _arena(argv: list[str]) -> int:
    from atelier.tools.piet_arena import main as arena_main

    return arena_main(argv)


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    commands = {"score": _score, "moves": _moves, "arena": _arena}
    if not args or args[0] not in commands:
        if args[:1] in (["-h"], ["--help"]):
            print(USAGE)
            return 0
        print(USAGE, file=sys.stderr)
        return 2
    return commands[args[0]](args[1:])

