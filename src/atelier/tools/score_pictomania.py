"""``atelier score pictomania FILE|-``: score one round of the physical game.

Reads one round as JSON, prints the scores as JSON. Input that breaks a rule,
or that is not the documented shape, exits 2 with one line on stderr and
nothing on stdout. The scoring itself is :mod:`.scoring`, shared with the engine.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Mapping
from typing import Any

from atelier.games.pictomania import tokens
from atelier.games.pictomania.scoring import Guess, RoundInput, RoundScore, score_round
from atelier.jsoncheck import is_int

USAGE = "usage: atelier score pictomania FILE   (FILE may be - for standard input)"

_TOP_KEYS = {
    "edition", "variant", "learning_round", "players", "drawings",
    "black_tokens", "player_tokens", "black_token_values",
}  # fmt: skip
_DRAWING_KEYS = {"player", "number", "void", "guesses"}
_GUESS_KEYS = {"by", "number"}


class InputError(Exception):
    """One line naming what is wrong with the input."""


def main(argv: list[str]) -> int:
    if argv in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if len(argv) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        text = _read(argv[0])
        result = score_json(json.loads(text))
    except InputError as err:
        return _fail(str(err))
    except json.JSONDecodeError as err:
        return _fail(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}")
    except RecursionError:
        return _fail("not valid JSON: nested too deeply")
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _fail(message: str) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return 2


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text") from err
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from err


def score_json(data: Any) -> dict[str, Any]:
    """Validate one round given as parsed JSON and score it."""
    round_input, names = parse_round(data)
    return render(score_round(round_input), names)


def parse_round(data: Any) -> tuple[RoundInput, list[str]]:
    obj = _object(data, "the input", _TOP_KEYS)
    if "edition" not in obj:
        raise InputError('missing field "edition" ("first" or "second")')
    edition = obj["edition"]
    if edition not in ("first", "second"):
        raise InputError(f'"edition" must be "first" or "second", not {_show(edition)}')
    variant = obj.get("variant", "standard")
    if variant not in ("standard", "competitive"):
        raise InputError(f'"variant" must be "standard" or "competitive", not {_show(variant)}')
    if edition == "first" and variant == "competitive":
        raise InputError('the "competitive" variant exists only in the second edition')
    learning = _bool(obj.get("learning_round", False), '"learning_round"')
    if edition == "first" and learning:
        raise InputError("the learning round exists only in the second edition")

    names = _players(obj)
    index = {name: i for i, name in enumerate(names)}
    n = len(names)

    def player(value: Any, where: str) -> int:
        if not isinstance(value, str):
            raise InputError(f"{where} must be a player name (a string), not {_show(value)}")
        if value not in index:
            raise InputError(f"{where}: unknown player {_show(value)}")
        return index[value]

    numbers: dict[int, int] = {}
    stacks: dict[int, list[Guess]] = {}
    void: set[int] = set()
    spent: dict[int, set[int]] = {i: set() for i in range(n)}
    drawings = obj.get("drawings", [])
    if not isinstance(drawings, list):
        raise InputError(f'"drawings" must be a list, not {_show(drawings)}')
    number_owner: dict[int, str] = {}
    for d, raw in enumerate(drawings):
        where = f"drawings[{d}]"
        entry = _object(raw, where, _DRAWING_KEYS)
        for key in ("player", "number"):
            if key not in entry:
                raise InputError(f'{where}: missing field "{key}"')
        drawer = player(entry["player"], f"{where}.player")
        if drawer in numbers:
            raise InputError(f"{where}: a second drawing by {names[drawer]}")
        number = _number(entry["number"], f"{where}.number")
        if number in number_owner:
            raise InputError(
                f"{where}: {names[drawer]} and {number_owner[number]} both drew number {number}"
            )
        number_owner[number] = names[drawer]
        numbers[drawer] = number
        if _bool(entry.get("void", False), f"{where}.void"):
            void.add(drawer)
        guesses = entry.get("guesses", [])
        if not isinstance(guesses, list):
            raise InputError(f"{where}.guesses must be a list, not {_show(guesses)}")
        stack: list[Guess] = []
        for g, raw_guess in enumerate(guesses):
            gwhere = f"{where}.guesses[{g}]"
            guess = _object(raw_guess, gwhere, _GUESS_KEYS)
            for key in ("by", "number"):
                if key not in guess:
                    raise InputError(f'{gwhere}: missing field "{key}"')
            by = player(guess["by"], f"{gwhere}.by")
            value = _number(guess["number"], f"{gwhere}.number")
            if by == drawer:
                raise InputError(f"{gwhere}: {names[by]} guessed on their own drawing")
            if any(prior.by == by for prior in stack):
                raise InputError(
                    f"{gwhere}: {names[by]} guessed twice on {names[drawer]}'s drawing"
                )
            if value in spent[by]:
                raise InputError(f"{gwhere}: {names[by]} used guess number {value} twice")
            spent[by].add(value)
            stack.append(Guess(by, value))
        stacks[drawer] = stack

    player_tokens = (
        _values(obj["player_tokens"], '"player_tokens"')
        if "player_tokens" in obj
        else tokens.player_tokens(n)
    )
    table = (
        _values(obj["black_token_values"], '"black_token_values"')
        if "black_token_values" in obj
        else tokens.black_tokens(edition, variant == "competitive", n)
    )
    black = _black_tokens(obj.get("black_tokens", {}), table, player)
    return (
        RoundInput(
            players=n,
            numbers=numbers,
            stacks=stacks,
            black=black,
            player_tokens=player_tokens,
            void=frozenset(void),
            learning_round=learning,
            edition=edition,
        ),
        names,
    )


def render(result: RoundScore, names: list[str]) -> dict[str, Any]:
    details: dict[str, Any] = {}
    for i, name in enumerate(names):
        p = result.players[i]
        details[name] = {
            "tokens_received": [{"from": names[src], "value": v} for src, v in p.received],
            "tokens_kept": list(p.kept),
            "black_token": p.black_token,
            "black_token_counted": p.black_counted,
            "wrong_guesses": p.wrong_guesses,
            "guessed": p.guessed,
            "score": p.score,
        }
    return {
        "scores": {name: result.players[i].score for i, name in enumerate(names)},
        "black_sheep": None if result.black_sheep is None else names[result.black_sheep],
        "details": details,
    }


def _players(obj: Mapping[str, Any]) -> list[str]:
    if "players" not in obj:
        raise InputError('missing field "players"')
    names = obj["players"]
    if not isinstance(names, list) or not all(isinstance(x, str) and x for x in names):
        raise InputError('"players" must be a list of non-empty names')
    if not tokens.MIN_PLAYERS <= len(names) <= tokens.MAX_PLAYERS:
        raise InputError(
            f"{len(names)} players: Pictomania is for "
            f"{tokens.MIN_PLAYERS} to {tokens.MAX_PLAYERS} players"
        )
    twice = [name for name, count in Counter(names).items() if count > 1]
    if twice:
        raise InputError(f"player {_show(twice[0])} is listed twice")
    return list(names)


def _black_tokens(raw: Any, table: tuple[int, ...], player: Any) -> dict[int, int]:
    if not isinstance(raw, dict):
        raise InputError(f'"black_tokens" must be an object of player: value, not {_show(raw)}')
    left = Counter(table)
    taken: dict[int, int] = {}
    for name, value in raw.items():
        who: int = player(name, '"black_tokens"')
        if value is None:  # written out as took none
            continue
        stars = _int(value, f'"black_tokens".{name}')
        if left[stars] <= 0:
            if stars in table:
                raise InputError(
                    f"black token {stars} taken more often than the table holds it"
                    f" ({table.count(stars)}; table: {list(table)})"
                )
            raise InputError(f"black token {stars} is not on the table {list(table)}")
        left[stars] -= 1
        taken[who] = stars
    return taken


def _object(value: Any, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{where} must be a JSON object, not {_show(value)}")
    unknown = sorted(set(value) - keys)
    if unknown:
        raise InputError(f"{where}: unknown field {_show(unknown[0])}")
    return value


def _int(value: Any, where: str) -> int:
    if not is_int(value):
        raise InputError(f"{where} must be a whole number, not {_show(value)}")
    return value


def _number(value: Any, where: str) -> int:
    number = _int(value, where)
    if not 1 <= number <= 7:
        raise InputError(f"{where}: {number} is outside 1-7")
    return number


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{where} must be true or false, not {_show(value)}")
    return value


def _values(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise InputError(f"{where} must be a non-empty list of token values")
    stars = tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(value))
    if any(v < 0 for v in stars):
        raise InputError(f"{where}: token values cannot be negative")
    return stars


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
