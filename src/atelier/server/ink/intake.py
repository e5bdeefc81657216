"""Ink coming in: each batch checked, kept in its room, gathered for the other
screens, written to the store on the bundle tick before anyone is sent it
(``bundles.Bundler``; and every ``INK_FLUSH_SECONDS`` when nobody watches), and
the rules told when a canvas turns blank or not (for the games that ask).

Nothing here waits on the relay path: a batch is accepted or refused before the
next one is read (docs/ink.md, docs/performance.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Generic, TypeVar

from atelier.errors import RuleError
from atelier.games.actions import Action
from atelier.games.core import SYSTEM
from atelier.hub import Hub, HubMessage
from atelier.ink.codec import MAX_BATCH_BYTES
from atelier.metrics import INK, STORE_ERRORS
from atelier.server.ink.bundles import Bundler, bundler, spread
from atelier.server.ink.caches import Drawer
from atelier.server.ink.relay import fan_of, gather, relay_ink, relay_single
from atelier.server.ink.rights import rights, seat_tools
from atelier.server.ink.room import InkRoom, Watcher
from atelier.server.room.events import LogEvent
from atelier.server.room.model import Commit, RoomModel, decide_action
from atelier.store import InkRow, Store

log = logging.getLogger(__name__)

INK_FLUSH_SECONDS = 0.25
MAX_DRAWING_BYTES = 1024 * 1024
"""Ink one drawing may hold: about 250,000 points, hours of drawing. The rate
limits alone would let a long round store hundreds of MB per seat, and batches
that draw nothing (a clear, again and again) count no stroke."""
MAX_ROOM_INK_BYTES = 16 * 1024 * 1024
"""Ink one room may hold over all its games (each kept in memory while it is loaded)."""

R = TypeVar("R", bound=InkRoom)


class InkIntake(Generic[R]):
    """Every batch of this process's rooms (``R``: ``live_room.LiveRoom``)."""

    def __init__(self, store: Store, hub: Hub, commit: Commit[R],
                 max_drawing: int = MAX_DRAWING_BYTES,
                 max_room: int = MAX_ROOM_INK_BYTES) -> None:
        self.store = store
        self.max_drawing = max_drawing
        self.max_room = max_room
        self.hub = hub
        self.shared = hub.shared  # fixed for a hub's life: read once, not per batch
        self.commit = commit
        self.pending_ink: list[tuple[str, InkRow]] = []
        self._writing: list[list[tuple[str, InkRow]]] = []
        """The rows of each write under way (their rooms stay loaded until stored)."""
        self.ink_written = 0
        self._flusher: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._write_lock = asyncio.Lock()  # one write at a time: the tick's or the timer's
        self.clock: Bundler | None = None  # this loop's bundle tick, which writes ahead

    def _clock(self) -> Bundler:
        clock = self.clock
        if clock is None:
            clock = self.clock = bundler()
            clock.writers.append(self.flush)
        return clock

    # -- a batch from a player ----------------------------------------------------

    def take(self, room: R, conn: Watcher, data: bytes) -> Awaitable[None] | None:
        """Check, keep and relay one batch, all without waiting; then what is left
        to await before the sender's next message is handled, or None (nearly
        always): publishing the batch to other processes that hold the room, and
        a canvas report for the rules. RuleError, and no change, if refused."""
        model = room.model
        drawer = conn.drawer
        if (drawer is None or drawer.model is not model or drawer.seq != model.seq
                or not drawer.fan.live):
            drawer = conn.drawer = _drawer(room, conn)
        size = len(data)
        if size > MAX_BATCH_BYTES:
            raise RuleError("message_too_large", max=MAX_BATCH_BYTES)
        key, seat, batches = drawer.key, drawer.seat, drawer.batches
        if size + (0 if batches is None else batches.size) > self.max_drawing:
            raise RuleError("drawing_full")
        if room.ink_bytes + size > self.max_room:
            raise RuleError("room_ink_full")
        marks = drawer.guard.check(data, drawer.tools).marks
        if batches is None:  # made on the first batch kept, not on a refused one
            batches = drawer.batches = room.batch_log(key, seat)
        n = batches.append(data)
        room.ink_bytes += size
        if marks:  # else only points of an open stroke: nothing to follow
            drawer.presence.apply(marks)
        self.pending_ink.append((model.code, InkRow(key, seat, n, data)))
        clock = self.clock
        if clock is None:
            clock = self._clock()
        clock.dirty = True  # the next tick writes it before anyone is sent it
        # counted for the metrics once written (INK), and until then at scrape
        # time (unwritten_count): per batch, the counting was 7% of this path
        # relay_ink, written out with the drawer's fan: a call per batch costs
        # (docs/performance.md)
        fan = drawer.fan
        prefixed = spread(seat, data, fan.gather)  # counts them for the metrics, in C
        if fan.single:
            relay_single(fan.single, prefixed)
        if fan.gather and not room.cache.gathering:
            gather(room)
        # routing by room code gives a room one process, so its ink need not
        # cross to another, unless another holds the room too (a room moving
        # machine with players on it)
        if self.shared and room.held_elsewhere(time.monotonic()):
            return self._publish(room, drawer, n, data)
        if not marks and drawer.quiet is not None:
            return None  # points only: the canvas is as blank as it was, and that was said
        action = self._canvas_action(room, drawer)
        return None if action is None else self._commit_canvas(room, action)

    async def _publish(self, room: R, drawer: Drawer, n: int, data: bytes) -> None:
        # the other process relays it at once: only once it is stored here
        await self._clock().stored()
        await self.hub.publish(
            HubMessage(room.code, "ink", self.hub.origin,
                       {"key": drawer.key, "seat": drawer.seat, "n": n}, data)
        )
        action = self._canvas_action(room, drawer)
        if action is not None:
            await self._commit_canvas(room, action)

    def _canvas_action(self, room: R, drawer: Drawer) -> Action | None:
        """The action that tells the rules whether the canvas shows ink, when they
        want to know (DrawingGame.canvas_action); None nearly always, and then
        not asked again for the same canvas state until the next event."""
        blank = drawer.presence.blank
        if blank is drawer.quiet:
            return None
        report = room.cache.canvas_action
        if report is None or room.model.phase != "playing":
            drawer.quiet = blank  # nothing to say until the next event (a new drawer)
            return None
        action = report(room.model.state, drawer.seat, blank)
        if action is None:
            drawer.quiet = blank
        return action

    async def _commit_canvas(self, room: R, action: Action) -> None:
        """Awaited before the player's next message is read, so "I drew, now I
        take a token" arrives in that order."""

        def decide(m: RoomModel) -> tuple[LogEvent, object]:
            return decide_action(m, SYSTEM, action, time.time())

        try:
            await self.commit(room, decide)
        except RuleError as err:  # the round ended meanwhile
            log.debug("canvas report refused in %s: %s", room.code, err.code)

    # -- a batch another process accepted -------------------------------------------

    def from_hub(self, room: R, key: str, seat: int, n: int, data: bytes) -> None:
        """Keep and relay a batch another process checked and stored."""
        if n < len(room.ink.get(key, {}).get(seat, ())):
            return  # already here (sent on connect)
        guard, presence = room.canvas(key, seat)
        with contextlib.suppress(RuleError):
            presence.apply(guard.check(data).marks)
        room.add_ink(key, seat, data)
        relay_ink(room, key, seat, data, None)

    # -- writing -------------------------------------------------------------------

    def unwritten_count(self) -> int:
        """Batches taken and not yet written (the metrics count them as taken)."""
        return len(self.pending_ink) + sum(len(rows) for rows in self._writing)

    def unwritten_bytes(self) -> int:
        return sum(len(row.data) for rows in (self.pending_ink, *self._writing)
                   for _, row in rows)

    def unwritten(self) -> set[str]:
        """Codes of the rooms with ink not yet stored (they must stay loaded)."""
        return ({code for code, _ in self.pending_ink}
                | {code for rows in self._writing for code, _ in rows})

    async def flush(self) -> bool:
        """Write the pending ink; False if the write failed (the rows stay pending).
        One write at a time, in order: once it returns, every batch taken before
        it was called is stored (or its write failed)."""
        async with self._write_lock:
            return await self._flush()

    async def _flush(self) -> bool:
        rows, self.pending_ink = self.pending_ink, []
        if not rows:
            return True
        self._writing.append(rows)
        try:
            await self.store.append_ink(rows)
        except Exception:
            STORE_ERRORS.labels("ink_write").inc()
            log.exception("ink write failed; retrying")
            self.pending_ink = rows + self.pending_ink
            return False
        finally:
            self._writing.remove(rows)  # one write at a time (the lock): this one
        self.ink_written += len(rows)
        tally = INK  # the metrics' batches in (until now, unwritten_count's)
        tally.frames_in += len(rows)
        tally.bytes_in += sum([len(row.data) for _, row in rows])
        return True

    def start(self) -> None:
        self._clock()
        self._flusher = asyncio.create_task(self._flush_loop())

    async def _flush_loop(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), INK_FLUSH_SECONDS)
            await self.flush()

    async def close(self, end: float) -> None:
        """Let the flusher finish the write it is in (cancelling it mid-write would
        drop that batch and leave SQLite locked), then write what is pending, until
        the monotonic time ``end``."""
        if self._flusher is not None:
            self._stop.set()
            await asyncio.wait([self._flusher], timeout=max(0.1, end - time.monotonic()))
        before = self.ink_written
        while self.pending_ink and time.monotonic() < end:
            if not await self.flush():
                await asyncio.sleep(0.1)
        if self.clock is not None and self.flush in self.clock.writers:
            self.clock.writers.remove(self.flush)
        if self.pending_ink:
            log.error("stopped: %d ink batches could not be written", len(self.pending_ink))
        log.info("stopped: %d ink batches written (%d at the stop)",
                 self.ink_written, self.ink_written - before)


def _drawer(room: InkRoom, conn: Watcher) -> Drawer:
    """The connection's Drawer as of now, made on its first batch since the last
    event or change of watchers; RuleError("cannot_draw") if it may not draw now."""
    model, cache = room.model, room.cache
    now = cache.rights
    if now is None or now.seq != model.seq:
        now = cache.rights = rights(model, now)
    key = now.key
    player_id = conn.player_id
    seat = None if player_id is None else now.seats.get(player_id)
    if key is None or seat is None:
        raise RuleError("cannot_draw")
    tools = seat_tools(model, now, seat)
    if tools is None:
        raise RuleError("cannot_draw")
    guard, presence = room.canvas(key, seat)
    return Drawer(model, model.seq, key, seat, tools, guard, presence,
                  fan_of(room, key, seat, conn))
