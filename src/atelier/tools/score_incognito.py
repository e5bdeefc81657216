"""``atelier score incognito FILE|-``: score one round of the physical game from JSON.

Input: ``{"players": [names], "words": {author: tile}, "votes": {voter: {author: tile}}}``;
output: ``{"scores": {player: points}, "details": {player: {...}}}`` in the players' order.
Any broken rule or malformed input: exit status 2, one line on standard error, nothing on
standard output. See docs/incognito.md.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from atelier.errors import RuleError
from atelier.games.core import JSON
from atelier.games.incognito.scoring import score_round
from atelier.jsoncheck import is_int

USAGE = "usage: atelier score incognito FILE   (FILE may be - for standard input)"


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads would silently keep the last of two equal keys, hiding e.g. a voter
    # listed twice with different votes
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise RuleError("incognito.duplicate_key", name=key)
        result[key] = value
    return result


def parse_round(text: str) -> tuple[list[str], dict[str, int], dict[str, dict[str, int]]]:
    """(players, words, votes) from the input JSON; RuleError for malformed input. Rules
    (tile ranges, own drawings, ...) are checked by scoring.check_round."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as err:
        raise RuleError("incognito.bad_json", line=err.lineno, column=err.colno,
                        detail=err.msg) from None
    if not isinstance(data, dict):
        raise RuleError("incognito.bad_field", field="(top level)")
    # No "votes" at all is a round where nobody voted, like a voter left out.
    data.setdefault("votes", {})
    for key in ("players", "words"):
        if key not in data:
            raise RuleError("incognito.bad_field", field=key)

    players = data["players"]
    if not isinstance(players, list):
        raise RuleError("incognito.bad_field", field="players")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name:
            raise RuleError("incognito.bad_field", field=f"players[{i}]")

    words = data["words"]
    if not isinstance(words, dict):
        raise RuleError("incognito.bad_field", field="words")
    for author, tile in words.items():
        if not is_int(tile):
            raise RuleError("incognito.bad_field", field=f"words.{author}")

    votes = data["votes"]
    if not isinstance(votes, dict):
        raise RuleError("incognito.bad_field", field="votes")
    for voter, ballot in votes.items():
        if not isinstance(ballot, dict):
            raise RuleError("incognito.bad_field", field=f"votes.{voter}")
        for author, tile in ballot.items():
            if not is_int(tile):
                raise RuleError("incognito.bad_field", field=f"votes.{voter}.{author}")
    return players, words, votes


def score_text(text: str) -> dict[str, JSON]:
    players, words, votes = parse_round(text)
    result = score_round(players, words, votes)
    return {
        "scores": {p: result.totals[p] for p in players},
        "details": {
            p: {
                "found": result.found[p],
                "found_by": result.found_by[p],
                "finding_points": result.finding_points[p],
                "author_points": result.author_points[p],
                "total": result.totals[p],
            }
            for p in players
        },
    }


def _read(source: str) -> str:
    if source == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(source, "rb") as handle:
            raw = handle.read()
    return raw.decode("utf-8-sig")


def _fail(message: str) -> int:
    # exactly one line, whatever the message holds
    print("error: " + " ".join(message.split()), file=sys.stderr)
    return 2


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if len(args) != 1:
        return _fail(USAGE)
    try:
        text = _read(args[0])
    except OSError as err:
        return _fail(f"cannot read {args[0]}: {err.strerror or err}")
    except UnicodeDecodeError:
        return _fail(f"{args[0]} is not UTF-8 text")
    try:
        output = score_text(text)
    except RuleError as err:
        return _fail(err.message("en"))
    except RecursionError:
        return _fail("the JSON is nested too deeply")
    sys.stdout.write(json.dumps(output, ensure_ascii=False, indent=2) + "\n")
    return 0
