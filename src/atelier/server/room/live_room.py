"""One room as this process holds it: the model, its connections, its ink.

A ``LiveRoom`` is data with a few small helpers; the parts that act on rooms
(``rooms.Rooms`` for changes, ``fanout`` for what goes out, the ``ink`` package
for live ink, ``deadlines`` and ``computers`` for what happens by itself) each
do one job with it.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field

from atelier.ink.batches import BatchLog
from atelier.ink.guard import InkGuard
from atelier.ink.presence import InkPresence
from atelier.server.ink.caches import InkCaches
from atelier.server.room.connection import Connection
from atelier.server.room.model import RoomModel

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str:
    return code.strip().upper()


def valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code)


CREATOR = "~creator"
"""In a room's online set: the creator's browser, in the room but not seated yet
(no player id looks like it)."""

HOLD_RENEW = 20.0
"""Seconds between a process's reminders that it holds its loaded rooms."""
HOLD_STALE = 3 * HOLD_RENEW


@dataclass(eq=False)
class LiveRoom:
    model: RoomModel
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    ink: dict[str, dict[int, BatchLog]] = field(default_factory=dict)
    ink_bytes: int = 0  # of every drawing in ``ink``
    guards: dict[tuple[str, int], InkGuard] = field(default_factory=dict)
    presence: dict[tuple[str, int], InkPresence] = field(default_factory=dict)
    local_online: dict[str, int] = field(default_factory=dict)
    remote_online: dict[bytes, set[str]] = field(default_factory=dict)
    holders: dict[bytes, float] = field(default_factory=dict)
    """Other processes that have this room loaded (hub origin -> when last heard
    from, monotonic): its live ink is published only while there are any."""
    timer: asyncio.TimerHandle | None = None
    bots: asyncio.Task[None] | None = None
    bots_again: bool = False
    active_at: float = field(default_factory=time.monotonic)  # last connection or change
    creator_left_at: float | None = None  # monotonic: the unseated creator's last connection closed
    host_timer: asyncio.TimerHandle | None = None  # then gives the host role away (Rooms)
    cache: InkCaches = field(init=False)
    """What the ink path works out once and keeps (``atelier.server.ink``)."""

    def __post_init__(self) -> None:
        self.cache = InkCaches.of(self.model.game)

    @property
    def code(self) -> str:
        return self.model.code

    def creator_waits(self, grace: float, now: float | None = None) -> bool:
        """Whether the host role waits for the room's creator: connected and not
        seated yet, or gone less than ``grace`` seconds ago (a phone switched to
        another app to share the link closes its connection)."""
        if self.model.host_key_hash is None:
            return False
        if CREATOR in self.online():
            return True
        left = self.creator_left_at
        now = time.monotonic() if now is None else now
        return left is not None and now - left < grace

    def online(self) -> set[str]:
        ids = {pid for pid, n in self.local_online.items() if n > 0}
        for remote in self.remote_online.values():
            ids |= remote
        return ids

    def held_elsewhere(self, now: float) -> bool:
        """Whether another process has this room loaded, as far as its notices
        say; one not heard from for HOLD_STALE seconds has gone (it crashed, or
        its release was lost)."""
        if self.holders:
            for origin, heard in list(self.holders.items()):
                if now - heard > HOLD_STALE:
                    del self.holders[origin]
        return bool(self.holders)

    def busy(self) -> bool:
        """A commit or a computer's move is under way."""
        return self.lock.locked() or (self.bots is not None and not self.bots.done())

    def canvas(self, key: str, seat: int) -> tuple[InkGuard, InkPresence]:
        """The guard and presence of one drawing, made when first asked for."""
        guard = self.guards.get((key, seat))
        if guard is None:
            guard = self.guards[(key, seat)] = InkGuard()
        presence = self.presence.get((key, seat))
        if presence is None:
            presence = self.presence[(key, seat)] = InkPresence()
        return guard, presence

    def batch_log(self, key: str, seat: int) -> BatchLog:
        """The batches of one drawing, made when its first one is kept."""
        by_seat = self.ink.setdefault(key, {})
        batches = by_seat.get(seat)
        if batches is None:
            batches = by_seat[seat] = BatchLog()
        return batches

    def add_ink(self, key: str, seat: int, data: bytes) -> int:
        self.ink_bytes += len(data)
        return self.batch_log(key, seat).append(data)

    def strokes(self, key: str, seat: int) -> int:
        guard = self.guards.get((key, seat))
        return 0 if guard is None else guard.strokes

    def unseat_removed(self) -> list[Connection]:
        """Connections whose player is no longer in the game (they left or were
        taken out) go on as spectators; returns them."""
        gone = [c for c in self.conns
                if c.player_id is not None and self.model.player(c.player_id) is None]
        for conn in gone:
            conn.player_id = None
        return gone
