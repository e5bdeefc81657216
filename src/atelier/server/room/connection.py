"""One WebSocket connection: who it is and its outgoing queue.

Sending never blocks the room: messages go to a bounded queue that a writer
task drains. A client too slow to keep up is closed (it reconnects and gets a
full sync) rather than holding everyone else back.

A connection that asked for ink bundles gathers its binary frames in a
``Bundle`` (``atelier.server.ink.bundles``). Text messages flush the gathered
ink first, so the order of everything a client receives is unchanged.

Ink goes out only once it is in the store's write (``Bundler``): the bundle
tick's bundles wait in the tick's list for its write; between ticks, a binary
message sent while some ink taken is not stored yet waits in ``held`` for the
write it needs, and everything sent after it (or after the tick's bundle)
waits behind it, so the order is kept.
"""

from __future__ import annotations

import asyncio
from collections import deque

from starlette.websockets import WebSocket

from atelier.server.edge.limits import Limits
from atelier.server.ink.bundles import Bundle, Bundler, bundler
from atelier.server.ink.caches import Drawer
from atelier.server.ink.transport import QUEUED, DirectSocket, SocketTransport
from atelier.server.wire.wsframe import BINARY, frame

QUEUE_SIZE = 1024
CLOSE_TOO_SLOW = 1013

Outgoing = str | bytes | tuple[int, str]  # (code, reason) closes


class Connection:
    # slots: every batch and every bundle reads a few of these, on hundreds of
    # connections, so the fewer and closer the better
    __slots__ = ("_clock", "_direct", "_wake", "_write_now", "bundle", "closing", "creator",
                 "drawer", "held", "lang", "limits", "player_id", "queue", "tick_gen", "ws")

    def __init__(self, ws: WebSocket, transport: SocketTransport = QUEUED,
                 lang: str = "en", bundles: bool = False) -> None:
        self.ws = ws
        self.lang = lang
        self.player_id: str | None = None
        self.creator = False  # said hello with the room's (unused) host key
        self.limits = Limits()
        self.closing = False
        # a deque and one waiting future: asyncio.Queue's bookkeeping cost
        # more than the sends themselves at thousands of messages a second
        self.queue: deque[Outgoing] = deque()
        self._write_now = transport.write_now
        self._direct = transport if isinstance(transport, DirectSocket) else None
        self._wake: asyncio.Future[None] | None = None
        self.bundle = Bundle(self._put, self._tick) if bundles else None
        self.held: deque[tuple[int, Outgoing]] = deque()
        """(the write it needs, the message): what waits for ink to be stored."""
        self.tick_gen = 0  # the write its last tick's bundle waits for (Bundler.out)
        self._clock: Bundler | None = None  # this loop's, looked up once
        self.drawer: Drawer | None = None  # kept by the ink path (ink.caches.Drawer)

    def send(self, message: Outgoing) -> None:
        if self.closing:
            return
        bundle = self.bundle
        if bundle is not None:
            if isinstance(message, bytes):
                bundle.add(len(message).to_bytes(2, "big") + message)
                return
            if bundle.frames:
                bundle.flush()
        self._put(message)

    def relay(self, prefixed: bytes) -> None:
        """Send one ink frame given after its u16 length, as bundles carry it
        (made once per batch for all its watchers)."""
        if self.closing:
            return
        bundle = self.bundle
        if bundle is None:
            self._put(prefixed[2:])
        else:
            bundle.add(prefixed)

    def gatherer(self) -> list[bytes] | None:
        """For a bundling connection, the list its bundle gathers frames (after
        their u16 length) in, to add to without a timer, for whoever flushes the
        bundle (it is cleared, never replaced); None for one that gets a message
        per frame."""
        return None if self.bundle is None else self.bundle.frames

    def flush_ink(self) -> None:
        """Queue the gathered ink now."""
        if self.bundle is not None:
            self.bundle.flush()

    def _put(self, message: Outgoing) -> None:
        if self.closing:  # only a bundle's flush comes here then
            return
        clock = self._clock
        if clock is None:
            clock = self._clock = bundler()
        if self.held or self.tick_gen > clock.done or (
                type(message) is bytes and (clock.dirty or clock.done < clock.gen)):
            # ink that may not be stored yet, or a message behind such ink
            self.held.append((clock.gen + clock.dirty, message))
            clock.hold(self)
            return
        self.send_out(message)

    def _tick(self, message: bytes) -> None:
        """The bundle tick's bundle: out after the tick's write (``Bundler.out``)."""
        if self.closing:
            return
        clock = self._clock
        if clock is None:
            clock = self._clock = bundler()
        need = clock.gen + clock.dirty
        if self.held:  # after what is held already
            self.held.append((need, message))
            clock.hold(self)
        else:
            clock.out.append((self, message))
            self.tick_gen = need

    def release(self, done: int) -> bool:
        """Send what was held for writes up to ``done`` (``Bundler``); True once
        nothing is held."""
        held = self.held
        while held and held[0][0] <= done:
            # all of it, even once closing: what was held came before the close
            self.send_out(held.popleft()[1])
        return not held

    def send_out(self, message: Outgoing) -> None:
        """Out now, or into the queue (a tick's bundle comes here once stored)."""
        queue = self.queue
        # nothing waiting before it: the transport may write it at once, which
        # spares a wake-up of the writer task per message (docs/performance.md)
        if not queue:
            direct = self._direct
            if direct is not None and direct.ready and type(message) is bytes:
                # a bundle, nearly always: framed and written here, as write_now would
                transport = direct.transport
                assert transport is not None  # ready
                transport.write(frame(BINARY, message))
                return
            if not isinstance(message, tuple) and self._write_now(message):
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
