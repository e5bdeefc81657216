"""The engine pool on its own (atelier.server.engine): who goes next, where a
search runs (never on the event loop's thread or process), and what happens
when a job's asker leaves, its worker dies, or the server stops."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.piet import coach
from atelier.games.piet.game import GAME
from atelier.server.engine.pool import Busy, Engine
from atelier.server.engine.queue import PLAY, STUDY, Bounds, FairQueue
from atelier.server.engine.workers import PLAY_NICE, STUDY_NICE, Worker
from support.server import wait_until

SAMPLE = (Path(__file__).resolve().parent.parent
          / "src/atelier/games/piet/sample_game.txt").read_text(encoding="utf-8")


def test_play_goes_first_and_owners_take_turns() -> None:
    queue: FairQueue[str] = FairQueue()
    for job in ("flood-1", "flood-2", "flood-3"):
        queue.push(STUDY, "10.0.0.1", job)
    queue.push(STUDY, "10.0.0.2", "other-review")
    queue.push(PLAY, "ROOM1", "computer-move")
    queue.push(PLAY, "ROOM1", "computer-move-2")
    queue.push(PLAY, "ROOM2", "hint")
    order = [queue.pop() for _ in range(7)]
    assert order == ["computer-move", "hint", "computer-move-2",
                     "flood-1", "other-review", "flood-2", "flood-3"]
    assert queue.pop() is None
    # a worker kept for play never takes a review
    queue.push(STUDY, "10.0.0.1", "review")
    assert queue.pop((PLAY,)) is None


def test_an_address_holds_its_share_and_no_more() -> None:
    queue: FairQueue[str] = FairQueue(Bounds(lane_jobs={PLAY: 8, STUDY: 3},
                                             per_address={PLAY: 2, STUDY: 2}))
    assert queue.admit(STUDY, "a") is None and queue.admit(STUDY, "a") is None
    refusal = queue.admit(STUDY, "a")
    assert refusal is not None and refusal.reason == "address"
    assert queue.admit(STUDY, "b") is None
    full = queue.admit(STUDY, "c")
    assert full is not None and full.reason == "full"
    # the study lane full does not touch play: hints are still admitted
    assert queue.admit(PLAY, "c") is None
    queue.leave(STUDY, "a")
    assert queue.admit(STUDY, "c") is None
    # computer players (no address) are never refused
    assert all(queue.admit(PLAY, None) is None for _ in range(20))


def hard_position() -> Any:
    state = GAME.new({**GAME.default_settings(), "opponent": "hard", "computer_seat": 0},
                     ["c0", "p1"], 7)
    return state


async def test_a_computer_move_is_searched_in_another_process_while_the_loop_runs() -> None:
    engine = Engine(workers=2)
    ticks = 0
    searching = True

    async def ticker() -> None:
        nonlocal ticks
        while searching:
            ticks += 1
            await asyncio.sleep(0)

    beat = asyncio.create_task(ticker())
    try:
        state = hard_position()
        place = engine.admit(PLAY, None)
        action = await engine.run(place, "bot|T|0|0", "T", GAME.bot_action, (state, 0))
        searching = False
        await beat
        assert action is not None and action.type == "move"
        assert action == GAME.bot_action(state, 0)  # the same search, deterministic
        # where it ran: a worker process, not this one, and not this thread's
        assert engine.done_in and os.getpid() not in engine.done_in
        assert set(engine.done_in) <= {w.pid for w in engine.workers}
        assert threading.get_ident() == threading.main_thread().ident
        assert ticks > 10  # the loop went on while the search ran
    finally:
        engine.close()


async def test_a_job_nobody_waits_for_is_stopped_and_the_worker_replaced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped at once, and the worker replaced, with every process started and
    reaped off the event loop's thread: each is milliseconds of fork, exec or
    teardown, and on the loop's thread a review flood that hangs up stalled
    every room. (The real methods run; the wrappers only note the thread.)"""
    threads: dict[str, set[int]] = {"start": set(), "reap": set()}
    real_start, real_reap = Worker.start, Worker.reap

    def start(self: Worker) -> None:
        threads["start"].add(threading.get_ident())
        real_start(self)

    def reap(self: Worker, timeout: float = 1.0) -> None:
        threads["reap"].add(threading.get_ident())
        real_reap(self, timeout)

    monkeypatch.setattr(Worker, "start", start)
    monkeypatch.setattr(Worker, "reap", reap)
    engine = Engine(workers=2)
    try:
        place = engine.admit(STUDY, "10.0.0.9")
        review = asyncio.create_task(engine.run(place, "review|x", "10.0.0.9",
                                                coach.review_job, (SAMPLE,)))
        await wait_until(lambda: any(w.job is not None for w in engine.workers),
                         what="the review running")
        worker = next(w for w in engine.workers if w.job is not None)
        review.cancel()
        with pytest.raises(asyncio.CancelledError):
            await review
        # the search stopped with its process (reaped on the spawner thread)
        await wait_until(lambda: not worker.process.is_alive(), what="the worker gone")
        assert engine.replaced == 1 and engine.queue.held[STUDY] == 0
        # the replacement answers the next job
        again = engine.admit(STUDY, "10.0.0.9")
        listed = await engine.run(again, "puzzles", "10.0.0.9", coach.puzzles_job, ())
        assert listed["puzzles"]
        assert threads["start"] and threads["reap"]
        assert threading.get_ident() not in threads["start"] | threads["reap"]
    finally:
        engine.close()


async def test_a_worker_that_dies_answers_its_job_clearly_and_is_replaced() -> None:
    engine = Engine(workers=2)
    try:
        place = engine.admit(STUDY, "10.0.0.9")
        review = asyncio.create_task(engine.run(place, "review|y", "10.0.0.9",
                                                coach.review_job, (SAMPLE,)))
        await wait_until(lambda: any(w.job is not None for w in engine.workers),
                         what="the review running")
        dead = next(w for w in engine.workers if w.job is not None)
        assert dead.pid is not None
        os.kill(dead.pid, signal.SIGKILL)
        with pytest.raises(RuleError) as failed:
            await review
        assert failed.value.code == "engine_failed"
        assert "restarted" in failed.value.message("en")
        assert dead not in engine.workers and len(engine.workers) == 2
        again = engine.admit(PLAY, None)
        answer = await engine.run(again, "bot|T|0|0", "T", GAME.bot_action,
                                  (hard_position(), 0))
        assert answer is not None and answer.type == "move"
    finally:
        engine.close()


async def test_a_stop_answers_everything_at_once() -> None:
    engine = Engine(workers=2)
    waiting = []
    for n in range(6):
        address = f"10.0.0.{n}"
        place = engine.admit(STUDY, address)
        waiting.append(asyncio.create_task(engine.run(place, f"review|{n}", address,
                                                      coach.review_job, (SAMPLE + f"# {n}\n",))))
    await wait_until(lambda: any(w.job is not None for w in engine.workers),
                     what="a review running")
    processes = [w.process for w in engine.workers]
    engine.close()
    results = await asyncio.gather(*waiting, return_exceptions=True)
    assert all(isinstance(r, Busy) and r.code == "engine_stopping" for r in results), results
    assert not any(p.is_alive() for p in processes)
    with pytest.raises(Busy):
        engine.admit(PLAY, None)


async def test_searches_run_below_the_event_loops_priority_and_reviews_below_play() -> None:
    """A waking event loop must not wait behind a search for its core (a room's
    ping and ink): every worker is lowered, and the anonymous reviews further
    than the rooms' own computer moves and hints."""
    engine = Engine(workers=2)
    try:
        answers = await asyncio.gather(
            engine.run(engine.admit(PLAY, None), "bot|T|0|0", "T", GAME.bot_action,
                       (hard_position(), 0)),
            engine.run(engine.admit(STUDY, "10.0.0.9"), "puzzles", "10.0.0.9",
                       coach.puzzles_job, ()))
        assert answers[0] is not None and answers[1]["puzzles"]
        mine = os.getpriority(os.PRIO_PROCESS, 0)

        def niceness(play_only: bool) -> int:
            worker = next(w for w in engine.workers if w.play_only is play_only)
            assert worker.pid is not None
            return os.getpriority(os.PRIO_PROCESS, worker.pid)

        assert niceness(True) == min(19, mine + PLAY_NICE)
        assert niceness(False) == min(19, mine + STUDY_NICE)
        assert mine < niceness(True) <= niceness(False)
    finally:
        engine.close()
    # lowered as soon as the process exists, not once it has imported the engine
    # (a new interpreter's start is 150 ms of CPU, beside the rooms' loop)
    fresh = Worker(play_only=False)
    try:
        assert fresh.pid is not None
        assert os.getpriority(os.PRIO_PROCESS, fresh.pid) == min(19, mine + STUDY_NICE)
    finally:
        fresh.kill()

