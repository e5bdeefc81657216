"""One engine worker: a spawned process that runs jobs sent down its pipe, one
at a time, and answers each with its result (or its error, as text).

Spawned, not forked: the server process runs threads. Lowered in priority
(``nice``) so the event loop, which relays ink and answers pings, gets the CPU
first: a worker that only runs play (computer moves, hints) by one step only
(a game waits for it; lowered further it starves beside any other busy
process of the machine), one that also runs reviews by ten. Stopping a search is stopping its
process: a cancelled or overdue job's worker is killed and replaced.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

PLAY_NICE = 1
STUDY_NICE = 10

_spawn = multiprocessing.get_context("spawn")


def serve(conn: Connection, nice: int) -> None:
    """The worker's loop (in the child): a job in, its answer out, until the
    pipe closes. Answers carry the process id the job ran in. ``nice`` is the
    niceness to run at (absolute: the server set it already as the process
    started, this makes sure)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's ^C is the server's to handle
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    pid = os.getpid()
    while True:
        try:
            job_id, run, args = conn.recv()
        except EOFError:
            return  # the server closed the pipe: stop
        except OSError as error:
            print(f"atelier engine worker {pid}: its pipe failed: {error!r}", file=sys.stderr)
            return
        try:
            answer: tuple[Any, ...] = (job_id, True, run(*args), pid)
        except Exception as error:  # the job's fault: reported, the worker lives on
            answer = (job_id, False, f"{type(error).__name__}: {error}", pid)
        conn.send(answer)


class Worker:
    """The server's side of one worker process. Made with ``start=False`` it
    is started later by :meth:`start`, which may run on another thread (the
    pool's spawner: starting a process is milliseconds of fork and exec that the
    event loop must not wait for)."""

    def __init__(self, play_only: bool, start: bool = True) -> None:
        self.play_only = play_only
        self.conn, self._child = _spawn.Pipe()
        self.nice = min(19, os.getpriority(os.PRIO_PROCESS, 0)
                        + (PLAY_NICE if play_only else STUDY_NICE))
        self.process = _spawn.Process(target=serve, args=(self._child, self.nice),
                                      daemon=True, name="atelier-engine")
        self.job: Any = None
        """The job it runs now (the pool's), or None."""
        self.ready = False
        """Started, and listened to by the pool: only a ready worker is sent jobs."""
        if start:
            self.start()

    def start(self) -> None:
        self.process.start()
        # lowered at once, not once it has imported the engine: a new interpreter's
        # start is 150 to 170 ms of CPU (measured), and a flood that hangs up
        # has a worker replaced every few seconds, beside the rooms' event loop
        with contextlib.suppress(OSError):
            if self.process.pid is not None:
                os.setpriority(os.PRIO_PROCESS, self.process.pid, self.nice)
        self._child.close()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def send(self, job_id: int, run: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.conn.send((job_id, run, args))

    def receive(self) -> tuple[int, bool, Any, int]:
        """The answer waiting in the pipe; EOFError/OSError: the process is gone."""
        job_id, ok, value, pid = self.conn.recv()
        return int(job_id), bool(ok), value, int(pid)

    def stop(self) -> None:
        """Stop it now, whatever it runs (a search has no other way to stop), and
        close its pipe; without waiting for the process to go (:meth:`reap`)."""
        if self.process.is_alive() and self.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
        self.conn.close()

    def reap(self, timeout: float = 1.0) -> None:
        """Wait for the stopped or dead process to go, and collect its exit code
        (SIGKILL takes a few milliseconds to tear a process down)."""
        if self.process.pid is not None:
            self.process.join(timeout)

    def kill(self) -> None:
        """Stop it and wait until it is gone."""
        self.stop()
        self.reap()
