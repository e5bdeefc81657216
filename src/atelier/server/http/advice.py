"""The engine's advice over HTTP: answers kept by their key, in memory and in
the store, so a review asked twice (by both players, after a restart, or in
another server process) is computed once; the work itself goes to the engine
pool (``atelier.server.engine``), which admits, orders and runs it.

Kept answers expire after :data:`ADVICE_SECONDS`: the store's rows are
dropped once an hour past that age, so the table cannot grow without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections import OrderedDict
from collections.abc import Awaitable
from typing import Any, Protocol

from starlette.requests import Request

from atelier.games.core import Advice
from atelier.jsonvalue import JSON
from atelier.server.engine.pool import Engine, Place

KEPT = 512
"""Answers kept in memory, the least recently asked dropped first."""
ADVICE_SECONDS = 7 * 24 * 3600.0
"""How long a kept answer is given again (engine changes reach old records too)."""
PURGE_EVERY = 3600.0


class Keeper(Protocol):
    """Where answers outlive the process (the store)."""

    async def load_advice(self, key: str, newer_than: float = 0.0) -> JSON | None: ...

    async def save_advice(self, key: str, data: JSON) -> None: ...

    async def drop_advice(self, older_than: float) -> None: ...


class Advisor:
    def __init__(self, engine: Engine, keeper: Keeper | None = None, kept: int = KEPT,
                 seconds: float = ADVICE_SECONDS) -> None:
        self.engine = engine
        self.keeper = keeper
        self.kept = kept
        self.seconds = seconds
        self._answers: OrderedDict[str, tuple[float, JSON]] = OrderedDict()
        self._saving: set[asyncio.Future[None]] = set()
        self._purged = 0.0

    def cached(self, key: str) -> JSON | None:
        found = self._answers.get(key)
        if found is None:
            return None
        if found[0] <= time.time() - self.seconds:
            del self._answers[key]
            return None
        self._answers.move_to_end(key)
        return found[1]

    async def answer(self, place: Place, advice: Advice, owner: str) -> JSON:
        """The answer to ``advice``: kept, or computed in the pool with ``place``
        (given back whichever way this ends)."""
        try:
            known = self.cached(advice.key)
            if known is None and self.keeper is not None:
                known = await self.keeper.load_advice(_digest(advice.key),
                                                      time.time() - self.seconds)
                if known is not None:
                    self._keep(advice.key, known)
            if known is not None:
                return known
            # Advice.run is a module-level function returning JSON (games/core.py)
            result: JSON = await self.engine.run(place, advice.key, owner, advice.run,
                                                 advice.args)
        finally:
            place.give_back()  # (the pool gave it back already if it ran the job)
        if self.cached(advice.key) is None:
            self._keep(advice.key, result)
            self._save(advice.key, result)
        return result

    def _save(self, key: str, answer: JSON) -> None:
        if self.keeper is None:
            return
        saving = asyncio.ensure_future(self._store(key, answer))
        self._saving.add(saving)
        saving.add_done_callback(self._saving.discard)

    async def _store(self, key: str, answer: JSON) -> None:
        assert self.keeper is not None
        await self.keeper.save_advice(_digest(key), answer)
        now = time.time()
        if now - self._purged > PURGE_EVERY:
            self._purged = now
            await self.keeper.drop_advice(now - self.seconds)

    def _keep(self, key: str, answer: JSON) -> None:
        self._answers[key] = (time.time(), answer)
        self._answers.move_to_end(key)
        while len(self._answers) > self.kept:
            self._answers.popitem(last=False)


async def unless_gone(request: Request, work: Awaitable[Any]) -> tuple[bool, Any]:
    """``(True, result)`` of ``work``, or ``(False, None)`` once the client has
    hung up first: then ``work`` is cancelled (and with it the engine's job, if
    nobody else waits for it)."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_hang_up(request))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():
            task.cancel()
        gone.cancel()
    if task.cancelled() or not task.done():
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return False, None
    return True, task.result()


async def _hang_up(request: Request) -> None:
    """Returns when the client has gone (the body was read before: what is
    left to receive is the disconnect)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
