"""The ink benchmark's own arithmetic: frames never delivered are counted as lost,
and each performance goal is said met or not from the figures."""

from __future__ import annotations

import asyncio
from array import array

from atelier.bench.cli import Run, goal_lines
from atelier.bench.load import Counts, Job, LoadProcess, Player
from atelier.server.wire.wsframe import BINARY


def bundle(*frames: bytes) -> bytes:
    return b"".join(len(f).to_bytes(2, "big") + f for f in frames)


def test_frames_a_player_never_received_count_as_lost() -> None:
    async def play() -> Counts:
        job = Job("ws://127.0.0.1:1", [(0, "ROOM")], 3, 0.05, [[b"\x01ab"]], [[1]], True)
        proc = LoadProcess(job)
        players = [Player(proc, 0, hint, 0) for hint in range(3)]
        proc.players = players
        for seat, p in enumerate(players):
            p.seat = seat
        players[0].sent_count, players[1].sent_count, players[2].sent_count = 2, 1, 0
        # seat 1 gets both of seat 0's batches in one bundle; seat 2 gets only one,
        # and seat 1's single batch reaches seat 0 but never seat 2
        players[1].on_message(BINARY, bundle(b"\x00x", b"\x00y"), 10)
        players[2].on_message(BINARY, bundle(b"\x00x"), 10)
        players[0].on_message(BINARY, bundle(b"\x01z"), 10)
        await proc.drain(limit=0)
        return proc.counts

    counts = asyncio.run(play())
    assert counts.frames_expected == 2 * 2 + 1 * 2
    assert counts.frames_missing == 2  # seat 0's second to seat 2, seat 1's to seat 2


def run(name: str, p99_ms: float, cpu: float, frames: int = 1000, lost: int = 0,
        missing: int = 0) -> Run:
    counts = Counts(latencies=array("I", [int(p99_ms * 1000)] * 10), frames_received=frames,
                    lost=lost, frames_missing=missing, players=6, seated_at_start=6)
    return Run(name, counts, 20.0, cpu, 0.0, 0.0, True, 2)


def test_goals_are_met_only_within_their_bounds() -> None:
    floor = run("floor", 70, 0.0100)
    goals = goal_lines([(100, [(floor, run("atelier", 84, 0.0115))]),
                        (200, [(floor, run("atelier", 80, 0.0110))])],
                       run("atelier", 95, 0.0110))
    assert [met for _, met in goals] == [True] * 7
    goals = goal_lines([(100, [(floor, run("atelier", 100, 0.0116))]),
                        (200, [(floor, run("atelier", 85, 0.0110))])],
                       run("atelier", 120, 0.0110, missing=3))
    assert [met for _, met in goals] == [False, False, False, True, False, False, False]
    assert "1.16x" in goals[0][0] and "1.43x" in goals[1][0] and "3 frames lost" in goals[6][0]


def test_several_pairs_are_judged_by_the_median_pair() -> None:
    """One lucky or unlucky minute neither meets a goal nor misses it: the middle
    pair's ratio counts, and the range is said."""
    pairs = [(run("floor", 70, 0.0100), run("atelier", 70, 0.0130)),  # 1.30x
             (run("floor", 70, 0.0080), run("atelier", 70, 0.0090)),  # 1.125x
             (run("floor", 70, 0.0100), run("atelier", 70, 0.0110))]  # 1.10x
    goals = goal_lines([(100, pairs)], run("atelier", 95, 0.0110))
    cpu_text, cpu_met = goals[0]
    assert cpu_met and "1.12x" in cpu_text and "1.10 to 1.30x over 3 pairs" in cpu_text
    worse = [*pairs[:1], (pairs[1][0], run("atelier", 70, 0.0120))]  # 1.30x, 1.50x
    assert not goal_lines([(100, worse)], run("atelier", 95, 0.0110))[0][1]
    # the p99 under 100 ms in one process holds for every run, not the median
    slow = [(pairs[0][0], run("atelier", 120, 0.0110)), *pairs[1:]]
    assert not goal_lines([(100, slow)], run("atelier", 95, 0.0110))[2][1]
