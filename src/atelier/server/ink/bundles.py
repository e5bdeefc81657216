"""Ink bundles: a connection that asked for them (``?ink=bundles``, docs/protocol.md)
gets its binary ink frames gathered for up to ``BUNDLE_SECONDS`` and sent as one
message. With six players drawing, each socket would otherwise carry a hundred
tiny messages a second, and every message costs the server (and the phone) far
more than its bytes.

The same tick writes the ink ahead of the relay: no batch reaches another
screen before it is in the store's write, so a server killed at any moment
comes back with every stroke anyone saw (docs/performance.md, "What anyone saw
survives"). Each tick the bundles are flushed into a list (``Bundler.out``),
the tick's write starts, and once it is done the list goes out; a message sent
between ticks that may carry unstored ink, or follows such a message, waits in
its connection (``Connection.held``) for the write it needs."""

from __future__ import annotations

import asyncio
import logging
import struct
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from atelier.metrics import INK, INK_RELAY_DELAY
from atelier.server.wire.per_loop import PerLoop

BUNDLE_SECONDS = 0.04
"""How long ink waits for company: each message sent costs the server far more
than its bytes, and this wait stays well inside the delivery budget
(docs/performance.md). Ticks are at least this far apart; ink that comes after
a quiet spell longer than this goes with the next turn of the loop (a stroke in a
quiet room shows at once, a busy server still ticks 25 times a second)."""
BUNDLE_MAX_BYTES = 32 * 1024
"""A bundle this large goes at once (a sync of a long drawing is split)."""

_HEAD = struct.Struct(">HB").pack


_SPREAD = [0, 0]  # frames and bytes spread_py appended (the compiled one counts its own)


def spread_py(seat: int, batch: bytes, lists: list[list[bytes]]) -> bytes:
    """The batch's entry as bundles carry it (its u16 length, then the seat, then
    the batch), made once and appended to each of ``lists`` (the gathering
    bundles of the batch's watchers, ``Bundle.frames``)."""
    entry = _HEAD(len(batch) + 1, seat) + batch
    for frames in lists:
        frames.append(entry)
    _SPREAD[0] += len(lists)
    _SPREAD[1] += len(lists) * (len(batch) + 1)
    return entry


def spread_totals_py() -> tuple[int, int]:
    """Frames and bytes (each a seat and a batch) ``spread_py`` has appended so far."""
    return _SPREAD[0], _SPREAD[1]


spread: Callable[[int, bytes, list[list[bytes]]], bytes] = spread_py
spread_totals: Callable[[], tuple[int, int]] = spread_totals_py
try:  # the same, compiled (src/atelier/server/wire/_frames.c): once per batch
    from atelier.server.wire._frames import spread as _spread
    from atelier.server.wire._frames import spread_totals as _spread_totals
except ImportError:  # no C compiler at install
    pass
else:
    spread, spread_totals = _spread, _spread_totals
INK.sources.append(lambda: (0, 0, *spread_totals()))  # the relay's frames out, at scrape time


class Bundle:
    """One connection's ink waiting to go: each frame after its u16 length, as
    bundles carry it. ``put`` sends a finished bundle (the connection's queue);
    ``tick`` takes one at the bundle tick, to go out after the tick's write."""

    __slots__ = ("_bundler", "frames", "put", "size", "tick")

    def __init__(self, put: Callable[[bytes], None],
                 tick: Callable[[bytes], None] | None = None) -> None:
        self.frames: list[bytes] = []
        self.size = 0  # of frames added one by one (``add``)
        self.put = put
        self.tick = tick or put
        self._bundler: Bundler | None = None  # this loop's, looked up once

    def add(self, prefixed: bytes) -> None:
        """Gather one frame, flushed with the shared timer or once the bundle is full."""
        frames = self.frames
        if not frames:
            timer = self._bundler
            if timer is None:
                timer = self._bundler = bundler()
            timer.add(self)
        frames.append(prefixed)
        self.size += len(prefixed)
        if self.size >= BUNDLE_MAX_BYTES:
            self.flush()

    def flush(self, at_tick: bool = False) -> None:
        """Send the gathered ink as one bundle, or several if it is larger than
        ``BUNDLE_MAX_BYTES``; ``at_tick``: through ``tick``."""
        frames = self.frames
        if frames:
            put = self.tick if at_tick else self.put
            whole = b"".join(frames)
            if len(whole) <= BUNDLE_MAX_BYTES:
                put(whole)
            else:
                part: list[bytes] = []
                size = 0
                for entry in frames:
                    if part and size + len(entry) > BUNDLE_MAX_BYTES:
                        put(b"".join(part))
                        part, size = [], 0
                    part.append(entry)
                    size += len(entry)
                put(b"".join(part))
        frames.clear()  # the same list: a room's relay holds its append
        self.size = 0


class Holder(Protocol):
    """A connection that holds messages until the ink they may carry is stored."""

    def release(self, done: int) -> bool:
        """Send what waited for writes up to ``done``; True once nothing is held."""
        ...


class Sender(Protocol):
    """A connection as the tick sends it a bundle once the ink in it is stored."""

    def send_out(self, message: bytes) -> None: ...


class _Waiter:
    """One ``Bundler.stored`` call as a holder."""

    __slots__ = ("done", "need")

    def __init__(self, need: int, done: asyncio.Future[None]) -> None:
        self.need = need
        self.done = done

    def release(self, done: int) -> bool:
        if done < self.need:
            return False
        if not self.done.done():
            self.done.set_result(None)
        return True


log = logging.getLogger(__name__)


class Bundler:
    """Flushes gathered ink on one shared timer, so a busy server wakes once per
    interval rather than once per connection: bundles that gathered ink one
    frame at a time (``Bundle.add``), and groups that gathered it for many
    connections at once (a room's live ink, ``relay.relay_ink``).

    It also keeps ink behind the store (the module's docstring). Writes are
    numbered: ``gen`` is the last one asked for, ``done`` the last one finished,
    and ``dirty`` says ink was taken since ``gen`` was asked for. The bundles a
    tick flushes wait in ``out`` for the tick's write; any other message that
    may carry ink waits, in its connection, for write ``gen + dirty``
    (``Connection.held``), as does everything sent to that connection after it."""

    def __init__(self) -> None:
        self.waiting: set[Bundle] = set()
        self.groups: list[Callable[[], None]] = []
        self.timer: asyncio.TimerHandle | None = None
        self.writers: list[Callable[[], Awaitable[object]]] = []
        """Each ink intake's flush (writes every batch it has taken, in order)."""
        self.dirty = False
        self.gen = 0
        self.done = 0
        self.out: list[tuple[Sender, bytes]] = []
        """The bundles of the tick under way, each for its connection."""
        self._outs: deque[tuple[int, float, list[tuple[Sender, bytes]]]] = deque()
        """Each tick's ``out`` with the write it waits for and when its first ink came."""
        self.holders: set[Holder] = set()
        self._writing: asyncio.Task[None] | None = None
        self.since = 0.0  # when the interval under way began
        self.last = -BUNDLE_SECONDS  # when the last tick ran

    def add(self, bundle: Bundle) -> None:
        self.waiting.add(bundle)
        if self.timer is None:
            self._arm()

    def add_group(self, flush: Callable[[], None]) -> None:
        """Call ``flush`` at the end of this interval (it flushes its bundles)."""
        self.groups.append(flush)
        if self.timer is None:
            self._arm()

    def hold(self, holder: Holder) -> None:
        """``holder`` waits for a write: make sure one comes."""
        self.holders.add(holder)
        if self.timer is None:
            self._arm()

    def wait(self, now: float) -> float:
        """How long ink first taken at ``now`` waits for its tick: until
        ``BUNDLE_SECONDS`` after the last tick, or not at all after a quiet spell
        (the tick comes with the loop's next turn, with what that turn read)."""
        return max(self.last + BUNDLE_SECONDS - now, 0.0)

    def _arm(self) -> None:
        now = self.since = time.monotonic()  # the interval's first ink: the longest wait
        self.timer = asyncio.get_running_loop().call_later(self.wait(now), self.flush)

    async def stored(self) -> None:
        """Wait until every batch taken so far is in the store."""
        if self.dirty or self.done < self.gen:
            done = asyncio.get_running_loop().create_future()
            self.hold(_Waiter(self.gen + self.dirty, done))
            await done

    def flush(self) -> None:
        """The tick: every bundle into ``out`` (``Bundle.flush(at_tick=True)``),
        then the write of the ink taken so far, then ``out`` goes."""
        self.timer = None
        self.last = time.monotonic()
        groups, self.groups = self.groups, []
        for flush_group in groups:
            flush_group()
        waiting, self.waiting = self.waiting, set()
        for bundle in waiting:
            bundle.flush(True)
        if self.dirty:
            self.dirty = False
            self.gen += 1
        out, self.out = self.out, []
        if out:
            self._outs.append((self.gen, self.since, out))
        if self._writing is None:
            if self.done < self.gen:
                self._writing = asyncio.get_running_loop().create_task(self._write())
            else:
                self._release()

    async def _write(self) -> None:
        """Write until every write asked for is done, releasing after each. A
        failed write is logged and retried by its intake; what waited for it
        goes out all the same (relaying stops for no store outage)."""
        try:
            while self.done < self.gen:
                target = self.gen
                for write in list(self.writers):
                    try:
                        await write()
                    except Exception:
                        log.exception("ink write ahead of the relay failed")
                self.done = target
                self._release()
        finally:
            self._writing = None

    def _release(self) -> None:
        """Send what waited for writes up to ``done``: the ticks' bundles first
        (a connection's later messages were held behind them), then the held."""
        done, outs = self.done, self._outs
        while outs and outs[0][0] <= done:
            _, since, out = outs.popleft()
            for conn, message in out:
                conn.send_out(message)
            INK_RELAY_DELAY.observe(time.monotonic() - since)  # the write included
        holders = self.holders
        if holders:
            for holder in list(holders):
                if holder.release(done):
                    holders.discard(holder)


bundler = PerLoop(Bundler)
"""The running event loop's Bundler."""
