"""A property-based fuzzer over the whole protocol, against a real server process.

Each hypothesis example is one *episode*: a room of a game (drawn), its players
and a spectator on real WebSockets, played from the lobby to the end by a
driver that plays the moves each game lists (``legal_actions``, on the room
rebuilt from its log) and checks that the server takes them, while between the driver's
steps random actors send what hypothesis draws: every client message type
with plausible and broken fields, game actions built from the game's declared
action shapes (``Game.actions``) and mutated, random JSON, deeply nested and
oversized frames, text that is not JSON, valid and broken ink batches.

Every message sent is checked:

- it is answered: a message with an ``id`` gets its ``ack`` or ``error``; one
  without gets a ``ping`` fence after it, and an error before the fence's ack
  marks it refused (a frame that is not a JSON message at all must be refused);
- a refused message changes nothing: the room's log does not grow while it is
  answered (a log entry that appears meanwhile must be a timer's ``timeout``
  or a computer player's move, read from the room's database);
- the server never fails: no ``internal`` error, no 1011 close; the caller
  also reads the server's stderr for tracebacks.

A connection is replaced after :data:`SENDS_PER_CONNECTION` messages (with its
player's token), so the per-connection rate limit and abuse strikes, which a
fuzzer would otherwise run into at once, are exercised without closing it.
``atelier bench fuzz`` runs it at length and prints the figures; the test
suite runs a short one (tests/test_fuzz_protocol.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

import httpx
import websockets
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pydantic.fields import FieldInfo

from atelier.games.actions import Action, ActionSchema, as_json
from atelier.games.core import Game, LegalActionsGame, PlayedThrough
from atelier.ink.codec import Begin, Clear, End, InkError, Op, Points, Undo, encode_batch
from atelier.server.room.model import COLOURS, RoomModel, replay_log
from atelier.store import Store, open_store

SENDS_PER_CONNECTION = 30
REPLY_SECONDS = 20.0
MAX_DRIVER_STEPS = 400

IN_THE_WAY = ("rate_limited", "abuse")
"""Refusals of a listed move that say nothing about the rules: the actors' noise
spent the connection's allowance."""
MESSAGE_TYPES = ("hello", "join", "leave", "rename", "lang", "settings", "kick", "host",
                 "start", "next", "again", "go_on", "act", "ping", "agree")
SERVER_FAULTS = ("internal",)


@dataclass
class Figures:
    messages: int = 0
    text: int = 0
    binary: int = 0
    refused: int = 0
    unanswered: int = 0
    server_exceptions: int = 0
    state_changes: int = 0
    legal_played: int = 0
    legal_refused: int = 0
    episodes: int = 0
    phases: set[tuple[str, str]] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def problem(self, what: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(what[:300])

    @property
    def failed(self) -> bool:
        return bool(self.unanswered or self.server_exceptions or self.state_changes
                    or self.legal_refused)


class Violation(AssertionError):
    """Raised in strict mode (the test suite), so hypothesis shows and shrinks the case."""


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


# --- connections ----------------------------------------------------------------------


class Peer:
    """One player's (or the spectator's) connection, replaced now and then. A reader
    task takes in everything the server sends, so the room's latest state is known
    without waiting."""

    def __init__(self, runner: Runner, code: str, name: str | None) -> None:
        self.runner = runner
        self.code = code
        self.name = name
        self.token: str | None = None
        self.player: str | None = None
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.inbox: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.closed: websockets.ConnectionClosed | None = None
        self.sent = 0
        self.next_id = 10**6
        self.seq = 0
        self.host = False
        self.state: dict[str, Any] = {}

    async def open(self) -> None:
        await self.close()
        self.ws = await websockets.connect(f"{self.runner.ws_base}/ws/{self.code}",
                                           max_size=2**22, max_queue=None)
        self.closed = None
        self.inbox.clear()
        self.reader = asyncio.ensure_future(self._read(self.ws))
        self.sent = 0
        await self.ws.send(json.dumps({"t": "hello", "v": 1, "token": self.token}))
        await self.until(lambda m: m.get("t") == "state")

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
        self.ws = self.reader = None

    async def _read(self, ws: Any) -> None:
        try:
            async for raw in ws:
                if isinstance(raw, str):
                    msg = json.loads(raw)
                    self.note(msg)
                    self.inbox.append(msg)
                    self.arrived.set()
        except websockets.ConnectionClosed as closed:
            self.closed = closed
        finally:
            if self.closed is None:
                self.closed = websockets.ConnectionClosed(None, None)
            self.arrived.set()

    def note(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "state":
            self.seq = max(self.seq, int(msg["seq"]))
            seen = self.runner.seen
            seen[self.code] = max(seen.get(self.code, 0), self.seq)
            self.host = bool(msg["you"]["host"])
            self.player = msg["you"]["player"]
            self.state = msg
        elif msg.get("t") == "joined":
            self.token = msg["token"]
        elif msg.get("t") == "error" and msg.get("code") in SERVER_FAULTS:
            self.runner.fault(f"{msg}")

    async def until(self, done: Any, seconds: float = REPLY_SECONDS) -> list[dict[str, Any]]:
        """Messages up to and including the first for which ``done`` holds."""
        seen: list[dict[str, Any]] = []
        end = time.monotonic() + seconds
        while True:
            while self.inbox:
                msg = self.inbox.pop(0)
                seen.append(msg)
                if done(msg):
                    return seen
            if self.closed is not None:
                raise self.closed
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), max(0.01, end - time.monotonic()))

    async def drain(self) -> None:
        """Let what has arrived be read (the reader notes it); keep nothing."""
        await asyncio.sleep(0)
        self.inbox.clear()

    async def send(self, frame: str | bytes, msg_id: int | None,
                   must_refuse: bool) -> str | None:
        """Send one fuzz frame and check the answer (see the module's docstring).
        The refusal's code if it was refused ("" if the socket closed), else None."""
        runner = self.runner
        if self.sent >= SENDS_PER_CONNECTION or self.ws is None or self.closed is not None:
            await self.open()
        self.inbox.clear()
        # everything logged before this message has reached some connection of the room
        before = runner.seen.get(self.code, 0)
        self.sent += 2
        runner.figures.messages += 1
        if isinstance(frame, bytes):
            runner.figures.binary += 1
        else:
            runner.figures.text += 1
        try:
            await self.ws.send(frame)
            if msg_id is None:
                self.next_id += 1
                fence = self.next_id
                await self.ws.send(json.dumps({"t": "ping", "id": fence}))
                seen = await self.until(lambda m: m.get("id") == fence
                                        and m.get("t") in ("ack", "error"))
                errors = [m for m in seen if m.get("t") == "error"]
                # an error on the fence itself: rate limited
                refusal = str(errors[0].get("code")) if errors else None
            else:
                seen = await self.until(lambda m: m.get("id") == msg_id
                                        and m.get("t") in ("ack", "error"))
                refusal = str(seen[-1].get("code")) if seen[-1]["t"] == "error" else None
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code == 1011:
                runner.fault(f"closed 1011 after {frame!r:.120}")
            # closes the protocol documents (1008 abuse, 1009 too big, 1013 too slow)
            await self.close()
            return "abuse" if code == 1008 else ""
        except TimeoutError:
            runner.figures.unanswered += 1
            runner.figures.problem(f"no answer to {frame!r:.200}")
            runner.check(False, "unanswered")
            await self.close()
            return ""
        if refusal is not None:
            runner.figures.refused += 1
            if self.seq > before:
                await runner.changed_by_refusal(self.code, before, self.seq, frame)
        elif must_refuse:
            runner.figures.unanswered += 1
            runner.figures.problem(f"not refused: {frame!r:.200}")
            runner.check(False, "a frame that is no message was not refused")
        return refusal


# --- the runner ---------------------------------------------------------------------


class Runner:
    def __init__(self, http_base: str, db_path: str | None, games: Mapping[str, Game[Any]],
                 strict: bool = False) -> None:
        self.http = http_base.rstrip("/")
        self.ws_base = "ws" + self.http[len("http"):]
        self.db_path = db_path
        self.games = dict(games)
        self.strict = strict
        self.figures = Figures()
        self.seen: dict[str, int] = {}
        self.script = script(list(self.games.values()))
        self.budget = 0
        self.steps = 0
        self.models: dict[str, RoomModel] = {}  # each room as its log says, for legal()
        self.loop = asyncio.new_event_loop()
        self.store: Store | None = None

    def check(self, ok: bool, what: str) -> None:
        if not ok and self.strict:
            raise Violation(what + "; " + "; ".join(self.figures.problems[-3:]))

    def fault(self, what: str) -> None:
        self.figures.server_exceptions += 1
        self.figures.problem("server fault: " + what)
        self.check(False, "server fault")

    async def changed_by_refusal(self, code: str, before: int, after: int,
                                 frame: str | bytes) -> None:
        """The log grew while a refused message was answered: only a clock or a
        computer player may have done that."""
        async for kind, data, computers in self._events(code, before, after):
            action = data.get("action", {}) if kind == "action" else {}
            if kind == "action" and (
                (data.get("seat") == -1 and action.get("type") == "timeout")
                or str(data.get("seat")) in computers
            ):
                continue
            self.figures.state_changes += 1
            self.figures.problem(f"{kind} {data!r:.150} logged by refused {frame!r:.150}")
            self.check(False, "a refused message changed the room")
            return

    async def log(self) -> Store | None:
        """The rooms' log, read through the store as the server reads it (none
        without a database)."""
        if self.store is None and self.db_path is not None:
            self.store = await open_store(self.db_path)
        return self.store

    async def _events(self, code: str, before: int, after: int) -> AsyncIterator[
            tuple[str, dict[str, Any], set[str]]]:
        store = await self.log()
        if store is None:
            return
        computers: set[str] = set()
        for row in await store.load_events(code):
            if row.kind == "started":
                computers = set(row.data.get("computers", {}))
            if before < row.seq <= after:
                yield row.kind, row.data, computers

    # -- one episode --------------------------------------------------------------

    async def burst(self, items: list[Item], peers: list[Peer]) -> None:
        for kind, actor, payload, with_id in items:
            if self.figures.messages >= self.budget:
                return
            peer = peers[actor % len(peers)]
            if kind == "message":
                game = (peer.state.get("game") or {}) if peer.state else {}
                msg = resolve(payload, list(game.get("legal_moves") or []))
                msg_id = None
                if with_id:
                    peer.next_id += 1
                    msg_id = msg["id"] = peer.next_id
                await peer.send(json.dumps(msg), msg_id, must_refuse=False)
            elif kind == "junk":
                await peer.send(payload, None, must_refuse=not _is_message(payload))
            else:
                await peer.send(payload, None, must_refuse=False)

    async def step(self, name: str, peers: list[Peer]) -> bool:
        """One move of the game toward its end; False once it is over. The move is
        one the game lists for a player (``LegalActionsGame.legal_actions``, on the
        room rebuilt from its log): every other step one that ends the player's
        phase, so games finish, else any. A listed move the server refuses is a
        problem: the list and the rules disagree."""
        players = [p for p in peers if p.name is not None]
        for p in peers:
            await p.drain()
        state = max(peers, key=lambda p: p.seq).state
        room_phase = state["room"]["phase"]
        game = state.get("game") or {}
        self.figures.phases.add((name, f"{room_phase}/{game.get('phase', '-')}"))
        if room_phase == "over":
            return False
        if room_phase == "lobby":
            await self.seat_everyone(players)
            host = next((p for p in peers if p.host), players[0])
            await host.send(json.dumps({"t": "start", "id": 1}), 1, must_refuse=False)
            return True
        self.steps += 1
        turn = self.steps % max(1, len(players))
        for p in players[turn:] + players[:turn]:
            seat = p.state.get("you", {}).get("seat")
            if seat is None:
                continue
            actions = await self.legal(name, p.code, seat)
            rules = self.games[name]
            if self.steps % 2 == 0:
                if isinstance(rules, PlayedThrough):
                    actions.sort(key=lambda a: not rules.ends_part(a))
            else:
                k = self.steps % len(actions) if actions else 0
                actions = actions[k:] + actions[:k]
            for action in actions[:3]:
                before = p.seq
                refusal = await p.send(json.dumps({"t": "act", "id": 3,
                                                    "action": as_json(action)}),
                                       3, False)
                self.figures.legal_played += 1
                if refusal is not None and refusal not in IN_THE_WAY:
                    self.figures.problem(f"listed move {action} refused: {refusal}")
                    self.figures.legal_refused += 1
                    self.check(False, "a move the game lists was refused")
                await p.drain()
                if p.seq != before:
                    return True
        boss = next((p for p in peers if p.host), None)
        if boss is not None:
            await boss.send(json.dumps({"t": "next", "id": 4}), 4, must_refuse=False)
        return True

    async def legal(self, name: str, code: str, seat: int) -> list[Action]:
        """The moves the game lists for ``seat`` now, from the room's log (none
        without a database)."""
        game = self.games[name]
        store = await self.log()
        if store is None or not isinstance(game, LegalActionsGame):
            return []
        model = self.models.get(code)
        events = await store.load_events(code, -1 if model is None else model.seq)
        if model is None:
            if not events:
                return []
            model = self.models[code] = replay_log(code, game, events)
        else:
            for row in events:
                model.apply_event(row.seq, row.kind, row.data)
        if model.state is None or model.phase != "playing":
            return []
        return game.legal_actions(model.state, seat)

    async def seat_everyone(self, players: list[Peer]) -> None:
        """After lobby fuzzing, everyone who is no longer a player joins again."""
        for p in players:
            await p.drain()
            if p.player is not None:
                continue
            taken = {q["colour"] for q in p.state["room"]["players"]}
            names = {q["name"].casefold() for q in p.state["room"]["players"]}
            colour = next((c for c in COLOURS if c not in taken), None)
            name = next(f"{p.name}{i}" for i in range(99) if f"{p.name}{i}".casefold()
                        not in names)
            if colour is None:
                return
            await p.send(json.dumps({"t": "join", "id": 5, "name": name, "colour": colour}),
                         5, must_refuse=False)
            await p.drain()

    async def episode(self, data: st.DataObject) -> None:
        # every example draws the same way, whatever the server answers or the budget;
        # the games take turns, so a short run plays each of them
        bursts = data.draw(self.script, label="script")
        if self.figures.messages >= self.budget:
            return
        name = sorted(self.games)[self.figures.episodes % len(self.games)]
        game = self.games[name]
        quick = dict(game.quick_settings) if isinstance(game, PlayedThrough) else {}
        r = httpx.post(self.http + "/api/rooms", json={"game": name, "settings": quick})
        # all the fuzzer's rooms come from one address: run the server with the
        # per-address limits lifted (atelier.bench.measure.UNLIMITED)
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        peers = [Peer(self, code, f"P{i}") for i in range(game.min_seats)]
        peers.append(Peer(self, code, None))  # a spectator
        self.figures.episodes += 1
        try:
            for i, p in enumerate(peers):
                await p.open()
                if p.name is not None:
                    await p.ws.send(json.dumps({"t": "join", "id": 7, "name": p.name,
                                                "colour": COLOURS[i]}))
                    await p.until(lambda m: m.get("id") == 7)
            left = iter(bursts)
            for _ in range(MAX_DRIVER_STEPS):
                await self.burst(next(left, []), peers)
                if self.figures.messages >= self.budget or not await self.step(name, peers):
                    break
            for items in list(left)[:2]:  # after the end too
                await self.burst(items, peers)
        finally:
            for p in peers:
                await p.close()

    def run(self, messages: int, examples_per_batch: int = 20) -> Figures:
        """Episodes until ``messages`` have been sent."""
        self.budget = messages
        runner = self

        @settings(max_examples=examples_per_batch, deadline=None, database=None,
                  derandomize=False, phases=[Phase.generate, Phase.shrink] if self.strict
                  else [Phase.generate], suppress_health_check=list(HealthCheck),
                  report_multiple_bugs=False)
        @given(st.data())
        def episodes(data: st.DataObject) -> None:
            runner.loop.run_until_complete(runner.episode(data))

        try:
            while self.figures.messages < self.budget:
                before = self.figures.messages
                episodes()
                if self.figures.messages == before:
                    break
        finally:
            if self.store is not None:
                self.loop.run_until_complete(self.store.close())
            self.loop.close()
        return self.figures


def _is_message(text: str) -> bool:
    """Whether ``text`` could be a client message at all (a JSON object with a known t)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("t") in MESSAGE_TYPES


# --- the command ------------------------------------------------------------------------


def _worker(job: tuple[str, str | None, int, int]) -> Figures:
    from atelier.games.registry import game_names, get_game

    http, db, messages, offset = job
    games = {name: get_game(name) for name in game_names()}
    runner = Runner(http, db, games)
    runner.figures.episodes = offset  # the workers start on different games
    figures = runner.run(messages)
    figures.episodes -= offset
    return figures


def main(argv: list[str]) -> int:
    """``atelier bench fuzz``: the long run; prints its figures, exits 1 on any failure."""
    import argparse
    import multiprocessing
    import os
    import subprocess
    import sys
    import tempfile

    from atelier.bench.measure import UNLIMITED, free_port

    ap = argparse.ArgumentParser(prog="atelier bench fuzz", description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    args = ap.parse_args(argv)
    tmp = tempfile.TemporaryDirectory()
    db = os.path.join(tmp.name, "fuzz.sqlite3")
    errors = os.path.join(tmp.name, "server.log")
    port = free_port()
    http = f"http://127.0.0.1:{port}"
    with open(errors, "wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", db, "--quiet", *UNLIMITED],
            stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(http + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                print("the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.1)
        started = time.monotonic()
        share = -(-args.messages // args.workers)
        jobs = [(http, db, share, i) for i in range(args.workers)]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            parts = pool.map(_worker, jobs)
        seconds = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(30)
    with open(errors, encoding="utf-8", errors="replace") as f:
        log_text = f.read()
    total = Figures()
    for part in parts:
        for name in ("messages", "text", "binary", "refused", "unanswered",
                     "server_exceptions", "state_changes", "episodes", "legal_played",
                     "legal_refused"):
            setattr(total, name, getattr(total, name) + getattr(part, name))
        total.phases |= part.phases
        total.problems += part.problems
    tracebacks = log_text.count("Traceback")
    total.server_exceptions += tracebacks
    print(f"messages sent:              {total.messages} ({total.text} text, "
          f"{total.binary} binary) in {total.episodes} rooms")
    print(f"refused (answered by error): {total.refused}")
    print(f"unanswered or not refused:  {total.unanswered}")
    print(f"server exceptions:          {total.server_exceptions} "
          f"({tracebacks} tracebacks in the server's log)")
    print(f"state changes by refusals:  {total.state_changes}")
    print(f"listed moves played:        {total.legal_played} "
          f"({total.legal_refused} refused by the rules)")
    print(f"time:                       {seconds:.1f} s ({total.messages / seconds:.0f} "
          f"messages/s, {args.workers} client processes, one server)")
    phases = sorted(total.phases)
    print(f"phases reached:             {len(phases)}: "
          + ", ".join(f"{g} {p}" for g, p in phases))
    for problem in total.problems[:10]:
        print("  problem:", problem)
    return 1 if total.failed or tracebacks else 0
