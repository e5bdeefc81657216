"""One WebSocket connection: who it is, what it has been sent, and its outgoing queue.

Sending never blocks the room: messages go to a bounded queue that a writer
task drains. A client too slow to keep up is closed (it reconnects and gets a
full sync) rather than holding everyone else back.

A connection that asked for ink bundles (``?ink=bundles``, docs/protocol.md)
gets its binary ink frames gathered for up to ``BUNDLE_SECONDS`` and sent as
one message: with six players drawing, each socket would otherwise carry a
hundred tiny messages a second, and every message costs the server (and the
phone) far more than its bytes. Text messages flush the gathered ink first,
so the order of everything a client receives is unchanged.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket

from atelier.server.limits import Limits
from atelier.server.per_loop import PerLoop

if TYPE_CHECKING:
    from atelier.server.live_room import LiveRoom

QUEUE_SIZE = 1024
CLOSE_TOO_SLOW = 1013
BUNDLE_SECONDS = 0.04
"""How long ink waits for company. Each message sent costs the server tens of
microseconds (docs/performance.md); 40 ms leaves most of the 100 ms budget."""
BUNDLE_MAX_BYTES = 32 * 1024
"""A bundle this large goes at once (a sync of a long drawing is split)."""

Outgoing = str | bytes | tuple[int, str]  # (code, reason) closes


class _Bundler:
    """Flushes gathered ink on one shared timer, so a busy server wakes once per
    interval rather than once per connection: connections that gathered ink
    one frame at a time (``relay``), and groups that gathered it for many
    connections at once (a room's live ink, ``fanout.relay_ink``)."""

    def __init__(self) -> None:
        self.waiting: set[Connection] = set()
        self.groups: list[Callable[[], None]] = []
        self.timer: asyncio.TimerHandle | None = None

    def add(self, conn: Connection) -> None:
        self.waiting.add(conn)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(BUNDLE_SECONDS, self.flush)

    def add_group(self, flush: Callable[[], None]) -> None:
        """Call ``flush`` at the end of this interval (it flushes its connections)."""
        self.groups.append(flush)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(BUNDLE_SECONDS, self.flush)

    def flush(self) -> None:
        self.timer = None
        groups, self.groups = self.groups, []
        for flush_group in groups:
            flush_group()
        waiting, self.waiting = self.waiting, set()
        for conn in waiting:
            conn.flush_ink()


bundler = PerLoop(_Bundler)
"""The running event loop's _Bundler."""


class Connection:
    def __init__(self, ws: WebSocket, lang: str = "en", bundles: bool = False) -> None:
        self.ws = ws
        self.lang = lang
        self.player_id: str | None = None
        self.creator = False  # said hello with the room's (unused) host key
        self.room: LiveRoom | None = None  # set when it joins a room (Rooms.attach)
        self.limits = Limits()
        self.ink_key: str | None = None
        self.visible: frozenset[int] = frozenset()
        self.closing = False
        # a deque and one waiting future: asyncio.Queue's bookkeeping cost
        # more than the sends themselves at thousands of messages a second
        self.queue: deque[Outgoing] = deque()
        scope = getattr(ws, "scope", None) or {}  # none for a bare connection in tests
        extensions = scope.get("extensions") or {}
        self._write_now: Callable[[bytes | str], bool] | None = extensions.get(
            "atelier.write_now")
        self._wake: asyncio.Future[None] | None = None
        self.bundles = bundles
        self._bundler: _Bundler | None = None  # this loop's, looked up once
        self._ink: list[bytes] = []  # frames waiting for the next bundle, length first
        self._ink_bytes = 0  # the bundle's size with the frames' length prefixes

    def send(self, message: Outgoing) -> None:
        if self.closing:
            return
        if self.bundles:
            if isinstance(message, bytes):
                self._gather(message)
                return
            if self._ink:
                self.flush_ink()
        self._put(message)

    def _gather(self, frame: bytes) -> None:
        self.relay(len(frame).to_bytes(2, "big") + frame)

    def relay(self, prefixed: bytes) -> None:
        """Send one ink frame given after its u16 length, as bundles carry it
        (made once per batch for all its watchers)."""
        if self.closing:
            return
        if not self.bundles:
            self._put(prefixed[2:])
            return
        ink = self._ink
        if not ink:
            timer = self._bundler
            if timer is None:
                timer = self._bundler = bundler()
            timer.add(self)
        ink.append(prefixed)
        self._ink_bytes += len(prefixed)
        if self._ink_bytes >= BUNDLE_MAX_BYTES:
            self.flush_ink()

    def gatherer(self) -> Callable[[bytes], None] | None:
        """For a bundling connection, what adds a frame (after its u16 length) to
        the bundle it is gathering, for whoever makes sure the bundle is flushed
        (``bundler().add_group``); None for one that gets a message per frame.
        Live ink is gathered this way, one call per watcher and batch: it is the
        server's busiest loop (docs/performance.md)."""
        return self._ink.append if self.bundles else None

    def flush_ink(self) -> None:
        """Queue the gathered ink as one bundle, or several if it is larger than
        ``BUNDLE_MAX_BYTES`` (the shared timer calls this too)."""
        ink = self._ink
        if ink and not self.closing:
            whole = b"".join(ink)
            if len(whole) <= BUNDLE_MAX_BYTES:
                self._put(whole)
            else:
                part: list[bytes] = []
                size = 0
                for entry in ink:
                    if part and size + len(entry) > BUNDLE_MAX_BYTES:
                        self._put(b"".join(part))
                        part, size = [], 0
                    part.append(entry)
                    size += len(entry)
                self._put(b"".join(part))
        ink.clear()  # the same list: gatherers hold its append
        self._ink_bytes = 0

    def _put(self, message: Outgoing) -> None:
        queue = self.queue
        write_now = self._write_now
        # nothing waiting before it: the lean transport writes it at once, which
        # spares a wake-up of the writer task per message (docs/performance.md)
        if not queue and write_now is not None and not isinstance(message, tuple) \
                and write_now(message):
            return
        if len(queue) >= QUEUE_SIZE:
            self.closing = True
            # make room for the close itself
            queue.pop()
            message = (CLOSE_TOO_SLOW, "too slow")
        queue.append(message)
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    def close(self, code: int, reason: str = "") -> None:
        if not self.closing:
            self.send((code, reason))
            self.closing = True

    async def writer(self) -> None:
        """Drain the queue to the socket until a close or a send fails."""
        ws = self.ws
        queue = self.queue
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not queue:
                    self._wake = loop.create_future()
                    await self._wake
                    continue
                item = queue.popleft()
                if isinstance(item, bytes):
                    await ws.send_bytes(item)
                elif isinstance(item, str):
                    await ws.send_text(item)
                else:
                    await ws.close(code=item[0], reason=item[1])
                    return
        except Exception:
            # the peer went away; the reader notices and cleans up
            self.closing = True
