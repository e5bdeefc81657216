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
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from atelier.errors import RuleError
from atelier.games.core import Game
from atelier.hub import Hub, HubMessage
from atelier.ink.guard import restore
from atelier.jsonvalue import JSON
from atelier.metrics import COMMIT_SECONDS, STORE_ERRORS
from atelier.server.engine.pool import Engine
from atelier.server.ink.intake import MAX_DRAWING_BYTES, MAX_ROOM_INK_BYTES, InkIntake
from atelier.server.push.service import PushService
from atelier.server.room import events, fanout, views
from atelier.server.room.computers import Computers
from atelier.server.room.deadlines import Deadlines
from atelier.server.room.events import Left, LogEvent, Removed
from atelier.server.room.hubsync import HubSync
from atelier.server.room.live_room import (
    LiveRoom,
    new_code,
    normal_code,
    valid_code,
)
from atelier.server.room.model import (
    Decision,
    RoomModel,
    refuse_agreements,
    replay_log,
)
from atelier.server.room.presence import CREATOR_WAIT, Presence
from atelier.server.room.upkeep import IDLE_SECONDS, SCAN_SECONDS, Upkeep
from atelier.store import CLOSED, Conflict, Store

__all__ = ["CREATOR_WAIT", "IDLE_SECONDS", "SCAN_SECONDS", "LiveRoom", "Rooms", "normal_code"]

log = logging.getLogger(__name__)

STOP_SECONDS = 8.0  # a clean stop's budget for writing what is pending
COMMIT_RETRIES = 30



def _status(kind: str, model: RoomModel, state: Any) -> str | None:
    """The room's listed status after an event of this kind, if it changes."""
    if kind == "started":
        return "playing"
    if kind == "again":
        return "lobby"
    if kind in ("action", "removed") and model.game.is_over(state):
        return "over"
    return None


class Rooms(Upkeep, Presence, HubSync):
    """The rooms this process holds: loading, caching and the one path for changes
    here; unloading and the due-game scan (upkeep), connections (presence) and
    other processes' notices (hubsync) in their own modules."""

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

    async def create(self, game_name: str, settings: dict[str, JSON], language: str,
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

