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
import ctypes
import gc
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from atelier.errors import RuleError
from atelier.games.core import SYSTEM, BotGame, DrawingGame, Game
from atelier.hub import Hub, HubMessage
from atelier.ink.batches import BatchLog
from atelier.ink.guard import InkGuard, restore
from atelier.ink.presence import InkPresence
from atelier.server import views
from atelier.server.connection import Connection
from atelier.server.ink_gate import check_batch
from atelier.server.model import Event, RoomModel, decide_action, replay_log
from atelier.store import Conflict, InkRow, Store

log = logging.getLogger(__name__)

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
INK_FLUSH_SECONDS = 0.25
STOP_SECONDS = 8.0  # a clean stop's budget for writing what is pending
IDLE_SECONDS = 600.0  # a room nobody is connected to leaves memory after this long
COMMIT_RETRIES = 30

Decision = Callable[[RoomModel], tuple[Event, Any]]


RELEASE_AFTER = 50  # unloading this many rooms at once is worth a collection and a trim


def release_memory() -> None:
    """Collect, then hand the C heap's free pages back to the system (glibc only):
    otherwise the process keeps its peak size after many rooms leave."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str:
    return code.strip().upper()


@dataclass(eq=False)
class LiveRoom:
    model: RoomModel
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    ink: dict[str, dict[int, BatchLog]] = field(default_factory=dict)
    guards: dict[tuple[str, int], InkGuard] = field(default_factory=dict)
    presence: dict[tuple[str, int], InkPresence] = field(default_factory=dict)
    local_online: dict[str, int] = field(default_factory=dict)
    remote_online: dict[bytes, set[str]] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    bots: asyncio.Task[None] | None = None
    bots_again: bool = False
    active_at: float = field(default_factory=time.monotonic)  # last connection or change
    # the rules' canvas_action (DrawingGame), looked up once: asked after every batch
    canvas_action: Callable[[Any, int, bool], dict[str, Any] | None] | None = field(init=False)

    def __post_init__(self) -> None:
        game = self.model.game
        self.canvas_action = game.canvas_action if isinstance(game, DrawingGame) else None

    def online(self) -> set[str]:
        ids = {pid for pid, n in self.local_online.items() if n > 0}
        for remote in self.remote_online.values():
            ids |= remote
        return ids

    def add_ink(self, key: str, seat: int, data: bytes) -> int:
        by_seat = self.ink.setdefault(key, {})
        batches = by_seat.get(seat)
        if batches is None:
            batches = by_seat[seat] = BatchLog()
        return batches.append(data)

    def strokes(self, key: str, seat: int) -> int:
        guard = self.guards.get((key, seat))
        return 0 if guard is None else guard.strokes


class Rooms:
    def __init__(self, store: Store, hub: Hub, games: Callable[[str], Game[Any]],
                 owns: Callable[[str], bool] | None = None,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.store = store
        # with several worker processes, the rooms this one restores and plays
        self.owns = owns or (lambda code: True)
        self.hub = hub
        self.games = games
        self.idle_seconds = idle_seconds
        self.loaded: dict[str, LiveRoom] = {}
        self.unloaded = 0  # rooms that left memory since the start
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}
        # unloaded rooms whose deadline will come: a timer that loads them back
        self._wakeups: dict[str, asyncio.TimerHandle] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.pending_ink: list[tuple[str, InkRow]] = []
        self._writing: list[tuple[str, InkRow]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._flusher: asyncio.Task[None] | None = None
        self._stop_flusher = asyncio.Event()
        self.stopping = False
        self.ink_written = 0
        hub.set_receiver(self.on_hub)

    # -- life cycle -------------------------------------------------------------

    async def start(self) -> None:
        """Bring back the rooms whose games run, so their timers and computer players resume."""
        for code in await self.store.rooms_with_status("playing"):
            if not self.owns(code):
                continue
            try:
                await self.get(code)
            except Exception:
                log.exception("room %s could not be restored", code)
        self._flusher = asyncio.create_task(self._flush_loop())
        self._sweeper = asyncio.create_task(self._sweep_loop())

    async def close(self, budget: float = STOP_SECONDS) -> None:
        """A clean stop: no new timers or computer moves, the flusher finishes the
        write it is in (cancelling it mid-write would drop that batch and leave
        SQLite locked), then everything still pending is written, within ``budget``."""
        end = time.monotonic() + budget
        self.stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for wakeup in self._wakeups.values():
            wakeup.cancel()
        for room in self.loaded.values():
            if room.timer is not None:
                room.timer.cancel()
        # moves under way (a timeout firing, a computer's move) finish their commit
        busy = [t for t in self._tasks if not t.done()]
        busy += [r.bots for r in self.loaded.values() if r.bots is not None and not r.bots.done()]
        if busy:
            _, late = await asyncio.wait(busy, timeout=max(0.1, min(2.0, end - time.monotonic())))
            for task in late:
                task.cancel()
        if self._flusher is not None:
            self._stop_flusher.set()
            await asyncio.wait([self._flusher], timeout=max(0.1, end - time.monotonic()))
        before = self.ink_written
        while self.pending_ink and time.monotonic() < end:
            if not await self.flush_ink():
                await asyncio.sleep(0.1)
        if self.pending_ink:
            log.error("stopped: %d ink batches could not be written", len(self.pending_ink))
        log.info("stopped: %d ink batches written (%d at the stop)",
                 self.ink_written, self.ink_written - before)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- creating and loading ---------------------------------------------------

    async def create(self, game_name: str, settings: dict[str, Any], language: str,
                     host_key_hash: str | None = None) -> str:
        game = self.games(game_name)
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
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
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
        wakeup = self._wakeups.pop(code, None)
        if wakeup is not None:
            wakeup.cancel()  # the room's own timer takes over
        self._schedule_timer(room)
        self._run_bots(room)
        return room

    async def _load(self, code: str) -> LiveRoom | None:
        """The room rebuilt from its log and its ink."""
        events = await self.store.load_events(code)
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

    # -- unloading idle rooms -------------------------------------------------------

    async def _sweep_loop(self) -> None:
        every = min(30.0, max(0.05, self.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            try:
                self.unload_idle()
            except Exception:
                log.exception("unloading idle rooms failed")

    def unload_idle(self, now: float | None = None) -> int:
        """Drop the rooms nobody has been connected to for ``idle_seconds``; their
        log brings them back on the next visit. A room stays while anything is
        under way in it (a commit, a computer thinking, ink not yet written).
        A room with a deadline gets a wake-up that loads it back when it is due."""
        now = time.monotonic() if now is None else now
        unwritten = {code for code, _ in self.pending_ink} | {code for code, _ in self._writing}
        gone = 0
        for code, room in list(self.loaded.items()):
            if (room.conns or now - room.active_at < self.idle_seconds or room.lock.locked()
                    or (room.bots is not None and not room.bots.done())
                    or code in unwritten):
                continue
            if room.timer is not None:
                room.timer.cancel()
                room.timer = None
            model = room.model
            deadline = model.game.deadline(model.state) if model.phase == "playing" else None
            if deadline is not None:
                loop = asyncio.get_running_loop()
                self._wakeups[code] = loop.call_later(
                    max(0.0, deadline - time.time()), self._spawn_wake, code
                )
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

    def _spawn_wake(self, code: str) -> None:
        self._spawn(self._wake(code))

    async def _wake(self, code: str) -> None:
        self._wakeups.pop(code, None)
        if self.stopping:
            return
        try:
            await self.get(code)  # loading it schedules its (now due) timer
        except Exception:
            log.exception("room %s could not be woken for its deadline", code)

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
                elif kind == "again":
                    status = "lobby"
                elif kind in ("action", "removed") and model.game.is_over(state):
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
        self.after_change(room, local=True, event=(kind, data))
        return kind, data

    def after_change(self, room: LiveRoom, local: bool,
                     event: tuple[str, dict[str, Any]] | None = None) -> None:
        model = room.model
        room.active_at = time.monotonic()
        # "kicked" tells a player's connections the host removed them; one who
        # left by themselves was not (their state says they now watch)
        by_self = event is not None and event[1].get("by") == "self"
        for conn in room.conns:
            if conn.player_id is not None and model.player(conn.player_id) is None:
                conn.player_id = None
                if not by_self:
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
        room.active_at = time.monotonic()
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
        room.active_at = time.monotonic()
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

    def take_ink(self, conn: Connection,
                 data: bytes) -> tuple[LiveRoom, str, int, int, InkPresence]:
        """Check, keep and relay one batch, all without waiting: (room, key, seat,
        batch number, what the canvas shows now). RuleError, and no change, if
        refused."""
        room: LiveRoom = conn.room
        model = room.model
        seat = model.seat_of(conn.player_id)
        key, batch = check_batch(model, seat, data, room.guards)
        assert seat is not None
        n = room.add_ink(key, seat, data)
        presence = room.presence.get((key, seat))
        if presence is None:
            presence = room.presence[(key, seat)] = InkPresence()
        if batch.tools:  # else only points of an open stroke: nothing to follow
            presence.apply(batch)
        self.pending_ink.append((model.code, InkRow(key, seat, n, data)))
        self.relay_ink(room, key, seat, data, conn)
        return room, key, seat, n, presence

    def accept_ink_now(self, conn: Connection, data: bytes) -> Awaitable[None] | None:
        """The transport's direct path: ``take_ink``, then what is left to await
        (a canvas report for the rules), or None. Only without a shared hub, as
        the hub's publish must be awaited in order."""
        room, _key, seat, _n, presence = self.take_ink(conn, data)
        action = self._canvas_action(room, seat, presence)
        return None if action is None else self._commit_canvas(room, action)

    async def accept_ink(self, conn: Connection, data: bytes) -> None:
        room, key, seat, n, presence = self.take_ink(conn, data)
        if self.hub.shared:
            await self.hub.publish(
                HubMessage(room.model.code, "ink", self.hub.origin,
                           {"key": key, "seat": seat, "n": n}, data)
            )
        action = self._canvas_action(room, seat, presence)
        if action is not None:
            await self._commit_canvas(room, action)

    def _canvas_action(self, room: LiveRoom, seat: int,
                       presence: InkPresence) -> dict[str, Any] | None:
        """The action that tells the rules whether the canvas shows ink, when they
        want to know (DrawingGame.canvas_action); None nearly always."""
        report = room.canvas_action
        if report is None or room.model.phase != "playing":
            return None
        return report(room.model.state, seat, presence.blank)

    async def _commit_canvas(self, room: LiveRoom, action: dict[str, Any]) -> None:
        """Awaited before the player's next message is read, so "I drew, now I
        take a token" arrives in that order."""

        def decide(m: RoomModel) -> tuple[Event, Any]:
            return decide_action(m, SYSTEM, action, time.time())

        try:
            await self.commit(room, decide)
        except RuleError as err:  # the round ended meanwhile
            log.debug("canvas report refused in %s: %s", room.model.code, err.code)

    async def flush_ink(self) -> bool:
        """Write the pending ink; False if the write failed (the rows stay pending)."""
        rows, self.pending_ink = self.pending_ink, []
        if not rows:
            return True
        self._writing += rows  # their rooms stay loaded until the rows are stored
        try:
            await self.store.append_ink(rows)
        except Exception:
            log.exception("ink write failed; retrying")
            self.pending_ink = rows + self.pending_ink
            return False
        finally:
            written = {id(row) for row in rows}
            self._writing = [row for row in self._writing if id(row) not in written]
        self.ink_written += len(rows)
        return True

    async def _flush_loop(self) -> None:
        while not self._stop_flusher.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop_flusher.wait(), INK_FLUSH_SECONDS)
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
            self.after_change(room, local=False, event=(msg.meta["kind"], msg.meta["data"]))
        elif msg.kind == "ink":
            key, seat, n = msg.meta["key"], int(msg.meta["seat"]), int(msg.meta["n"])
            have = len(room.ink.get(key, {}).get(seat, ()))
            if n < have:
                return
            guard = room.guards.setdefault((key, seat), InkGuard())
            presence = room.presence.setdefault((key, seat), InkPresence())
            with contextlib.suppress(RuleError):
                presence.apply(guard.check(msg.data))
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
        if model.phase != "playing" or self.stopping:
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
            if err.code == "timeout_early" and still and not self.stopping:
                loop = asyncio.get_running_loop()
                room.timer = loop.call_later(
                    0.05, lambda: self._spawn(self._fire(room, deadline))
                )
            else:
                log.debug("timeout refused in %s: %s", model.code, err.code)
        except Exception:
            log.exception("timeout failed in %s", room.model.code)

    def _run_bots(self, room: LiveRoom) -> None:
        if room.model.phase != "playing" or not room.model.computers or self.stopping:
            return
        if room.bots is not None and not room.bots.done():
            room.bots_again = True
            return
        room.bots = asyncio.create_task(self._bots(room))

    async def _bots(self, room: LiveRoom) -> None:
        model = room.model
        game = model.game
        if not isinstance(game, BotGame):
            return
        while True:
            room.bots_again = False
            acted = False
            for seat in sorted(model.computers):
                if model.phase != "playing" or self.stopping:
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
