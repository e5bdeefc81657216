"""Live rooms: one action at a time per room, log first, then everyone's view.

``Rooms`` owns the rooms loaded in this process. Every change goes through
:meth:`Rooms.commit`: decide (may raise ``RuleError``), append to the log
(optimistic: a seq taken by another process means reload the tail and decide
again), apply to the in-memory model, publish to other processes, then push
each connection its own view. Timers and computer players feed the same path.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from atelier.games.core import SYSTEM, Game, RuleError
from atelier.hub import Hub, HubMessage
from atelier.ink.guard import InkGuard
from atelier.server import views
from atelier.server.connection import Connection
from atelier.server.ink_gate import check_batch
from atelier.server.model import Event, RoomModel, decide_action, new_model
from atelier.store import Conflict, InkRow, Store

log = logging.getLogger(__name__)

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
INK_FLUSH_SECONDS = 0.25
COMMIT_RETRIES = 30

Decision = Callable[[RoomModel], tuple[Event, Any]]


def _guard_for(batches: list[bytes]) -> InkGuard:
    """The guard after ink accepted before a restart (kept even if the rules
    of the format tightened since: the ink was accepted then)."""
    guard = InkGuard()
    for data in batches:
        with contextlib.suppress(RuleError):
            guard.check(data)
    return guard


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str:
    return code.strip().upper()


@dataclass(eq=False)
class LiveRoom:
    model: RoomModel
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    ink: dict[str, dict[int, list[bytes]]] = field(default_factory=dict)
    guards: dict[tuple[str, int], InkGuard] = field(default_factory=dict)
    local_online: dict[str, int] = field(default_factory=dict)
    remote_online: dict[bytes, set[str]] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    bots: asyncio.Task[None] | None = None
    bots_again: bool = False

    def online(self) -> set[str]:
        ids = {pid for pid, n in self.local_online.items() if n > 0}
        for remote in self.remote_online.values():
            ids |= remote
        return ids

    def add_ink(self, key: str, seat: int, data: bytes) -> int:
        batches = self.ink.setdefault(key, {}).setdefault(seat, [])
        batches.append(data)
        return len(batches) - 1

    def strokes(self, key: str, seat: int) -> int:
        guard = self.guards.get((key, seat))
        return 0 if guard is None else guard.strokes


class Rooms:
    def __init__(self, store: Store, hub: Hub, games: Callable[[str], Game[Any]]) -> None:
        self.store = store
        self.hub = hub
        self.games = games
        self.loaded: dict[str, LiveRoom] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.pending_ink: list[tuple[str, InkRow]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._flusher: asyncio.Task[None] | None = None
        hub.set_receiver(self.on_hub)

    # -- life cycle -------------------------------------------------------------

    async def start(self) -> None:
        """Bring back the rooms whose games run, so their timers and computer players resume."""
        for code in await self.store.rooms_with_status("playing"):
            try:
                await self.get(code)
            except Exception:
                log.exception("room %s could not be restored", code)
        self._flusher = asyncio.create_task(self._flush_loop())

    async def close(self) -> None:
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
        await self.flush_ink()
        for room in self.loaded.values():
            if room.timer is not None:
                room.timer.cancel()
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- creating and loading ---------------------------------------------------

    async def create(self, game_name: str, settings: dict[str, Any], language: str) -> str:
        game = self.games(game_name)
        full = game.validate_settings(settings, game.min_seats)
        first = {
            "game": game.name,
            "settings": full,
            "seed": secrets.randbits(63),
            "language": language,
        }
        for _ in range(20):
            code = new_code()
            try:
                await self.store.create_room(code, game.name, time.time(), first)
            except Conflict:
                continue
            return code
        raise RuleError("busy")

    async def get(self, code: str) -> LiveRoom | None:
        code = normal_code(code)
        if code in self.loaded:
            return self.loaded[code]
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            return None
        lock = self._loading.setdefault(code, asyncio.Lock())
        async with lock:
            if code in self.loaded:
                return self.loaded[code]
            events = await self.store.load_events(code)
            if not events or events[0].kind != "created":
                return None
            first = events[0]
            model = new_model(code, self.games(first.data["game"]), first.data, first.at)
            for row in events[1:]:
                model.apply_event(row.seq, row.kind, row.data)
            room = LiveRoom(model)
            for ink in await self.store.load_ink(code):
                room.add_ink(ink.key, ink.seat, ink.data)
            for key, by_seat in room.ink.items():
                for seat, batches in by_seat.items():
                    room.guards[(key, seat)] = _guard_for(batches)
            self.loaded[code] = room
        self._schedule_timer(room)
        self._run_bots(room)
        return room

    async def _catch_up(self, room: LiveRoom) -> bool:
        """Apply events other processes appended; True if there were any."""
        rows = await self.store.load_events(room.model.code, after=room.model.seq)
        for row in rows:
            room.model.apply_event(row.seq, row.kind, row.data)
        return bool(rows)

    # -- the one path for changes -------------------------------------------------

    async def commit(
        self,
        room: LiveRoom,
        decide: Decision,
        before_push: Callable[[], None] | None = None,
    ) -> Event:
        """Decide, log, apply, publish, push. RuleError from ``decide`` changes nothing."""
        model = room.model
        async with room.lock:
            for attempt in range(COMMIT_RETRIES):
                try:
                    (kind, data), state = decide(model)
                except RuleError:
                    # With other processes, a refusal may come from a stale copy
                    # (their notice not yet here): decide again on the full log.
                    if self.hub.shared and await self._catch_up(room):
                        self.after_change(room, local=False)
                        continue
                    raise
                status = None
                if kind == "started":
                    status = "playing"
                elif kind == "action" and model.game.is_over(state):
                    status = "over"
                seq = model.seq + 1
                now = time.time()
                try:
                    await self.store.append(model.code, seq, kind, data, now, status)
                except Conflict:
                    # another process got this seq first: take its events, back
                    # off a little (so a busy neighbour cannot starve us), retry
                    await self._catch_up(room)
                    await asyncio.sleep(secrets.randbelow(1000) / 1e6 * (1 + attempt))
                    continue
                model.apply_event(seq, kind, data, state)
                break
            else:
                raise RuleError("busy")
        if before_push is not None:
            before_push()
        await self.hub.publish(
            HubMessage(model.code, "event", self.hub.origin,
                       {"seq": seq, "kind": kind, "data": data})
        )
        self.after_change(room, local=True)
        return kind, data

    def after_change(self, room: LiveRoom, local: bool) -> None:
        model = room.model
        for conn in room.conns:
            if conn.player_id is not None and model.player(conn.player_id) is None:
                conn.player_id = None
                conn.send(views.error_message(RuleError("kicked"), conn.lang))
        self._recount_presence(room)
        self.push_states(room)
        self._schedule_timer(room)
        if local:
            self._run_bots(room)

    # -- fan-out to this process's connections -----------------------------------

    def push_states(self, room: LiveRoom) -> None:
        model = room.model
        online = room.online()
        spectators = sum(1 for c in room.conns if c.player_id is None)
        cache: dict[str | None, str] = {}
        for conn in room.conns:
            text = cache.get(conn.player_id)
            if text is None:
                text = views.state_message(model, conn.player_id, online, spectators)
                cache[conn.player_id] = text
            conn.send(text)
            self.sync_ink(room, conn)

    def sync_ink(self, room: LiveRoom, conn: Connection, force: bool = False) -> None:
        """Send the ink a connection may newly see (all of it on a new key or on connect)."""
        model = room.model
        key = views.drawing_key(model)
        if key is None:
            conn.ink_key, conn.visible = None, frozenset()
            return
        visible = views.visible_drawers(model, model.seat_of(conn.player_id))
        fresh = force or key != conn.ink_key
        new = visible if fresh else visible - conn.visible
        conn.ink_key, conn.visible = key, visible
        if not (fresh or new):
            return
        conn.send(views.simple("ink_sync", key=key, seats=sorted(new)))
        drawings = room.ink.get(key, {})
        for seat in sorted(new):
            prefix = bytes([seat])
            for batch in drawings.get(seat, ()):
                conn.send(prefix + batch)

    def relay_ink(self, room: LiveRoom, key: str, seat: int, data: bytes,
                  sender: Connection | None) -> None:
        frame = bytes([seat]) + data
        for conn in room.conns:
            if conn is not sender and conn.ink_key == key and seat in conn.visible:
                conn.send(frame)

    # -- connections -------------------------------------------------------------

    def attach(self, room: LiveRoom, conn: Connection, player_id: str | None) -> None:
        conn.room = room
        conn.player_id = player_id
        room.conns.add(conn)
        conn.send(views.welcome_message(room.model, player_id))
        self._recount_presence(room)
        self.push_states(room)
        if conn.ink_key is None:
            # push_states synced it unless nobody draws; a forced sync is
            # only needed when the key did not change for this connection
            pass

    def detach(self, conn: Connection) -> None:
        room: LiveRoom | None = conn.room
        if room is None or conn not in room.conns:
            return
        room.conns.discard(conn)
        self._recount_presence(room)
        self.push_states(room)

    def _recount_presence(self, room: LiveRoom) -> None:
        before = {pid for pid, n in room.local_online.items() if n > 0}
        counts: dict[str, int] = {}
        for conn in room.conns:
            if conn.player_id is not None:
                counts[conn.player_id] = counts.get(conn.player_id, 0) + 1
        room.local_online = counts
        after = set(counts)
        if before != after and self.hub.shared:
            self._spawn(
                self.hub.publish(
                    HubMessage(room.model.code, "presence", self.hub.origin,
                               {"online": sorted(after)})
                )
            )

    # -- ink ----------------------------------------------------------------------

    async def accept_ink(self, conn: Connection, data: bytes) -> None:
        room: LiveRoom = conn.room
        model = room.model
        seat = model.seat_of(conn.player_id)
        key = check_batch(model, seat, data, room.guards)
        assert seat is not None
        n = room.add_ink(key, seat, data)
        self.pending_ink.append((model.code, InkRow(key, seat, n, data)))
        self.relay_ink(room, key, seat, data, conn)
        if self.hub.shared:
            await self.hub.publish(
                HubMessage(model.code, "ink", self.hub.origin,
                           {"key": key, "seat": seat, "n": n}, data)
            )

    async def flush_ink(self) -> None:
        rows, self.pending_ink = self.pending_ink, []
        if not rows:
            return
        try:
            await self.store.append_ink(rows)
        except Exception:
            log.exception("ink write failed; retrying")
            self.pending_ink = rows + self.pending_ink

    async def _flush_loop(self) -> None:
        while True:
            await asyncio.sleep(INK_FLUSH_SECONDS)
            await self.flush_ink()

    # -- other processes ------------------------------------------------------------

    async def on_hub(self, msg: HubMessage) -> None:
        room = self.loaded.get(msg.room)
        if room is None:
            return
        if msg.kind == "event":
            async with room.lock:
                seq = int(msg.meta["seq"])
                if seq == room.model.seq + 1:
                    room.model.apply_event(seq, msg.meta["kind"], msg.meta["data"])
                elif seq > room.model.seq:
                    await self._catch_up(room)
                else:
                    return
            self.after_change(room, local=False)
        elif msg.kind == "ink":
            key, seat, n = msg.meta["key"], int(msg.meta["seat"]), int(msg.meta["n"])
            have = len(room.ink.get(key, {}).get(seat, []))
            if n < have:
                return
            guard = room.guards.setdefault((key, seat), InkGuard())
            with contextlib.suppress(RuleError):
                guard.check(msg.data)
            room.add_ink(key, seat, msg.data)
            self.relay_ink(room, key, seat, msg.data, None)
        elif msg.kind == "presence":
            room.remote_online[msg.origin] = set(msg.meta["online"])
            self.push_states(room)

    # -- deadlines and computer players ------------------------------------------------

    def _schedule_timer(self, room: LiveRoom) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        model = room.model
        if model.phase != "playing":
            return
        deadline = model.game.deadline(model.state)
        if deadline is None:
            return
        delay = max(0.0, deadline - time.time())
        loop = asyncio.get_running_loop()
        room.timer = loop.call_later(delay, lambda: self._spawn(self._fire(room, deadline)))

    async def _fire(self, room: LiveRoom, deadline: float) -> None:
        try:
            await self.commit(
                room, lambda m: decide_action(m, SYSTEM, {"type": "timeout"}, time.time())
            )
        except RuleError as err:
            model = room.model
            still = model.phase == "playing" and model.game.deadline(model.state) == deadline
            if err.code == "timeout_early" and still:
                loop = asyncio.get_running_loop()
                room.timer = loop.call_later(
                    0.05, lambda: self._spawn(self._fire(room, deadline))
                )
            else:
                log.debug("timeout refused in %s: %s", model.code, err.code)
        except Exception:
            log.exception("timeout failed in %s", room.model.code)

    def _run_bots(self, room: LiveRoom) -> None:
        if room.model.phase != "playing" or not room.model.computers:
            return
        if room.bots is not None and not room.bots.done():
            room.bots_again = True
            return
        room.bots = asyncio.create_task(self._bots(room))

    async def _bots(self, room: LiveRoom) -> None:
        model = room.model
        game: Any = model.game
        while True:
            room.bots_again = False
            acted = False
            for seat in sorted(model.computers):
                if model.phase != "playing":
                    return
                seq, state = model.seq, model.state
                try:
                    action = await asyncio.to_thread(game.bot_action, state, seat)
                except Exception:
                    log.exception("computer player failed in %s", model.code)
                    return
                if action is None:
                    continue

                def decide(m: RoomModel, seat: int = seat, seq: int = seq,
                           action: dict[str, Any] = action) -> tuple[Event, Any]:
                    if m.seq != seq:
                        raise RuleError("busy")  # the game moved on while it thought
                    return decide_action(m, seat, action, time.time())

                try:
                    await self.commit(room, decide)
                    acted = True
                except RuleError as err:
                    log.debug("computer move refused in %s: %s", model.code, err.code)
                    acted = acted or err.code == "busy"
            if not acted and not room.bots_again:
                return
