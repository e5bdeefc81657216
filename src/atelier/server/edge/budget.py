"""What unfinished requests may take, summed over the whole server, and how long
one request body may take to arrive.

A connection is *unfinished* from its accept until its request has arrived whole
(head and body), and again while a kept-alive connection waits for its next
request. Each one holds a file descriptor and some memory whoever sends it, so
the per-address caps are not enough: an attacker with many addresses (IPv6 gives
one as many as it likes) could hold them all. :class:`PendingBudget` counts every
unfinished connection and the bytes it has sent so far. When it is full, a
newcomer from an address that already holds its share (the average per address,
or ``SHARE_FLOOR`` if fewer) is closed at once, before a byte is read, and one
from any other address gets the place of the slowest of the oldest. So an attacker's new
connections cost the server an accept and a close, while a new visitor's
request still comes in and is answered. A connection whose
request is complete is not in the budget (its answer is on the way), and neither
is a room socket, so open games are never touched.

Memory is charged by what has arrived (a fixed cost per connection, plus its head
and body bytes so far), never by the length a head announces.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import Protocol

PENDING_MEMORY_MIB = 32
"""Memory unfinished requests may take, all together (``--pending-memory``)."""
PER_CONNECTION_BYTES = 12 * 1024
"""What an unfinished connection costs the server before any body byte: its
transport, uvicorn's protocol and parser, the head's fields (measured with
``python -m atelier.bench.stall``: docs/performance.md)."""
SHARE_OF_FILES = 0.5
"""The share of the open-file limit unfinished requests may hold: the rest is
for open games, requests being answered and the databases."""
SHED_AMONG = 8
SHARE_FLOOR = 8
"""An address holding this many unfinished requests holds its share, whatever the
average (a browser opens at most 6 connections to a server)."""
"""When something must go, the slowest of this many oldest unfinished requests."""

BODY_SECONDS = 10.0
"""A request body may pause this long between two reads (``--body-timeout``), and
its first byte must come within this long of the head's end."""
BODY_MIN_RATE = 1024
"""Bytes a second a body must average once its first ``BODY_SECONDS`` are over
(``--body-min-rate``): 96 KiB, the largest body a route takes, in under two minutes."""


class Sheddable(Protocol):
    def shed(self) -> None:
        """Close the connection to make room (it has already left the budget)."""


def pending_limit(open_files: int, memory: int, per_connection: int = PER_CONNECTION_BYTES
                  ) -> int:
    """How many unfinished connections there may be: a share of the file limit,
    and no more than the allowed memory holds at the fixed cost each."""
    return max(1, min(int(open_files * SHARE_OF_FILES), memory // per_connection))


class Pending:
    """One unfinished connection's place in the budget."""

    __slots__ = ("address", "budget", "bytes", "holder", "since")

    def __init__(self, budget: PendingBudget | None, holder: Sheddable, address: str,
                 since: float) -> None:
        self.budget = budget
        self.holder = holder
        self.address = address
        self.since = since
        self.bytes = 0

    def grow(self, size: int) -> None:
        """``size`` more bytes of this request have arrived."""
        self.bytes += size
        if self.budget is not None:
            self.budget.grown(self, size)

    def leave(self) -> None:
        """The request is complete, or the connection gone (once is enough)."""
        budget, self.budget = self.budget, None
        if budget is not None:
            budget.remove(self)


class PendingBudget:
    """Every unfinished connection of this process, oldest first, with the count
    and bytes they hold; over either limit, the slowest of the oldest are shed."""

    def __init__(self, max_count: int, max_bytes: int,
                 per_connection: int = PER_CONNECTION_BYTES,
                 on_shed: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_count = max(1, max_count)
        self.max_bytes = max(per_connection, max_bytes)
        self.per_connection = per_connection
        self.on_shed = on_shed
        self.clock = clock
        self.entries: OrderedDict[Pending, None] = OrderedDict()
        self.per_address: dict[str, int] = {}
        self.bytes = 0
        self.shed_count = 0
        self.refused_count = 0

    def __len__(self) -> int:
        return len(self.entries)

    def full(self) -> bool:
        return (len(self.entries) >= self.max_count
                or self.bytes + self.per_connection > self.max_bytes)

    def enter(self, holder: Sheddable, address: str) -> Pending | None:
        """A new unfinished connection; None (close it) if the budget is full and
        its address holds at least its share, else others are shed if need be."""
        if self.full():
            held = self.per_address.get(address, 0)
            if held and (held >= SHARE_FLOOR
                         or held * len(self.per_address) >= len(self.entries)):
                self.refused_count += 1
                return None
            self._make_room(self.per_connection, extra=1)
        entry = Pending(self, holder, address, self.clock())
        self.entries[entry] = None
        self.per_address[address] = self.per_address.get(address, 0) + 1
        self.bytes += self.per_connection
        return entry

    def grown(self, entry: Pending, size: int) -> None:
        self.bytes += size
        if self.bytes > self.max_bytes:
            self._make_room(0, extra=0)

    def remove(self, entry: Pending) -> None:
        if self.entries.pop(entry, 0) is None:
            self.bytes -= self.per_connection + entry.bytes
            left = self.per_address[entry.address] - 1
            if left:
                self.per_address[entry.address] = left
            else:
                del self.per_address[entry.address]

    def _make_room(self, size: int, extra: int) -> None:
        while self.entries and (len(self.entries) + extra > self.max_count
                                or self.bytes + size > self.max_bytes):
            victim = self.slowest_of_oldest()
            victim.leave()
            self.shed_count += 1
            if self.on_shed is not None:
                self.on_shed(victim.address)
            victim.holder.shed()

    def slowest_of_oldest(self) -> Pending:
        """Of the ``SHED_AMONG`` oldest, the one that has sent the fewest bytes a
        second (a silent one before a slow one; the oldest among equals)."""
        now = self.clock()
        oldest = islice(self.entries, SHED_AMONG)
        return min(oldest, key=lambda e: e.bytes / max(now - e.since, 1e-3))


@dataclass(frozen=True)
class BodyRules:
    """How a request body must keep arriving (as nginx's ``client_body_timeout``,
    with a minimum rate besides, as Apache's ``RequestReadTimeout ... MinRate``)."""

    seconds: float = BODY_SECONDS
    min_rate: float = BODY_MIN_RATE

    def due(self, started: float, last: float, received: int) -> float:
        """When the body is late: ``seconds`` after its last byte (or the head's
        end), or once it averages under ``min_rate`` after its first ``seconds``."""
        due = last + self.seconds
        if self.min_rate > 0:
            due = min(due, started + self.seconds + received / self.min_rate)
        return due
