"""The rooms this process holds, and the one path by which any of them changes.

Every change goes through :meth:`Rooms.commit`: decide (may raise ``RuleError``),
append to the log (optimistic: a seq taken by another process means reload the
tail and decide again), apply to the in-memory model, publish to other
processes, then push each connection its own view. Players, deadlines
(``deadlines``), computer players (``computers``) and canvas reports
(``ink.intake``) all feed that path. Rooms load from their log on first use and
leave memory when nobody has been connected for a while.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from atelier.errors import RuleError
from atelier.games.core import Game
from atelier.hub import Hub, HubMessage
from atelier.ink.guard import restore
from atelier.metrics import COMMIT_SECONDS, STORE_ERRORS
from atelier.server.engine.pool import Engine
from atelier.server.ink.intake import MAX_DRAWING_BYTES, MAX_ROOM_INK_BYTES, InkIntake
from atelier.server.push.nudges import wake_at
from atelier.server.push.service import PushService
from atelier.server.room import events, fanout, views
from atelier.server.room.computers import Computers
from atelier.server.room.connection import Connection
from atelier.server.room.deadlines import Deadlines
from atelier.server.room.events import Left, LogEvent, Removed
from atelier.server.room.live_room import (
    CREATOR,
    HOLD_RENEW,
    LiveRoom,
    new_code,
    normal_code,
    valid_code,
)
from atelier.server.room.model import (
    Decision,
    RoomModel,
    decide_unclaimed_host,
    refuse_agreements,
    replay_log,
)
from atelier.store import CLOSED, Conflict, Store

__all__ = ["CREATOR_WAIT", "IDLE_SECONDS", "LiveRoom", "Rooms", "normal_code"]

log = logging.getLogger(__name__)

STOP_SECONDS = 8.0  # a clean stop's budget for writing what is pending
IDLE_SECONDS = 600.0  # a room nobody is connected to leaves memory after this long
CREATOR_WAIT = 90.0
"""Seconds the host role waits for a room's creator whose connection closed
before they sat down (a phone that went to another app to share the link)."""
COMMIT_RETRIES = 30
CLOSE_GONE = 4404  # as session.CLOSE_UNKNOWN_ROOM: the client stops reconnecting
RELEASE_AFTER = 50  # unloading this many rooms at once is worth a collection and a trim
SCAN_SECONDS = 60.0
"""How often the store is asked for correspondence games due (a quarter-time
push or a loss on time) whose room is out of memory, or held by a machine that
went away."""



def release_memory() -> None:
    """Collect, then hand the C heap's free pages back to the system (glibc only):
    otherwise the process keeps its peak size after many rooms leave."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _status(kind: str, model: RoomModel, state: Any) -> str | None:
    """The room's listed status after an event of this kind, if it changes."""
    if kind == "started":
        return "playing"
    if kind == "again":
        return "lobby"
    if kind in ("action", "removed") and model.game.is_over(state):
        return "over"
    return None


class Rooms:
    def __init__(self, store: Store, hub: Hub, games: Callable[[str], Game[Any]],
                 owns: Callable[[str], bool] | None = None,
                 idle_seconds: float = IDLE_SECONDS,
                 creator_wait: float = CREATOR_WAIT,
                 ink_limits: tuple[int, int] = (MAX_DRAWING_BYTES, MAX_ROOM_INK_BYTES),
                 push: PushService | None = None, scan_seconds: float = SCAN_SECONDS,
                 engine: Engine | None = None) -> None:
        self.store = store
        self.push = push or PushService(store.push)
        self.scan_seconds = scan_seconds
        self._wakes: dict[str, float | None] = {}  # as last written to the store
        # with several worker processes, the rooms this one restores and plays
        self.owns = owns or (lambda code: True)
        self.hub = hub
        self.games = games
        self.idle_seconds = idle_seconds
        self.creator_wait = creator_wait
        self.loaded: dict[str, LiveRoom] = {}
        self.unloaded = 0  # rooms that left memory since the start
        self.ink_waits = 0  # batches that waited for their sender's ink allowance
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._scanner: asyncio.Task[None] | None = None
        self._holder: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.ink = InkIntake(store, hub, self.commit, *ink_limits)
        self.deadlines = Deadlines(self.commit, self._spawn, self.get)
        self.engine = engine or Engine()
        self.computers = Computers(self.commit, self.engine)
        hub.set_receiver(self.on_hub)

    # -- life cycle -------------------------------------------------------------

    async def start(self) -> None:
        """Bring back the rooms whose games run, so their timers and computer players resume."""
        await self.push.start()
        for code in await self.store.rooms_with_status("playing"):
            if not self.owns(code):
                continue
            try:
                await self.get(code)
            except Exception:
                log.exception("room %s could not be restored", code)
        self.ink.start()
        self._sweeper = asyncio.create_task(self._sweep_loop())
        self._scanner = asyncio.create_task(self._scan_loop())
        if self.hub.shared:
            self._holder = asyncio.create_task(self._hold_loop())

    async def close(self, budget: float = STOP_SECONDS) -> None:
        """A clean stop: no new timers or computer moves, the moves under way finish
        their commit, then all pending ink is written, within ``budget``."""
        end = time.monotonic() + budget
        for task in (self._sweeper, self._scanner, self._holder):
            if task is not None:
                task.cancel()
        rooms = list(self.loaded.values())
        for room in rooms:
            self._hold(room, held=False)
        self.deadlines.stop(rooms)
        self.computers.stopped = True
        self.engine.close()  # searches under way stop now: a stop never waits for one
        busy = [t for t in self._tasks if not t.done()] + self.computers.thinking(rooms)
        if busy:
            _, late = await asyncio.wait(busy, timeout=max(0.1, min(2.0, end - time.monotonic())))
            for task in late:
                task.cancel()
        await self.ink.close(end)
        await self.push.close()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- creating and loading ---------------------------------------------------

    async def create(self, game_name: str, settings: dict[str, Any], language: str,
                     host_key_hash: str | None = None) -> str:
        game = self.games(game_name)
        refuse_agreements(game, settings)
        full = game.validate_settings(settings, game.min_seats)
        first = {
            "game": game.name,
            "settings": full,
            "seed": secrets.randbits(63),
            "language": language,
        }
        if host_key_hash:
            first["host_key_hash"] = host_key_hash
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
        if not valid_code(code):
            return None
        # one load per code at a time; the lock is dropped when nobody waits on it
        lock, users = self._loading.get(code, (asyncio.Lock(), 0))
        self._loading[code] = (lock, users + 1)
        try:
            async with lock:
                if code in self.loaded:
                    return self.loaded[code]
                room = await self._load(code)
                if room is None:
                    return None
                self.loaded[code] = room
        finally:
            lock, users = self._loading[code]
            if users <= 1:
                del self._loading[code]
            else:
                self._loading[code] = (lock, users - 1)
        self._hold(room, held=True)
        await self._write_wake(room)
        self.push.schedule(room.model)
        self.deadlines.loaded(room)
        self.computers.wake(room)
        return room

    async def _load(self, code: str) -> LiveRoom | None:
        """The room rebuilt from its log and its ink; None for a room an operator
        closed (``atelier rooms close``): to its players it no longer exists."""
        row = await self.store.room_row(code)
        if row is not None and row.status == CLOSED:
            return None
        try:
            events = await self.store.load_events(code)
        except Exception:
            STORE_ERRORS.labels("load").inc()
            raise
        if not events or events[0].kind != "created":
            return None
        model = replay_log(code, self.games(events[0].data["game"]), events)
        room = LiveRoom(model)
        for ink in await self.store.load_ink(code):
            room.add_ink(ink.key, ink.seat, ink.data)
        for key, by_seat in room.ink.items():
            for seat, batches in by_seat.items():
                guard, presence = restore(batches)
                room.guards[(key, seat)] = guard
                room.presence[(key, seat)] = presence
        return room

    # -- correspondence games out of memory ----------------------------------------

    async def _scan_loop(self) -> None:
        while True:
            try:
                await self.load_due()
            except Exception:
                log.exception("looking for due rooms failed")
            await asyncio.sleep(self.scan_seconds)

    async def load_due(self) -> int:
        """Load the rooms this process owns whose next moment to act on has come
        (loading arms their push and deadline timers, which are then due); a
        restart, an unload or a machine gone never loses a loss on time."""
        found = 0
        for code in await self.store.rooms_due(time.time()):
            if code in self.loaded or not self.owns(code):
                continue
            try:
                await self.get(code)
                found += 1
            except Exception:
                log.exception("due room %s could not be loaded", code)
        return found

    async def _write_wake(self, room: LiveRoom) -> None:
        """Keep the room's next moment to act on in the store, when it changed."""
        wake = wake_at(room.model)
        if wake is None and room.code not in self._wakes:
            return  # a live game: nothing to find it by
        if self._wakes.get(room.code, -1.0) != wake:
            await self.store.set_wake(room.code, wake)
            self._wakes[room.code] = wake

    # -- unloading idle rooms -------------------------------------------------------

    async def _sweep_loop(self) -> None:
        every = min(30.0, max(0.05, self.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.drop_closed()
                self.unload_idle()
            except Exception:
                log.exception("unloading idle rooms failed")

    async def drop_closed(self) -> int:
        """Let go of the loaded rooms an operator closed meanwhile (``atelier rooms
        close`` writes to the store only): their sockets are told the room is gone."""
        closed = await self.store.closed_among(sorted(self.loaded))
        for code in closed:
            room = self.loaded.pop(code, None)
            if room is None:
                continue
            self.deadlines.unloading(room)
            self._hold(room, held=False)
            for conn in list(room.conns):
                conn.send(views.error_message(RuleError("unknown_room", room=code), conn.lang))
                conn.close(CLOSE_GONE, "room closed")
            log.info("room %s closed by an operator", code)
        return len(closed)

    def unload_idle(self, now: float | None = None) -> int:
        """Drop the rooms nobody has been connected to for ``idle_seconds``; their
        log brings them back on the next visit. A room stays while anything is
        under way in it (a commit, a computer thinking, ink not yet written).
        A room with a deadline gets a wake-up that loads it back when it is due."""
        now = time.monotonic() if now is None else now
        unwritten = self.ink.unwritten()
        gone = 0
        for code, room in list(self.loaded.items()):
            if (room.conns or now - room.active_at < self.idle_seconds or room.busy()
                    or code in unwritten or self._in_last_quarter(room)):
                continue
            self.deadlines.unloading(room)
            self.push.forget(code)
            self._wakes.pop(code, None)
            self._hold(room, held=False)
            del self.loaded[code]
            self.unloaded += 1
            gone += 1
            log.debug("room %s unloaded after %.0f s without a connection",
                      code, now - room.active_at)
        if gone:
            log.info("unloaded %d idle room%s (%d still loaded)",
                     gone, "" if gone == 1 else "s", len(self.loaded))
            if gone >= RELEASE_AFTER:
                release_memory()
        return gone

    @staticmethod
    def _in_last_quarter(room: LiveRoom) -> bool:
        """A correspondence game in its turn's last quarter stays loaded until
        its deadline (the due-room scan would only load it again)."""
        wake = wake_at(room.model)
        return wake is not None and wake <= time.time()

    # -- the one path for changes -------------------------------------------------

    async def commit(self, room: LiveRoom, decide: Decision) -> LogEvent:
        """Decide, log, apply, publish, push. RuleError from ``decide`` changes nothing."""
        seq, event = await self.record(room, decide)
        await self.announce(room, seq, event)
        return event

    async def record(self, room: LiveRoom, decide: Decision) -> tuple[int, LogEvent]:
        """Decide, log and apply, nothing sent yet: (its seq, the event). The caller
        may tell whom it concerns first (a join, its new player), then :meth:`announce`."""
        model = room.model
        began = time.monotonic()
        async with room.lock:
            for attempt in range(COMMIT_RETRIES):
                try:
                    event, state = decide(model)
                except RuleError:
                    # With other processes, a refusal may come from a stale copy
                    # (their notice not yet here): decide again on the full log.
                    if self.hub.shared and await self._catch_up(room):
                        self.after_change(room, local=False)
                        continue
                    raise
                seq = model.seq + 1
                kind, data = event.as_event()
                try:
                    await self.store.append(model.code, seq, kind, data, time.time(),
                                            _status(kind, model, state))
                except Conflict:
                    # another process got this seq first: take its events, back
                    # off a little (so a busy neighbour cannot starve us), retry
                    await self._catch_up(room)
                    await asyncio.sleep(secrets.randbelow(1000) / 1e6 * (1 + attempt))
                    continue
                except Exception:
                    STORE_ERRORS.labels("append").inc()
                    raise
                model.apply(seq, event, state)
                await self._write_wake(room)
                COMMIT_SECONDS.observe(time.monotonic() - began)
                return seq, event
            raise RuleError("busy")

    async def announce(self, room: LiveRoom, seq: int, event: LogEvent) -> None:
        """Tell other processes, then this process's connections, of a recorded event."""
        kind, data = event.as_event()
        await self.hub.publish(
            HubMessage(room.code, "event", self.hub.origin,
                       {"seq": seq, "kind": kind, "data": data})
        )
        self.after_change(room, local=True, event=event)
        self.push.committed(room.model, seq, kind, data)

    async def _catch_up(self, room: LiveRoom) -> bool:
        """Apply events other processes appended; True if there were any."""
        rows = await self.store.load_events(room.code, after=room.model.seq)
        for row in rows:
            room.model.apply_event(row.seq, row.kind, row.data)
        return bool(rows)

    def after_change(self, room: LiveRoom, local: bool, event: LogEvent | None = None) -> None:
        room.active_at = time.monotonic()
        # "kicked" tells a player's connections the host removed them; one who
        # left by themselves was not (their state says they now watch)
        by_self = isinstance(event, Left | Removed) and event.by == "self"
        for conn in room.unseat_removed():
            if not by_self:
                conn.send(views.error_message(RuleError("kicked"), conn.lang))
        if isinstance(event, events.SeatMoved):
            # the seat went to another device: this one's connections only watch now
            for conn in [c for c in room.conns if c.player_id == event.player]:
                conn.player_id = None
                conn.send(views.error_message(RuleError("seat_moved"), conn.lang))
        self._recount_online(room)
        fanout.push_states(room)
        self.deadlines.schedule(room)
        self.push.schedule(room.model)
        if local:
            self.computers.wake(room)

    # -- connections -------------------------------------------------------------

    def attach(self, room: LiveRoom, conn: Connection, player_id: str | None) -> None:
        conn.player_id = player_id
        room.conns.add(conn)
        room.cache.changed()
        room.active_at = time.monotonic()
        conn.send(views.welcome_message(room.model, player_id))
        if conn.creator:
            room.creator_left_at = None
            if room.host_timer is not None:
                room.host_timer.cancel()
                room.host_timer = None
        self._recount_online(room)
        fanout.push_states(room)

    def detach(self, room: LiveRoom, conn: Connection) -> None:
        if conn not in room.conns:
            return
        room.conns.discard(conn)
        room.cache.forget(conn)
        room.active_at = time.monotonic()
        self._recount_online(room)
        fanout.push_states(room)
        if conn.creator and conn.player_id is None and CREATOR not in room.online():
            # the creator's last connection closed before they sat down: the host
            # role waits a while for them, then goes to the first player seated
            room.creator_left_at = time.monotonic()
            if room.host_timer is not None:
                room.host_timer.cancel()
            room.host_timer = asyncio.get_running_loop().call_later(
                self.creator_wait + 0.05, lambda: self._spawn(self.settle_host(room)))

    async def settle_host(self, room: LiveRoom) -> None:
        """A room with players and no host, whose creator it no longer waits for
        (gone a while, or not here after a restart): the first seated is host."""
        model = room.model
        if (self.loaded.get(model.code) is not room or model.host is not None
                or not model.players or room.creator_waits(self.creator_wait)):
            return
        try:
            await self.commit(room, lambda r: (decide_unclaimed_host(r), None))
        except RuleError:
            pass  # someone became host meanwhile
        except Exception:
            log.exception("handing the host role on failed in room %s", model.code)

    def _recount_online(self, room: LiveRoom) -> None:
        online = fanout.recount_online(room)
        if online is not None and self.hub.shared:
            self._spawn(self.hub.publish(
                HubMessage(room.code, "presence", self.hub.origin, {"online": sorted(online)})
            ))

    # -- other processes ------------------------------------------------------------
    # Routing by room code (workers.py, docs/deploy.md) gives a room one process,
    # so its ink need not cross to any other. Processes say which rooms they
    # hold ("hold" notices, renewed); a room's ink is published only while
    # another process holds it too (a room moving machine with players on it).

    def _hold(self, room: LiveRoom, held: bool, answer: bool = False) -> None:
        if self.hub.shared:
            self._spawn(self.hub.publish(HubMessage(
                room.code, "hold", self.hub.origin, {"held": held, "answer": answer})))

    async def _hold_loop(self) -> None:
        while True:
            await asyncio.sleep(HOLD_RENEW)
            for room in list(self.loaded.values()):
                self._hold(room, held=True, answer=True)

    async def on_hub(self, msg: HubMessage) -> None:
        room = self.loaded.get(msg.room)
        if room is None:
            return
        if msg.kind == "hold" and not msg.meta["held"]:
            room.holders.pop(msg.origin, None)
            return
        # any notice about the room says its sender holds it
        known = msg.origin in room.holders
        room.holders[msg.origin] = time.monotonic()
        if msg.kind == "hold":
            if not known and not msg.meta.get("answer"):
                self._hold(room, held=True, answer=True)  # so the newcomer knows of us
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
            self.after_change(room, local=False,
                              event=events.parse(msg.meta["kind"], msg.meta["data"]))
        elif msg.kind == "ink":
            self.ink.from_hub(room, msg.meta["key"], int(msg.meta["seat"]),
                              int(msg.meta["n"]), msg.data)
        elif msg.kind == "presence":
            room.remote_online[msg.origin] = set(msg.meta["online"])
            fanout.push_states(room)
