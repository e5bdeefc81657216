"""``atelier bench ink``: many rooms of players drawing at once, over real WebSockets.

This process starts a real server process (or uses ``--url``) and creates the
rooms; ``--load-processes`` processes (atelier.bench.load) connect every
player and have each one send a batch of realistic ink (atelier.ink.synth)
every ``--interval`` seconds, as the browser does while drawing. Every relayed
frame is timed from send to arrival. Clients take ink bundles, as the browser
does, unless ``--single-frames``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from atelier.bench import load
from atelier.bench.load import Counts, Job
from atelier.bench.measure import (
    drop_tables,
    free_port,
    http,
    percentile,
    proc_cpu_seconds,
    proc_rss_mib,
    start_server,
)
from atelier.ink.codec import decode_batch
from atelier.ink.synth import DEVICES, record


def receive(pipe: Connection, timeout: float) -> tuple[str, Any]:
    """A load process's next report, or ("failed", why) if it says nothing in time."""
    if not pipe.poll(timeout):
        return ("failed", f"no answer in {timeout:.0f} s")
    reply: tuple[str, Any] = pipe.recv()
    return reply


@dataclass
class Run:
    """One measured run against one server."""

    name: str
    counts: Counts
    wall: float
    cpu: float
    rss_before: float
    rss_after: float
    own_server: bool
    load_processes: int

    @property
    def cpu_per_1000_frames_ms(self) -> float:
        return 1e6 * self.cpu / max(1, self.counts.frames_received)

    @property
    def p99(self) -> float:
        return percentile([x / 1000 for x in self.counts.latencies], 99)


async def measure(args: argparse.Namespace, target: str) -> Run:
    """Start ``target`` (``atelier`` or ``floor``; none with ``--url``), load it, measure."""
    server: subprocess.Popen[bytes] | None = None
    tmp = tempfile.TemporaryDirectory()
    prefix = f"ink{secrets.token_hex(4)}_"  # a PostgreSQL run's own tables
    store = (None if not args.database_url
             else ["--database-url", args.database_url, "--table-prefix", prefix])
    if args.url and target == "atelier":
        base = args.url.rstrip("/")
    else:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(target, port, tmp.name, args.serve_arg, store)
    workers: list[tuple[BaseProcess, Connection]] = []
    try:
        for _ in range(400):
            with contextlib.suppress(OSError):
                if (await asyncio.to_thread(http, base + "/healthz"))[0] == 200:
                    break
            await asyncio.sleep(0.05)
        rss_before = proc_rss_mib(server.pid) if server else 0.0
        codes = []
        for _ in range(args.rooms):
            status, made = await asyncio.to_thread(
                http, base + "/api/rooms", {"game": args.game, "settings": {}})
            if status != 201:
                raise RuntimeError(f"creating a room answered {status}")
            codes.append(made["code"])
        drawings = [record(DEVICES[k % len(DEVICES)], 200, seed=k).batches for k in range(12)]
        counts = [[decode_batch(b).points for b in d] for d in drawings]
        ctx = multiprocessing.get_context("spawn")
        n_proc = max(1, min(args.load_processes, args.rooms))
        for w in range(n_proc):
            mine, theirs = ctx.Pipe()
            job = Job(base.replace("http", "ws", 1), list(enumerate(codes))[w::n_proc],
                      args.players, args.interval, drawings, counts, not args.single_frames)
            worker: BaseProcess = ctx.Process(target=load.run, args=(theirs, job), daemon=True)
            worker.start()
            workers.append((worker, mine))
        loop = asyncio.get_running_loop()
        for _, pipe in workers:
            reply = await loop.run_in_executor(None, receive, pipe, 300.0)
            if reply[0] != "ready":
                raise RuntimeError(f"a load process failed: {reply[1]}")
        for _, pipe in workers:  # everyone joined: the hosts start the rooms
            pipe.send(("start",))
        for _, pipe in workers:
            reply = await loop.run_in_executor(None, receive, pipe, 120.0)
            if reply[0] != "seated":
                raise RuntimeError(f"a load process failed: {reply[1]}")
        start = time.monotonic() + 0.2  # everyone seated: all draw at once
        t0 = start + 1.5  # warm up
        t1 = t0 + args.seconds
        for _, pipe in workers:
            pipe.send(("go", start, t0, t1))
        await asyncio.sleep(max(0.0, t0 - time.monotonic()))
        cpu0 = proc_cpu_seconds(server.pid) if server else 0.0
        await asyncio.sleep(max(0.0, t1 - time.monotonic()))
        cpu1 = proc_cpu_seconds(server.pid) if server else 0.0
        rss_after = proc_rss_mib(server.pid) if server else 0.0
        results = []
        for _, pipe in workers:
            reply = await loop.run_in_executor(None, receive, pipe, 60.0)
            if reply[0] != "done":
                raise RuntimeError(f"a load process failed: {reply[1]}")
            results.append(reply[1])
    finally:
        for proc, _ in workers:
            proc.join(10)
            if proc.is_alive():
                proc.terminate()
        if server is not None:
            server.terminate()
            server.wait(10)
            if args.database_url:
                await drop_tables(args.database_url, prefix)
        tmp.cleanup()
    return Run(target, load.merge(results), t1 - t0, cpu1 - cpu0, rss_before, rss_after,
               server is not None, n_proc)


def failures(run: Run) -> list[str]:
    total, found = run.counts, []
    if not total.frames_received:
        found.append("no frame was delivered")
    if total.lost:
        found.append(f"{total.lost} connections lost")
    if total.frames_missing:
        found.append(f"{total.frames_missing} frames lost")
    if total.errors:
        found.append(f"{total.errors} errors from the server ({error_codes(total)})")
    if total.seated_at_start < total.players:
        found.append(f"{total.players - total.seated_at_start} players never seated")
    return [f"{run.name}: {f}" for f in found]


GOAL_P99_MS = 100.0
GOAL_CPU_RATIO = 1.15
GOAL_P99_RATIO = 1.2
GOAL_ROOMS = (100, 200, 300)
GOAL_ROOMS_TWO = 200


def with_args(args: argparse.Namespace, **changes: Any) -> argparse.Namespace:
    return argparse.Namespace(**{**vars(args), **changes})


def ratio(ours: float, floor: float) -> float:
    """ours / floor; infinite when the floor's figure is 0 (its CPU time, read in
    clock ticks of 10 ms, can be 0 in a very short, light run)."""
    return ours / floor if floor else math.inf


Pairs = list[tuple[Run, Run]]
"""A load's runs side by side, each (the floor's, Atelier's), one right after the other."""


@dataclass(frozen=True)
class Compared:
    """One figure of a load's pairs: Atelier's and the floor's (medians) and each
    pair's ratio, Atelier's over the floor's, in the order run."""

    ours: float
    floor: float
    ratios: list[float]

    @property
    def ratio(self) -> float:
        """The median pair's ratio. Each pair ran within a minute, so it shares
        the machine's mood of that minute; the median of several says more than
        one pair on a shared machine whose figures move by a fifth from one
        minute to the next."""
        return statistics.median(self.ratios)

    def range(self) -> str:
        """", low to high over n pairs" when there are several."""
        if len(self.ratios) == 1:
            return ""
        return f", {min(self.ratios):.2f} to {max(self.ratios):.2f}x over {len(self.ratios)} pairs"


def compared(pairs: Pairs, figure: Callable[[Run], float]) -> Compared:
    return Compared(statistics.median(figure(ours) for _, ours in pairs),
                    statistics.median(figure(floor) for floor, _ in pairs),
                    [ratio(figure(ours), figure(floor)) for floor, ours in pairs])


def _cpu(run: Run) -> float:
    return run.cpu_per_1000_frames_ms


def _p99(run: Run) -> float:
    return run.p99


def goal_lines(loads: list[tuple[int, Pairs]], wide: Run) -> list[tuple[str, bool]]:
    """Each goal as a line and whether it is met, from the floor's and Atelier's
    runs side by side at each load (rooms, pairs) and Atelier's with two workers
    at 200 rooms: CPU per frame within 1.15x of the floor's and p99 within 1.2x of
    its p99 at every load (the median pair's), p99 under 100 ms at 100 rooms in
    one process (every run) and at 200 on two workers, nothing lost anywhere."""
    goals = []
    for rooms, pairs in loads:
        cpu, p99 = compared(pairs, _cpu), compared(pairs, _p99)
        goals += [
            (f"{rooms} rooms: CPU per 1,000 frames {cpu.ours:.1f} ms, "
             f"{cpu.ratio:.2f}x the floor's {cpu.floor:.1f} ms"
             f"{cpu.range()} (at most {GOAL_CPU_RATIO}x)", cpu.ratio <= GOAL_CPU_RATIO),
            (f"{rooms} rooms: p99 {p99.ours:.1f} ms, {p99.ratio:.2f}x the floor's "
             f"{p99.floor:.1f} ms{p99.range()} "
             f"(at most {GOAL_P99_RATIO}x)", p99.ratio <= GOAL_P99_RATIO),
        ]
        if rooms == GOAL_ROOMS[0]:
            worst = max(ours.p99 for _, ours in pairs)
            goals.append((f"{rooms} rooms, one process: p99 {worst:.1f} ms "
                          f"(under {GOAL_P99_MS:.0f} ms)", worst < GOAL_P99_MS))
    goals.append((f"two workers, {GOAL_ROOMS_TWO} rooms: p99 {wide.p99:.1f} ms "
                  f"(under {GOAL_P99_MS:.0f} ms)", wide.p99 < GOAL_P99_MS))
    runs = [run for _, pairs in loads for pair in pairs for run in pair] + [wide]
    lost = [f for run in runs for f in failures(run)]
    goals += [(f"nothing lost: {f}", False) for f in lost] or [
        (f"nothing lost: 0 frames, 0 connections, 0 errors in all {len(runs)} runs", True)]
    return goals


async def side_by_side(args: argparse.Namespace, title: str = "") -> Pairs:
    """``--pairs`` runs of the floor then Atelier, each reported."""
    pairs = []
    for k in range(args.pairs):
        floor = await measure(args, "floor")
        ours = await measure(args, "atelier")
        pair = f", pair {k + 1} of {args.pairs}" if args.pairs > 1 else ""
        for run in (floor, ours):
            print(f"== {run.name}{title}{pair} ==")
            report(args, run)
        pairs.append((floor, ours))
    return pairs


async def run_goals(args: argparse.Namespace) -> int:
    """The performance goals in one command: the floor and Atelier side by side
    (one after the other, ``--pairs`` times) at 100, 200 and 300 rooms, then 200
    rooms with two workers; each goal said met or not met."""
    loads = []
    for rooms in GOAL_ROOMS:
        at = with_args(args, rooms=rooms)
        loads.append((rooms, await side_by_side(at, f", {rooms} rooms")))
    two = with_args(args, rooms=GOAL_ROOMS_TWO, serve_arg=[*args.serve_arg, "--workers=2"])
    wide = await measure(two, "atelier")
    print(f"== atelier, two workers, {GOAL_ROOMS_TWO} rooms ==")
    report(two, wide)
    goals = goal_lines(loads, wide)
    print("== goals ==")
    for text, met in goals:
        print(f"{'met    ' if met else 'NOT MET'}  {text}")
    return 0 if all(met for _, met in goals) else 1


def compare_lines(pairs: Pairs) -> list[str]:
    """The comparison ``--floor`` prints: Atelier's figure over the floor's, the
    median pair's when there are several (each pair's ratio after it)."""
    lines = []
    for label, figure in (("CPU per 1,000 frames relayed", _cpu), ("p99 delivery", _p99)):
        found = compared(pairs, figure)
        line = f"{label}: {found.ours:.1f} ms / {found.floor:.1f} ms = {found.ratio:.2f}x"
        if len(pairs) > 1:
            each = ", ".join(f"{r:.2f}x" for r in found.ratios)
            line += f" (median of {len(pairs)} pairs: {each})"
        lines.append(line)
    return lines


async def run_ink(args: argparse.Namespace) -> int:
    if args.goals:
        return await run_goals(args)
    if args.floor:
        pairs = await side_by_side(args)
        runs = [run for pair in pairs for run in pair]
        print("== atelier / floor ==", *compare_lines(pairs), sep="\n")
    else:
        runs = [await measure(args, "atelier")]
        report(args, runs[0])
    found = [f for run in runs for f in failures(run)]
    for failure in found:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if found else 0


def error_codes(counts: Counts) -> str:
    return ", ".join(f"{code} {n}" for code, n in sorted(counts.error_codes.items()))


def report(args: argparse.Namespace, run: Run) -> None:
    t, wall, cpu = run.counts, run.wall, run.cpu
    rss0, rss1, own_server, n_proc = run.rss_before, run.rss_after, run.own_server, \
        run.load_processes
    lat = [x / 1000 for x in t.latencies]
    copies = max(1, t.frames_received)
    how = "single frames" if args.single_frames else "bundles"
    lines = [
        f"ink benchmark: {args.rooms} rooms x {args.players} players, a batch every "
        f"{args.interval * 1000:.0f} ms per player, ink out as {how}, "
        f"measured over {wall:.1f} s",
        f"stroke delivery latency ms: p50 {percentile(lat, 50):.1f}  "
        f"p95 {percentile(lat, 95):.1f}  p99 {percentile(lat, 99):.1f}  "
        f"max {max(lat) if lat else float('nan'):.1f}",
        f"messages per second: in {t.frames_sent / wall:.0f}  out {t.frames_received / wall:.0f}"
        f"  (errors {t.errors}, connections lost {t.lost}; "
        f"{t.seated_at_start} of {t.players} players drawing when measuring began)",
        f"frames lost: {t.frames_missing} of {t.frames_expected} sent to the other "
        f"players from start to end"
        + (f"; errors: {error_codes(t)}" if t.errors else ""),
        f"WebSocket messages per second out: {t.messages_received / wall:.0f} "
        f"({t.frames_received / max(1, t.messages_received):.1f} frames each)",
        f"points per second drawn: {t.points_sent / wall:.0f}",
        f"bytes per point: payload {t.payload_sent / max(1, t.points_sent):.2f}  "
        f"on the wire with WebSocket framing: in {t.wire_in / max(1, t.points_sent):.2f}  "
        f"out {(t.wire_out / copies) * t.frames_sent / max(1, t.points_sent):.2f}",
    ]
    if own_server:
        lines.append(
            f"server CPU: {100 * cpu / wall:.0f}% of one core "
            f"({1000 * cpu / wall / args.rooms:.1f} ms per second per room); "
            f"RSS {rss1:.0f} MiB ({(rss1 - rss0) / args.rooms * 1024:.0f} KiB per room); "
            f"{run.cpu_per_1000_frames_ms:.1f} ms of CPU per 1,000 frames relayed"
        )
    lines.append(f"load CPU: {100 * t.cpu / wall:.0f}% of one core in {n_proc} process"
                 f"{'es' if n_proc > 1 else ''} (on {os.cpu_count()} cores shared with the server)")
    print("\n".join(lines))


def main(argv: list[str]) -> int:
    if argv[:1] == ["fuzz"]:
        # the fuzzer's clients (hypothesis, websockets, httpx) are the "fuzz" extra,
        # not the server's dependencies: imported only here
        try:
            from atelier.bench import fuzz
        except ModuleNotFoundError as missing:
            print(f"atelier bench fuzz needs {missing.name}: pip install 'atelier[fuzz]'",
                  file=sys.stderr)
            return 2
        return fuzz.main(argv[1:])
    if argv[:1] == ["stall"]:
        from atelier.bench import stall

        return stall.main(argv[1:])
    if argv[:1] == ["mixed"]:
        try:  # its clients are the fuzz extra's too
            from atelier.bench import mixed
        except ModuleNotFoundError as missing:
            print(f"atelier bench mixed needs {missing.name}: pip install 'atelier[fuzz]'",
                  file=sys.stderr)
            return 2
        return mixed.main(argv[1:])
    ap = argparse.ArgumentParser(prog="atelier bench")
    sub = ap.add_subparsers(dest="what", required=True)
    ink = sub.add_parser("ink", help="rooms of players drawing at once")
    sub.add_parser("fuzz", help="the protocol fuzzer's long run (--messages, --workers)")
    sub.add_parser("stall", help="how long hostile clients delay everyone else "
                   "(--attack ..., --src DIR); docs/performance.md")
    sub.add_parser("mixed", help="a bystander's ping, ink and computer replies under the "
                   "engine's load (drawing rooms, hard computers, a review flood)")
    ink.add_argument("--rooms", type=int, default=100)
    ink.add_argument("--players", type=int, default=6, choices=range(1, 7))
    ink.add_argument("--seconds", type=float, default=20)
    ink.add_argument("--interval", type=float, default=0.05,
                     help="seconds between a player's batches (the browser sends every 50 ms)")
    ink.add_argument("--url", help="use a running server (started with the sketch game)")
    ink.add_argument("--load-processes", type=int, default=2,
                     help="processes generating the load (default 2)")
    ink.add_argument("--single-frames", action="store_true",
                     help="clients take one ink frame per message (as before ink bundles)")
    ink.add_argument("--floor", action="store_true",
                     help="first run the same load against a lean relay that only checks, "
                          "stores and relays ink (atelier.bench.floor), then compare")
    ink.add_argument("--pairs", type=int, default=1,
                     help="with --floor or --goals: run the floor and Atelier side by side "
                          "this many times at each load and judge by the median pair "
                          "(figures on a shared machine move by a fifth from minute to minute)")
    ink.add_argument("--goals", action="store_true",
                     help="the performance goals: the floor and Atelier side by side at "
                          "100, 200 and 300 rooms, then 200 rooms with --workers 2 (--rooms "
                          "is ignored); exits 1 if any is not met")
    ink.add_argument("--serve-arg", action="append", default=[],
                     help="an argument for `atelier serve` (repeatable), e.g. --serve-arg=--x")
    ink.add_argument("--database-url",
                     help="store in PostgreSQL (postgresql+asyncpg://...), both servers, each "
                          "run in tables of its own that are dropped afterwards")
    ink.add_argument("--game", default="sketch", help=argparse.SUPPRESS)
    from atelier.bench import crash, push, restart, rooms

    rooms.add_parser(sub)
    restart.add_parser(sub)
    crash.add_parser(sub)
    push.add_parser(sub)
    args = ap.parse_args(argv)
    if args.what == "ink" and args.goals and args.url:
        ap.error("--goals starts its own servers: leave out --url")
    if args.what == "rooms":
        return rooms.main(args)
    if args.what == "restart":
        return restart.main(args)
    if args.what == "crash":
        return crash.main(args)
    if args.what == "push":
        return push.main(args)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(run_ink(args))
