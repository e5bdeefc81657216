"""The engine pool: every search the server runs (computer players' moves,
hints, reviews, puzzle checks) goes through here, to worker processes sized to
the machine, never on the event loop.

- Admission first (:meth:`Engine.admit`), before a request's record is read or
  the store asked: past an address's share the answer is 429, past the lane's
  bound 503, each with a ``Retry-After``.
- Jobs asked twice (the same key) run once; each asker waits on its own
  future. When the last asker has gone (a client hung up, a room closed) the
  job is dropped from the queue, or its worker killed and replaced if it runs.
- A worker that dies answers its job with ``engine_failed`` and is replaced;
  a job past :data:`JOB_SECONDS` is stopped the same way.
- Starting and reaping processes happen on one spawner thread, never on the
  event loop: each is milliseconds of fork, exec or teardown, and a review
  flood that hangs up replaces a worker every second or two (with them on the
  loop, every room's ping p99 grew by several milliseconds).
- :meth:`Engine.close` answers everything queued or running with
  ``engine_stopping`` and kills the workers: a stop never waits for a search.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from atelier.errors import RuleError
from atelier.jsonvalue import JSON
from atelier.metrics import ENGINE_JOBS, ENGINE_QUEUED, ENGINE_RUNNING, ENGINE_SECONDS
from atelier.server.engine.queue import PLAY, STUDY, Bounds, FairQueue
from atelier.server.engine.workers import Worker

log = logging.getLogger(__name__)

JOB_SECONDS = 120.0
"""A job running longer than this is stopped (the longest review takes seconds)."""


def _named(job: Job) -> str:
    """A job in a log line: its kind and the start of its key, on one line."""
    return job.key.replace("\n", " ")[:48]


def default_workers() -> int:
    """Sized to the machine: one a core for play and half as many for reviews
    (idle processes cost only memory; busy ones share the cores by priority)."""
    cores = os.cpu_count() or 2
    return max(3, cores + cores // 2)


def study_workers(size: int) -> int:
    """How many of ``size`` processes may run reviews: a third, at least one;
    the others only play (computer moves, hints), so reviews never hold them all."""
    return max(1, size // 3)


class Busy(RuleError):
    """A refusal that says when to try again (``Retry-After``)."""

    def __init__(self, code: str, status: int, retry_after: int) -> None:
        super().__init__(code, seconds=retry_after)
        self.status = status
        self.retry_after = retry_after


@dataclass(eq=False)
class Place:
    """A place in a lane, taken at admission and given back exactly once."""

    engine: Engine
    lane: str
    address: str | None
    given_back: bool = False

    def give_back(self) -> None:
        if not self.given_back:
            self.given_back = True
            self.engine.queue.leave(self.lane, self.address)


@dataclass(eq=False)
class Job:
    id: int
    key: str
    lane: str
    owner: str
    run: Callable[..., Any]
    args: tuple[Any, ...]
    places: list[Place] = field(default_factory=list)
    waiters: set[asyncio.Future[Any]] = field(default_factory=set)
    worker: Worker | None = None
    overdue: asyncio.TimerHandle | None = None
    started: float = 0.0
    ran_in: int | None = None
    """The process id the job ran in (tests prove it is not the server's)."""


class Engine:
    def __init__(self, workers: int | None = None, bounds: Bounds | None = None,
                 job_seconds: float = JOB_SECONDS) -> None:
        self.size = workers or default_workers()
        self.queue: FairQueue[Job] = FairQueue(bounds or Bounds())
        self.job_seconds = job_seconds
        self.workers: list[Worker] = []
        self.jobs: dict[str, Job] = {}
        self.closed = False
        self.done_in: list[int] = []
        """Process ids of the last jobs run (a short list, for tests and /healthz)."""
        self.seconds: dict[str, float] = {PLAY: 0.4, STUDY: 3.0}
        """Recent running time of a job per lane (for Retry-After)."""
        self._spawner = ThreadPoolExecutor(1, thread_name_prefix="atelier-engine-spawner")
        """Starts and reaps the workers' processes, one at a time, off the loop."""
        self.replaced = 0
        """Workers killed and replaced (cancelled or overdue jobs, deaths)."""
        self.done = 0
        """Jobs answered by a worker."""
        self._ids = itertools.count(1)

    # -- admission ---------------------------------------------------------------

    def admit(self, lane: str, address: str | None) -> Place:
        """A place in ``lane`` for a request from ``address``, or :class:`Busy`."""
        if self.closed:
            raise Busy("engine_stopping", 503, 5)
        refusal = self.queue.admit(lane, address)
        if refusal is not None:
            ENGINE_JOBS.labels("refused").inc()
            if refusal.reason == "address":
                raise Busy("advice_too_many", 429, self._retry_after(lane, 1))
            raise Busy("advice_busy", 503, self._retry_after(lane, self.queue.held[lane]))
        return Place(self, lane, address)

    def _retry_after(self, lane: str, ahead: int) -> int:
        workers = self.size if lane == PLAY else study_workers(self.size)
        return max(1, min(60, round(self.seconds[lane] * ahead / workers)))

    # -- running -----------------------------------------------------------------

    async def run(self, place: Place, key: str, owner: str, run: Callable[..., Any],
                  args: tuple[Any, ...]) -> Any:
        """``run(*args)`` in a worker; the same ``key`` running already is joined.
        Cancelling the await gives up this asker's interest in the job."""
        if self.closed:
            place.give_back()
            raise Busy("engine_stopping", 503, 5)
        job = self.jobs.get(key)
        if job is None:
            job = Job(next(self._ids), key, place.lane, owner, run, args)
            self.jobs[key] = job
            self.queue.push(job.lane, owner, job)
        job.places.append(place)
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job.waiters.add(waiter)
        self._dispatch()
        try:
            return await waiter
        finally:
            job.waiters.discard(waiter)
            if not waiter.done() or waiter.cancelled():
                self._abandoned(job)

    def _abandoned(self, job: Job) -> None:
        """An asker left: when none is left, the job stops."""
        if job.waiters or self.jobs.get(job.key) is not job:
            return
        if job.worker is None:
            self.queue.remove(job.lane, job.owner, job)
            self._finish(job)
        else:
            log.info("engine job %s stopped: nobody waits for it", _named(job))
            self._replace(job.worker)
            self._finish(job)
        self._dispatch()

    def _finish(self, job: Job) -> None:
        if self.jobs.get(job.key) is job:
            del self.jobs[job.key]
        if job.overdue is not None:
            job.overdue.cancel()
        for place in job.places:
            place.give_back()
        job.places.clear()
        job.worker = None

    def _dispatch(self) -> None:
        if self.closed:
            return
        if not self.workers and (self.queue.waiting(PLAY) or self.queue.waiting(STUDY)):
            # started on first use: a server never asked to think starts no process
            play_only = self.size - study_workers(self.size) if self.size > 1 else 0
            self.workers = [self._new_worker(i < play_only) for i in range(self.size)]
        for worker in self.workers:
            if worker.job is not None or not worker.ready:
                continue
            job = self.queue.pop((PLAY,) if worker.play_only else (PLAY, STUDY))
            if job is None:
                continue
            self._start(worker, job)
        self._count()

    def _count(self) -> None:
        """The metrics of the work in hand (atelier.metrics)."""
        ENGINE_RUNNING.set(sum(worker.job is not None for worker in self.workers))
        ENGINE_QUEUED.set(self.queue.waiting(PLAY) + self.queue.waiting(STUDY))

    def _start(self, worker: Worker, job: Job) -> None:
        loop = asyncio.get_running_loop()
        worker.job = job
        job.worker = worker
        job.started = time.monotonic()
        job.overdue = loop.call_later(self.job_seconds, self._overdue, job)
        try:
            worker.send(job.id, job.run, job.args)
        except (OSError, ValueError) as error:  # a pipe to a dead process
            log.error("engine worker %s could not be sent a job: %r", worker.pid, error)
            self._failed(worker)

    def _new_worker(self, play_only: bool, reap: Worker | None = None) -> Worker:
        """A worker, started on the spawner thread (after ``reap``, a stopped one,
        is reaped there); it takes jobs once started (:meth:`_started`)."""
        worker = Worker(play_only, start=False)
        loop = asyncio.get_running_loop()

        def start() -> None:
            if reap is not None:
                reap.reap()
            if self.closed:
                return
            worker.start()
            if self.closed:  # closed while it started: close() could not stop it
                worker.kill()

        def started(done: Future[None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the server stopped
                loop.call_soon_threadsafe(self._started, worker, done)

        self._spawner.submit(start).add_done_callback(started)
        return worker

    def _started(self, worker: Worker, done: Future[None]) -> None:
        if done.cancelled() or self.closed or worker not in self.workers:
            return
        error = done.exception()
        if error is not None:
            log.error("engine worker could not be started: %r", error)
            self._replace(worker, delay=1.0)
            return
        worker.ready = True
        self._listen(worker)
        self._dispatch()

    def _listen(self, worker: Worker) -> None:
        asyncio.get_running_loop().add_reader(worker.conn.fileno(), self._answer, worker)

    def _unlisten(self, worker: Worker) -> None:
        """No more jobs for ``worker``, nor answers read from it."""
        if worker.ready:
            with contextlib.suppress(OSError, ValueError):
                asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        worker.ready = False

    def _answer(self, worker: Worker) -> None:
        """The worker's pipe is readable: an answer, or the end of the process."""
        try:
            if not worker.conn.poll():
                return
            job_id, ok, value, pid = worker.receive()
        except (EOFError, OSError):
            self._failed(worker)
            return
        job = worker.job
        worker.job = None
        if job is None or job.id != job_id:
            self._dispatch()
            return
        job.ran_in = pid
        self.done += 1
        self.done_in = [*self.done_in[-15:], pid]
        took = time.monotonic() - job.started
        ENGINE_SECONDS.observe(took)
        ENGINE_JOBS.labels("done" if ok else "failed").inc()
        self.seconds[job.lane] = 0.8 * self.seconds[job.lane] + 0.2 * took
        waiters = list(job.waiters)
        self._finish(job)
        for waiter in waiters:
            if waiter.done():
                continue
            if ok:
                waiter.set_result(value)
            else:
                log.error("engine job %s failed: %s", _named(job), value)
                waiter.set_exception(RuleError("engine_failed"))
        self._dispatch()

    def _failed(self, worker: Worker) -> None:
        """The worker died (killed, out of memory, a crash): its job is answered
        with a clear error and a new worker takes its place."""
        job = worker.job
        running = f" running {_named(job)}" if job is not None else ""

        def report() -> None:  # once reaped, its exit code says how it died
            worker.reap(0.5)
            log.error("engine worker %s died (exit code %s)%s", worker.pid,
                      worker.process.exitcode, running)

        with contextlib.suppress(RuntimeError):  # the spawner stopped: the server stops
            self._spawner.submit(report)
        self._replace(worker)
        if job is not None:
            self._fail_job(job, Busy("engine_failed", 503, 1))
        self._dispatch()

    def _overdue(self, job: Job) -> None:
        if job.worker is not None and job.worker.job is job:
            log.error("engine job %s stopped after %.0f s", _named(job), self.job_seconds)
            self._replace(job.worker)
            self._fail_job(job, Busy("engine_failed", 503, 1))
            self._dispatch()

    def _fail_job(self, job: Job, error: Exception) -> None:
        ENGINE_JOBS.labels("failed").inc()
        waiters = list(job.waiters)
        self._finish(job)
        for waiter in waiters:
            if not waiter.done():
                waiter.set_exception(error)

    def _replace(self, worker: Worker, delay: float = 0.0) -> None:
        """Stop ``worker`` at once (its search with it) and put a new one in its
        place; the old process is reaped and the new one started on the spawner."""
        self._unlisten(worker)
        worker.job = None
        worker.stop()
        if worker in self.workers and not self.closed:
            self.replaced += 1
            if delay:  # a start that failed: not again at once
                asyncio.get_running_loop().call_later(delay, self._put_back, worker)
            else:
                self._put_back(worker)

    def _put_back(self, worker: Worker) -> None:
        if worker in self.workers and not self.closed:
            self.workers[self.workers.index(worker)] = self._new_worker(
                worker.play_only, reap=worker)

    # -- stopping ----------------------------------------------------------------

    def close(self) -> None:
        """Answer everything waiting or running with ``engine_stopping``, and
        kill the workers: a stop never waits for a search."""
        if self.closed:
            return
        self.closed = True
        stopping = Busy("engine_stopping", 503, 5)
        for job in list(self.jobs.values()):
            self._fail_job(job, stopping)
        self.queue.drain()
        # what waits is dropped; a start under way finishes (milliseconds) and,
        # seeing the pool closed, kills its process: none outlives the stop
        self._spawner.shutdown(wait=True, cancel_futures=True)
        for worker in self.workers:
            self._unlisten(worker)
            worker.kill()
        self.workers = []

    def stats(self) -> dict[str, JSON]:
        return {"workers": len(self.workers),
                "pids": [w.pid for w in self.workers],
                "ran_in": sorted(set(self.done_in)),
                "running": sum(w.job is not None for w in self.workers),
                "queued": {lane: self.queue.waiting(lane) for lane in (PLAY, STUDY)},
                "done": self.done, "replaced": self.replaced}
