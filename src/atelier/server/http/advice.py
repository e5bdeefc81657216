"""The engine's advice off the event loop: a pool of worker processes (a strong
search holds the GIL, so a thread would still stall every room), a bound on the
work waiting for it, and the answers kept by their key, in memory and in the
store, so a review asked twice (by both players, after a restart, or in
another server process) is computed once.

The pool starts on first use; a server that is never asked for advice never
starts one.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from atelier.errors import RuleError
from atelier.games.core import Advice
from atelier.metrics import ENGINE_JOBS, ENGINE_QUEUED, ENGINE_RUNNING, ENGINE_SECONDS

KEPT = 512
"""Answers kept in memory, the least recently asked dropped first."""
MAX_WAITING = 8
"""Jobs queued or running at once; more are refused (``advice_busy``)."""


class Keeper(Protocol):
    """Where answers outlive the process (the store)."""

    async def load_advice(self, key: str) -> Any | None: ...

    async def save_advice(self, key: str, data: Any) -> None: ...


class Advisor:
    def __init__(self, keeper: Keeper | None = None, processes: int = 1, kept: int = KEPT,
                 max_waiting: int = MAX_WAITING) -> None:
        self.keeper = keeper
        self.processes = processes
        self.kept = kept
        self.max_waiting = max_waiting
        self._pool: ProcessPoolExecutor | None = None
        self._answers: OrderedDict[str, Any] = OrderedDict()
        self._running: dict[str, asyncio.Future[Any]] = {}
        self._saving: set[asyncio.Future[None]] = set()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: the server process runs threads
            self._pool = ProcessPoolExecutor(self.processes,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def cached(self, key: str) -> Any | None:
        if key in self._answers:
            self._answers.move_to_end(key)
            return self._answers[key]
        return None

    async def run(self, advice: Advice) -> Any:
        """The answer to ``advice``: kept, being computed, or computed now."""
        known = self.cached(advice.key)
        if known is not None:
            return known
        running = self._running.get(advice.key)
        if running is None and self.keeper is not None:
            stored = await self.keeper.load_advice(_digest(advice.key))
            if stored is not None:
                self._keep(advice.key, stored)
                return stored
            running = self._running.get(advice.key)  # asked meanwhile
        if running is None:
            if len(self._running) >= self.max_waiting:
                ENGINE_JOBS.labels("refused").inc()
                raise RuleError("advice_busy")
            loop = asyncio.get_running_loop()
            running = asyncio.ensure_future(
                loop.run_in_executor(self._executor(), advice.run, *advice.args))
            self._running[advice.key] = running
            self._count()
            began = time.monotonic()
            running.add_done_callback(lambda done: self._settle(advice.key, done, began))
        return await asyncio.shield(running)

    def _count(self) -> None:
        """The metrics of the jobs in hand: the pool runs ``processes`` at once,
        the rest wait in its queue."""
        running = min(len(self._running), self.processes)
        ENGINE_RUNNING.set(running)
        ENGINE_QUEUED.set(len(self._running) - running)

    def _settle(self, key: str, done: asyncio.Future[Any], began: float) -> None:
        self._running.pop(key, None)
        self._count()
        ENGINE_SECONDS.observe(time.monotonic() - began)
        if done.cancelled() or done.exception() is not None:
            ENGINE_JOBS.labels("failed").inc()
            return
        ENGINE_JOBS.labels("done").inc()
        self._keep(key, done.result())
        if self.keeper is not None:
            saving = asyncio.ensure_future(self.keeper.save_advice(_digest(key), done.result()))
            self._saving.add(saving)
            saving.add_done_callback(self._saving.discard)

    def _keep(self, key: str, answer: Any) -> None:
        self._answers[key] = answer
        while len(self._answers) > self.kept:
            self._answers.popitem(last=False)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
