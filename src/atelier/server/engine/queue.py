"""Who gets the engine next: a bounded queue shared fairly (pure; no I/O).

Two lanes. ``PLAY`` is what a room's game waits for (a computer player's move,
a seated player's hint) and always goes first; ``STUDY`` is everything that can
wait a moment (reviews, puzzle checks, a record posted by anyone). Inside a
lane, owners (a room, an address) take turns, one job each, so a room with
many jobs or an address that floods waits for its own and nobody else's.

Admission counts what an owner and an address hold (queued or running) and
refuses past their share, and past the lane's bound, before any work is done
on the request.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Generic, TypeVar

PLAY = "play"
STUDY = "study"
LANES = (PLAY, STUDY)

T = TypeVar("T")


@dataclass(frozen=True)
class Bounds:
    lane_jobs: dict[str, int] = field(default_factory=lambda: {PLAY: 256, STUDY: 24})
    """Jobs one lane may hold, queued or running."""
    per_address: dict[str, int] = field(default_factory=lambda: {PLAY: 4, STUDY: 2})
    """Jobs one address may hold in a lane (its share): a household's players
    behind one address ask hints in their own rooms; a review is seconds of CPU."""


@dataclass
class Refusal:
    """Why a job was not admitted: ``address`` (that address holds its share:
    429) or ``full`` (the lane is full for everyone: 503)."""

    reason: str
    lane: str


@dataclass
class FairQueue(Generic[T]):
    bounds: Bounds = field(default_factory=Bounds)
    _waiting: dict[str, OrderedDict[str, deque[T]]] = field(
        default_factory=lambda: {lane: OrderedDict() for lane in LANES})
    held: dict[str, int] = field(default_factory=lambda: {lane: 0 for lane in LANES})
    by_address: dict[tuple[str, str], int] = field(default_factory=dict)

    def admit(self, lane: str, address: str | None) -> Refusal | None:
        """Take a place in ``lane`` for ``address`` (None: the server's own work,
        a computer player), or say why not. Give it back with :meth:`leave`."""
        share = self.bounds.per_address[lane]
        if address is not None and self.by_address.get((lane, address), 0) >= share:
            return Refusal("address", lane)
        if address is not None and self.held[lane] >= self.bounds.lane_jobs[lane]:
            return Refusal("full", lane)
        self.held[lane] += 1
        if address is not None:
            self.by_address[(lane, address)] = self.by_address.get((lane, address), 0) + 1
        return None

    def leave(self, lane: str, address: str | None) -> None:
        """A place given back: its job ended, was cancelled, or was never needed."""
        self.held[lane] -= 1
        if address is not None:
            left = self.by_address[(lane, address)] - 1
            if left:
                self.by_address[(lane, address)] = left
            else:
                del self.by_address[(lane, address)]

    def push(self, lane: str, owner: str, job: T) -> None:
        self._waiting[lane].setdefault(owner, deque()).append(job)

    def remove(self, lane: str, owner: str, job: T) -> bool:
        jobs = self._waiting[lane].get(owner)
        if jobs is None or job not in jobs:
            return False
        jobs.remove(job)
        if not jobs:
            del self._waiting[lane][owner]
        return True

    def pop(self, lanes: tuple[str, ...] = LANES) -> T | None:
        """The next job of the first lane (in ``lanes``) that has one: its owner
        who waited longest takes one, then goes to the back of the line."""
        for lane in lanes:
            owners = self._waiting[lane]
            if owners:
                owner, jobs = next(iter(owners.items()))
                job = jobs.popleft()
                del owners[owner]
                if jobs:
                    owners[owner] = jobs  # to the back: the others go first
                return job
        return None

    def waiting(self, lane: str) -> int:
        return sum(len(jobs) for jobs in self._waiting[lane].values())

    def drain(self) -> list[T]:
        """Every waiting job, taken out (a stop)."""
        out = [job for owners in self._waiting.values() for jobs in owners.values() for job in jobs]
        for owners in self._waiting.values():
            owners.clear()
        return out
