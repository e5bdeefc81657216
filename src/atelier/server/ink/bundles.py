"""Ink bundles: a connection that asked for them (``?ink=bundles``, docs/protocol.md)
gets its binary ink frames gathered for up to ``BUNDLE_SECONDS`` and sent as one
message. With six players drawing, each socket would otherwise carry a hundred
tiny messages a second, and every message costs the server (and the phone) far
more than its bytes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from atelier.server.wire.per_loop import PerLoop

BUNDLE_SECONDS = 0.04
"""How long ink waits for company: each message sent costs the server far more
than its bytes, and this wait stays well inside the delivery budget
(docs/performance.md)."""
BUNDLE_MAX_BYTES = 32 * 1024
"""A bundle this large goes at once (a sync of a long drawing is split)."""


class Bundle:
    """One connection's ink waiting to go: each frame after its u16 length, as
    bundles carry it. ``put`` sends a finished bundle (the connection's queue)."""

    __slots__ = ("_bundler", "frames", "put", "size")

    def __init__(self, put: Callable[[bytes], None]) -> None:
        self.frames: list[bytes] = []
        self.size = 0  # of frames added one by one (``add``)
        self.put = put
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

    def flush(self) -> None:
        """Send the gathered ink as one bundle, or several if it is larger than
        ``BUNDLE_MAX_BYTES``."""
        frames = self.frames
        if frames:
            whole = b"".join(frames)
            if len(whole) <= BUNDLE_MAX_BYTES:
                self.put(whole)
            else:
                part: list[bytes] = []
                size = 0
                for entry in frames:
                    if part and size + len(entry) > BUNDLE_MAX_BYTES:
                        self.put(b"".join(part))
                        part, size = [], 0
                    part.append(entry)
                    size += len(entry)
                self.put(b"".join(part))
        frames.clear()  # the same list: a room's relay holds its append
        self.size = 0


class Bundler:
    """Flushes gathered ink on one shared timer, so a busy server wakes once per
    interval rather than once per connection: bundles that gathered ink one
    frame at a time (``Bundle.add``), and groups that gathered it for many
    connections at once (a room's live ink, ``relay.relay_ink``)."""

    def __init__(self) -> None:
        self.waiting: set[Bundle] = set()
        self.groups: list[Callable[[], None]] = []
        self.timer: asyncio.TimerHandle | None = None

    def add(self, bundle: Bundle) -> None:
        self.waiting.add(bundle)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(BUNDLE_SECONDS, self.flush)

    def add_group(self, flush: Callable[[], None]) -> None:
        """Call ``flush`` at the end of this interval (it flushes its bundles)."""
        self.groups.append(flush)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(BUNDLE_SECONDS, self.flush)

    def flush(self) -> None:
        self.timer = None
        groups, self.groups = self.groups, []
        for flush_group in groups:
            flush_group()
        waiting, self.waiting = self.waiting, set()
        for bundle in waiting:
            bundle.flush()


bundler = PerLoop(Bundler)
"""The running event loop's Bundler."""
