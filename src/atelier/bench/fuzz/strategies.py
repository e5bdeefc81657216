"""What the fuzzer sends, as hypothesis strategies: every client message type
with plausible and broken fields, game actions from the games' declared shapes,
random JSON, nested and oversized frames, text that is not JSON, ink batches."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, get_args

from hypothesis import strategies as st
from pydantic.fields import FieldInfo

from atelier.bench.fuzz.figures import MESSAGE_TYPES
from atelier.games.actions import ActionSchema
from atelier.games.core import Game
from atelier.ink.codec import Begin, Clear, End, InkError, Op, Points, Undo, encode_batch
from atelier.server.room.model import COLOURS

# --- message strategies ---------------------------------------------------------------

JSON_LEAF = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
             | st.floats(allow_nan=False) | st.text(max_size=24))
ANY_JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
SMALL_INT = st.integers(-2, 12) | st.integers(-(2**40), 2**40) | st.sampled_from([2**31, 2**53])
NAMES = st.text(max_size=30) | st.sampled_from(["Ann", "Bob", "  ", "\u0000x", "Ann", "a" * 21])
PLAYER_IDS = st.sampled_from(["p1", "p2", "p3", "p4", "p5", "p9", "c0", "c1", ""]) | st.text(
    max_size=70)


def _leaves(annotation: Any) -> set[Any]:
    args = get_args(annotation)
    if not args:
        return {annotation}
    return set().union(*(_leaves(a) for a in args))


@dataclass(frozen=True)
class Legal:
    """Stands for the ``k``-th legal move of the position the message is sent in
    (Piet's ``legal_moves``): scripts are drawn before the game is played, so
    what hypothesis draws never depends on the server's answers."""

    k: int


PLAUSIBLE = st.sampled_from(["A", "B", "C", "★", "a1", "b2>c3"]) | st.builds(
    Legal, st.integers(0, 60))


def _field(info: FieldInfo) -> st.SearchStrategy[Any]:
    """Values for one declared action field: mostly of its type, sometimes not."""
    kinds = _leaves(info.annotation)
    options: list[st.SearchStrategy[Any]] = []
    if "list[" in repr(info.annotation):
        options.append(st.lists(SMALL_INT, max_size=5))
    if int in kinds:
        options.append(SMALL_INT)
    if bool in kinds:
        options.append(st.booleans())
    if str in kinds:
        options.append(PLAUSIBLE)
        options.append(st.text(max_size=80))
    if type(None) in kinds:
        options.append(st.none())
    return st.one_of(*options) if options else ANY_JSON


@st.composite
def game_action(draw: st.DrawFn, schema: ActionSchema) -> dict[str, Any]:
    """An action of a declared shape, often valid, sometimes broken."""
    kind = draw(st.sampled_from(schema.types()))
    model = schema.models[kind]
    action: dict[str, Any] = {"type": kind}
    for name, info in model.model_fields.items():
        if name == "type":
            continue
        if info.is_required() or draw(st.booleans()):
            action[name] = draw(_field(info))
    mutation = draw(st.integers(0, 9))
    if mutation == 0:
        action[draw(st.text(min_size=1, max_size=10))] = draw(ANY_JSON)
    elif mutation == 1 and len(action) > 1:
        action.pop(draw(st.sampled_from(sorted(k for k in action if k != "type"))))
    elif mutation == 2:
        action[draw(st.sampled_from(sorted(action)))] = draw(ANY_JSON)
    elif mutation == 3:
        action["type"] = draw(st.text(max_size=12) | st.sampled_from(["move", "guess", "vote"]))
    return action


def settings_change(games: list[Game[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    keys = sorted({key for game in games for key in game.default_settings()})
    return st.dictionaries(st.sampled_from(keys) | st.text(max_size=10),
                           ANY_JSON | SMALL_INT | st.booleans(), max_size=3)


@st.composite
def client_message(draw: st.DrawFn, games: list[Game[Any]]) -> dict[str, Any]:
    """Any client message; a game action of any of ``games`` (another game's is one
    more kind of wrong)."""
    t = draw(st.sampled_from(MESSAGE_TYPES))
    msg: dict[str, Any] = {"t": t}
    if t == "hello":
        msg.update(v=draw(st.sampled_from([1, 2, "1"])), token=draw(st.none() | st.text(
            max_size=40)))
    elif t == "join":
        msg.update(name=draw(NAMES), colour=draw(st.sampled_from([*COLOURS, "pink", ""])))
    elif t == "rename":
        msg["name"] = draw(NAMES)
    elif t == "lang":
        msg["lang"] = draw(st.sampled_from(["en", "de", "uk", "xx", "de-AT"]) | st.text(
            max_size=70))
    elif t == "settings":
        msg["settings"] = draw(settings_change(games))
    elif t in ("kick", "host"):
        msg["player"] = draw(PLAYER_IDS)
    elif t == "agree":
        msg.update(name=draw(st.sampled_from(["hints", "record"]) | st.text(max_size=10)),
                   on=draw(st.booleans()))
    elif t == "act":
        schema = draw(st.sampled_from([g.actions for g in games]))
        msg["action"] = draw(game_action(schema))
    mutation = draw(st.integers(0, 11))
    if mutation == 0:
        msg[draw(st.text(min_size=1, max_size=10))] = draw(ANY_JSON)
    elif mutation == 1:
        msg[draw(st.sampled_from(sorted(msg)))] = draw(ANY_JSON)
    elif mutation == 2:
        msg["t"] = draw(st.text(max_size=10))
    return msg


def nested(depth: int, opener: str) -> str:
    if opener == "[":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "0" + "}" * depth


@st.composite
def junk_text(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 6))
    if kind == 0:
        return draw(st.text(max_size=200))
    if kind == 1:
        return nested(draw(st.integers(30, 6000)), draw(st.sampled_from(["[", "{"])))
    if kind == 2:
        return json.dumps(draw(ANY_JSON))
    if kind == 3:  # around the 16 KiB limit
        return json.dumps({"t": "ping", "pad": "x" * draw(st.integers(16_300, 16_500))})
    if kind == 4:
        return '{"t": "act", "action": ' + nested(draw(st.integers(20, 900)), "[") + "}"
    if kind == 5:
        return draw(st.sampled_from(["", "{", "null", "[]", '"t"', "{}", '{"t": null}',
                                     '{"t": "act"}', '"\\ud800"', "1e999999"]))
    return '{"t": "settings", "settings": {"a": ' + nested(draw(st.integers(25, 60)), "[") + "}}"


@st.composite
def ink_ops(draw: st.DrawFn) -> list[Op]:
    ops: list[Op] = []
    for _ in range(draw(st.integers(1, 3))):
        what = draw(st.integers(0, 5))
        if what <= 3:
            pressure = draw(st.booleans())
            ops.append(Begin(draw(st.sampled_from(["pen", "eraser"])), draw(st.integers(1, 60)),
                             draw(st.integers(-100, 4200)), draw(st.integers(-100, 4200)),
                             draw(st.integers(0, 10**6)),
                             draw(st.integers(0, 63)) if pressure else None))
            n = draw(st.integers(0, 12))
            deltas = draw(st.lists(st.integers(-60, 60), min_size=4 * n, max_size=4 * n))
            if pressure:
                deltas = [d if i % 4 != 3 else 0 for i, d in enumerate(deltas)]
                deltas = [abs(d) if i % 4 == 2 else d for i, d in enumerate(deltas)]
            else:
                deltas = [0 if i % 4 == 3 else abs(d) if i % 4 == 2 else d
                          for i, d in enumerate(deltas)]
            if n:
                ops.append(Points(tuple(deltas), pressure))
            if draw(st.integers(0, 4)):
                ops.append(End())
        elif what == 4:
            ops.append(Undo(draw(st.integers(0, 10**6))))
        else:
            ops.append(Clear(draw(st.integers(0, 10**6))))
    return ops


@st.composite
def ink_frame(draw: st.DrawFn) -> bytes:
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(st.binary(max_size=300))
    try:
        frame = encode_batch(draw(ink_ops()))
    except InkError:
        return draw(st.binary(min_size=1, max_size=40))
    if kind == 1 and frame:  # one byte changed
        at = draw(st.integers(0, len(frame) - 1))
        return frame[:at] + bytes([draw(st.integers(0, 255))]) + frame[at + 1:]
    if kind == 2:
        return frame[: draw(st.integers(0, len(frame)))]
    return frame


Item = tuple[str, int, Any, bool]
"""(kind, actor, payload, with_id): a message (dict), junk text or an ink frame."""


@st.composite
def item(draw: st.DrawFn, games: list[Game[Any]]) -> Item:
    actor = draw(st.integers(0, 9))
    kind = draw(st.integers(0, 9))
    if kind <= 5:
        return ("message", actor, draw(client_message(games)), draw(st.integers(0, 4)) > 0)
    if kind <= 7:
        return ("junk", actor, draw(junk_text()), False)
    return ("ink", actor, draw(ink_frame()), False)


def script(games: list[Game[Any]]) -> st.SearchStrategy[list[list[Item]]]:
    """What the random actors send between the driver's steps, burst by burst."""
    return st.lists(st.lists(item(games), min_size=2, max_size=8), min_size=8, max_size=30)


def resolve(value: Any, moves: list[str]) -> Any:
    if isinstance(value, Legal):
        return moves[value.k % len(moves)] if moves else "a1>b2"
    if isinstance(value, dict):
        return {k: resolve(v, moves) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, moves) for v in value]
    return value
