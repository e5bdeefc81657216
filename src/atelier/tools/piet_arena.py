"""``atelier piet arena``: two computer players, N games, alternating who starts.

Prints wins/draws/losses from A's side (overall, as first and as second
player), the mean score difference, and the median and 95th percentile time
per move for each side, measured around each call of the move chooser.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from atelier.games.piet.ai import LEVELS, choose_move
from atelier.games.piet.notation import Record
from atelier.games.piet.rules import OVER, State, new_game, play, winner


@dataclass
class GameResult:
    a_first: bool
    a_score: int
    b_score: int
    a_times: list[float] = field(default_factory=list)
    b_times: list[float] = field(default_factory=list)
    record: str = ""

    @property
    def outcome(self) -> int:
        """1 if A won, 0 for a draw, -1 if A lost."""
        return (self.a_score > self.b_score) - (self.a_score < self.b_score)


def move_seed(game_seed: int, ply: int) -> int:
    return (game_seed * 1_000_003 + ply * 7919) & 0xFFFFFFFF


def play_game(
    a: str,
    b: str,
    a_first: bool,
    seed: int,
    setup: str = "beginner",
    brushes: bool = False,
    budget: int | None = None,
) -> GameResult:
    state: State = new_game(setup, brushes)
    levels = (a, b) if a_first else (b, a)
    record = Record(setup, brushes)
    times: tuple[list[float], list[float]] = ([], [])
    ply = 0
    while state.phase != OVER:
        player = state.to_move
        started = time.perf_counter()
        move = choose_move(state, levels[player], move_seed(seed, ply), budget)
        times[player].append(time.perf_counter() - started)
        state, _ = play(state, move)
        record.moves.append(move)
        ply += 1
    a_seat = 0 if a_first else 1
    result = GameResult(a_first, state.scores[a_seat], state.scores[1 - a_seat],
                        times[a_seat], times[1 - a_seat], record.text())
    assert winner(state) is not None
    return result


def _play(args: tuple[str, str, bool, int, str, bool, int | None]) -> GameResult:
    return play_game(*args)


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _tally(results: list[GameResult]) -> str:
    wins = sum(r.outcome > 0 for r in results)
    draws = sum(r.outcome == 0 for r in results)
    losses = sum(r.outcome < 0 for r in results)
    return f"{wins}/{draws}/{losses}"


def summary(a: str, b: str, results: list[GameResult]) -> str:
    first = [r for r in results if r.a_first]
    second = [r for r in results if not r.a_first]
    diffs = [r.a_score - r.b_score for r in results]
    a_times = [t for r in results for t in r.a_times]
    b_times = [t for r in results for t in r.b_times]
    wins = sum(r.outcome > 0 for r in results)
    lines = [
        f"games {len(results)}: A={a} B={b}",
        f"A wins/draws/losses {_tally(results)} ({100 * wins / max(1, len(results)):.1f}% wins)",
        f"  A first  {_tally(first)}",
        f"  A second {_tally(second)}",
        f"mean score difference (A-B) {statistics.fmean(diffs) if diffs else 0.0:+.2f}",
    ]
    for name, times in (("A", a_times), ("B", b_times)):
        median = statistics.median(times) if times else 0.0
        lines.append(
            f"{name} time per move: median {median * 1000:.1f} ms, p95 {_p95(times) * 1000:.1f} ms"
            f" ({len(times)} moves)"
        )
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="atelier piet arena")
    parser.add_argument("--a", default="hard", choices=LEVELS)
    parser.add_argument("--b", default="greedy", choices=LEVELS)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--brushes", action="store_true")
    parser.add_argument("--setup", default="beginner", choices=("beginner", "empty"))
    parser.add_argument("--budget", type=int, default=None,
                        help="positions the searching levels may visit per move")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--records", default=None, help="append every game's record here")
    args = parser.parse_args(list(argv))
    jobs = [
        (args.a, args.b, i % 2 == 0, args.seed * 100_000 + i, args.setup, args.brushes,
         args.budget)
        for i in range(args.games)
    ]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_play, jobs))
    else:
        results = [_play(job) for job in jobs]
    if args.records:
        with open(args.records, "a", encoding="utf-8") as out:
            for r in results:
                out.write(f"# A={args.a} first={r.a_first} A={r.a_score} B={r.b_score}\n")
                out.write(r.record + "\n")
    print(summary(args.a, args.b, results))
    sys.stdout.flush()
    return 0
