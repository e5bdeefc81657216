"""What the ink path needs of a loaded room and of its connections, as typed
protocols: ``live_room.LiveRoom`` and ``connection.Connection`` are them. So
this package sits below both and imports neither."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Protocol

from atelier.ink.batches import BatchLog
from atelier.ink.guard import InkGuard
from atelier.ink.presence import InkPresence
from atelier.server.ink.caches import InkCaches, Watcher
from atelier.server.room.model import RoomModel

__all__ = ["InkRoom", "Watcher"]


class InkRoom(Protocol):
    model: RoomModel
    cache: InkCaches
    ink_bytes: int  # of every drawing in ``ink``

    @property
    def code(self) -> str: ...

    @property
    def conns(self) -> Set[Watcher]: ...

    @property
    def ink(self) -> Mapping[str, Mapping[int, BatchLog]]:
        """drawing key -> seat -> its batches."""
        ...

    def canvas(self, key: str, seat: int) -> tuple[InkGuard, InkPresence]: ...

    def batch_log(self, key: str, seat: int) -> BatchLog: ...

    def add_ink(self, key: str, seat: int, data: bytes) -> int: ...

    def held_elsewhere(self, now: float) -> bool:
        """Whether another process has the room loaded (its ink must go there too)."""
        ...
