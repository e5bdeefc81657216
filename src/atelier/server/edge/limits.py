"""Per-connection rate limits: token buckets, and a strike count for abuse."""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol, cast

MESSAGES_PER_SECOND = 20.0
MESSAGES_BURST = 40.0
INK_FRAMES_PER_SECOND = 60.0
INK_FRAMES_BURST = 120.0
INK_BYTES_PER_SECOND = 64 * 1024.0
INK_BYTES_BURST = 128 * 1024.0
STRIKES_TO_CLOSE = 50
STRIKE_WINDOW = 60.0


@dataclass
class TokenBucket:
    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def left(self, now: float | None = None) -> float:
        """The tokens there are now."""
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self, amount: float = 1.0, now: float | None = None) -> bool:
        if self.left(now) >= amount:
            self.tokens -= amount
            return True
        return False


@dataclass
class Strikes:
    """Refusals within a sliding window; too many means the client is abusive."""

    limit: int = STRIKES_TO_CLOSE
    window: float = STRIKE_WINDOW
    times: deque[float] = field(default_factory=deque)

    def add(self, now: float | None = None) -> bool:
        """Record one refusal; True when the connection should be closed."""
        now = time.monotonic() if now is None else now
        self.times.append(now)
        while self.times and self.times[0] < now - self.window:
            self.times.popleft()
        return len(self.times) >= self.limit


class Allowance(Protocol):
    """Two token buckets in one, for batches and for bytes, spent together once
    per batch (the server's busiest path); a refusal spends nothing. Ink beyond
    it waits for it to refill rather than being refused (session.py): a server
    that reads a socket late sees honest batches in a bunch, and a refused batch
    would break the stroke it belongs to."""

    batches: float
    bytes: float
    stamp: float

    def take(self, size: int, now: float) -> bool:
        """Refill to ``now``, then spend one batch of ``size`` bytes, or nothing."""
        ...

    def take_now(self, size: int) -> bool:
        """``take`` at ``time.monotonic()``."""
        ...

    def holds(self, size: int) -> bool:
        """Whether a batch of ``size`` bytes can ever be taken (not above the burst)."""
        ...

    def wait(self, size: int, now: float) -> float:
        """Seconds until ``take(size)`` would succeed, for a size it ``holds``."""
        ...


class InkAllowancePy:
    """The ink allowance in Python (``Allowance``): used where the compiled one
    (src/atelier/server/edge/_allowance.c, the same arithmetic) was not built."""

    __slots__ = ("batches", "bytes", "stamp")

    def __init__(self) -> None:
        self.batches, self.bytes = INK_FRAMES_BURST, INK_BYTES_BURST
        self.stamp = -math.inf  # full, whenever the first batch comes

    def _refill(self, now: float) -> None:
        """What has flowed back in since the last look, up to the bursts."""
        gone = now - self.stamp
        self.stamp = now
        self.batches = min(INK_FRAMES_BURST, self.batches + gone * INK_FRAMES_PER_SECOND)
        self.bytes = min(INK_BYTES_BURST, self.bytes + gone * INK_BYTES_PER_SECOND)

    def take(self, size: int, now: float) -> bool:
        # _refill written out, with comparisons for min(): this runs once per
        # batch, and the call and the two min() were most of its cost (about
        # 650 ns a batch against 250 ns; docs/performance.md)
        gone = now - self.stamp
        self.stamp = now
        batches = self.batches + gone * INK_FRAMES_PER_SECOND
        if batches > INK_FRAMES_BURST:
            batches = INK_FRAMES_BURST
        room = self.bytes + gone * INK_BYTES_PER_SECOND
        if room > INK_BYTES_BURST:
            room = INK_BYTES_BURST
        if batches >= 1 and room >= size:
            self.batches, self.bytes = batches - 1, room - size
            return True
        self.batches, self.bytes = batches, room
        return False

    def take_now(self, size: int) -> bool:
        return self.take(size, time.monotonic())

    def holds(self, size: int) -> bool:
        return size <= INK_BYTES_BURST

    def wait(self, size: int, now: float) -> float:
        self._refill(now)
        return max(0.0, (1 - self.batches) / INK_FRAMES_PER_SECOND,
                   (size - self.bytes) / INK_BYTES_PER_SECOND)


COMPILED: type | None
"""The compiled allowance's class, None where it was not built."""
try:  # its numbers in the object, the clock read in C
    from atelier.server.edge._allowance import Allowance as COMPILED
except ImportError:  # installed without a C compiler
    COMPILED = None


def InkAllowance() -> Allowance:  # named as the class it was
    """A full ink allowance at this module's rates and bursts (as they are now)."""
    if COMPILED is None:
        return InkAllowancePy()
    return cast(Allowance, COMPILED(INK_FRAMES_PER_SECOND, INK_FRAMES_BURST,
                                    INK_BYTES_PER_SECOND, INK_BYTES_BURST))


@dataclass
class Limits:
    messages: TokenBucket = field(
        default_factory=lambda: TokenBucket(MESSAGES_PER_SECOND, MESSAGES_BURST)
    )
    ink: Allowance = field(default_factory=InkAllowance)
    strikes: Strikes = field(default_factory=Strikes)
