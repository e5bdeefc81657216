"""``atelier bench ink``: many rooms of players drawing at once, over real WebSockets.

This process is the load: it starts a real server process (or uses ``--url``),
creates the rooms, connects every player, and has each one send a batch of
realistic ink (atelier.ink.synth) every ``--interval`` seconds, as the browser
does while drawing. Every relayed frame is timed from send to arrival.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import httpx
import websockets

from atelier.ink.codec import decode_batch
from atelier.ink.synth import DEVICES, record

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


@dataclass
class Tally:
    sent: dict[tuple[int, bytes], float] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    frames_sent: int = 0
    frames_received: int = 0
    payload_sent: int = 0
    points_sent: int = 0
    wire_in: int = 0  # bytes clients -> server, WebSocket framing included
    wire_out: int = 0  # bytes server -> clients, framing included
    errors: int = 0
    lost: int = 0
    measuring: bool = False


def ws_frame_bytes(payload: int, masked: bool) -> int:
    """Bytes of one binary WebSocket frame on the wire (RFC 6455 header + payload)."""
    header = 2 + (2 if 126 <= payload < 65536 else 8 if payload >= 65536 else 0)
    return header + (4 if masked else 0) + payload


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


async def player(url: str, code: str, room: int, seat_hint: int, batches: list[bytes],
                 points: list[int], tally: Tally, start: asyncio.Event, stop: asyncio.Event,
                 ready: list[int], interval: float) -> None:
    async with websockets.connect(f"{url}/ws/{code}", max_size=2**20, compression=None,
                                  ping_interval=None) as ws:
        await ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        await ws.send(json.dumps({"t": "join", "name": f"P{seat_hint}",
                                  "colour": COLOURS[seat_hint]}))
        seat = -1

        async def reader() -> None:
            try:
                await read()
            except websockets.ConnectionClosed:
                tally.lost += 1

        async def read() -> None:
            nonlocal seat
            async for raw in ws:
                now = time.perf_counter()
                if isinstance(raw, bytes):
                    t0 = tally.sent.get((room, raw))
                    if tally.measuring and t0 is not None:
                        tally.latencies.append(now - t0)
                        tally.frames_received += 1
                        tally.wire_out += ws_frame_bytes(len(raw), masked=False)
                    continue
                msg = json.loads(raw)
                if msg["t"] == "state" and msg["you"]["seat"] is not None:
                    seat = msg["you"]["seat"]
                elif msg["t"] == "joined":
                    ready[0] += 1
                elif msg["t"] == "error":
                    tally.errors += 1

        task = asyncio.create_task(reader())
        await start.wait()
        if seat_hint == 0:
            await ws.send(json.dumps({"t": "start"}))
        while seat < 0 and not stop.is_set():
            await asyncio.sleep(0.01)
        prefix = bytes([seat])
        i = 0
        next_at = time.perf_counter() + interval * (seat_hint / 6)
        while not stop.is_set() and not task.done():
            data = batches[i % len(batches)]
            tally.sent[(room, prefix + data)] = time.perf_counter()
            await ws.send(data)
            if tally.measuring:
                tally.frames_sent += 1
                tally.payload_sent += len(data)
                tally.points_sent += points[i % len(batches)]
                tally.wire_in += ws_frame_bytes(len(data), masked=True)
            i += 1
            # a hand does not draw faster to catch up after a stall
            next_at = max(next_at + interval, time.perf_counter())
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def run_ink(args: argparse.Namespace) -> int:
    server: subprocess.Popen[bytes] | None = None
    tmp = tempfile.TemporaryDirectory()
    if args.url:
        base = args.url.rstrip("/")
    else:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", os.path.join(tmp.name, "bench.sqlite3"), "--quiet",
             "--extra-game", "atelier.bench.sketch:GAME"],
            stdout=subprocess.DEVNULL,
        )
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            for _ in range(400):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(base + "/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.05)
            rss_before = proc_rss_mib(server.pid) if server else 0.0
            codes = []
            for _ in range(args.rooms):
                made = await http.post(base + "/api/rooms",
                                       json={"game": args.game, "settings": {}})
                made.raise_for_status()
                codes.append(made.json()["code"])
        ws_base = base.replace("http", "ws", 1)
        drawings = [record(DEVICES[k % len(DEVICES)], 200, seed=k).batches for k in range(12)]
        counts = [[decode_batch(b).points for b in d] for d in drawings]
        tally = Tally()
        start, stop = asyncio.Event(), asyncio.Event()
        ready = [0]
        tasks = []
        for r, code in enumerate(codes):
            for s in range(args.players):
                k = (r * args.players + s) % len(drawings)
                tasks.append(asyncio.create_task(player(
                    ws_base, code, r, s, drawings[k], counts[k], tally, start, stop, ready,
                    args.interval)))
                if s == 0:
                    await asyncio.sleep(0.02)  # the first to join is the host
            await asyncio.sleep(0.005)  # do not open hundreds of sockets in one instant
        while ready[0] < len(tasks):
            await asyncio.sleep(0.05)
            if any(t.done() for t in tasks):
                for t in tasks:
                    if t.done() and t.exception():
                        raise t.exception()  # type: ignore[misc]
        start.set()  # every room's host starts it; then everyone draws
        await asyncio.sleep(1.5)  # warm up
        cpu0 = proc_cpu_seconds(server.pid) if server else 0.0
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        tally.measuring = True
        await asyncio.sleep(args.seconds)
        tally.measuring = False
        wall = time.perf_counter() - t0
        cpu1 = proc_cpu_seconds(server.pid) if server else 0.0
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        rss_after = proc_rss_mib(server.pid) if server else 0.0
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        tmp.cleanup()
    report(args, tally, wall, cpu1 - cpu0, rss_before, rss_after, server is not None,
           (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime))
    return 0 if tally.frames_received else 1


def report(args: argparse.Namespace, t: Tally, wall: float, cpu: float, rss0: float,
           rss1: float, own_server: bool, load_cpu: float) -> None:
    lat = [x * 1000 for x in t.latencies]
    copies = max(1, t.frames_received)
    lines = [
        f"ink benchmark: {args.rooms} rooms x {args.players} players, a batch every "
        f"{args.interval * 1000:.0f} ms per player, measured over {wall:.1f} s",
        f"stroke delivery latency ms: p50 {percentile(lat, 50):.1f}  "
        f"p95 {percentile(lat, 95):.1f}  p99 {percentile(lat, 99):.1f}  "
        f"max {max(lat) if lat else float('nan'):.1f}",
        f"messages per second: in {t.frames_sent / wall:.0f}  out {t.frames_received / wall:.0f}"
        f"  (errors {t.errors}, connections lost {t.lost})",
        f"points per second drawn: {t.points_sent / wall:.0f}",
        f"bytes per point: payload {t.payload_sent / max(1, t.points_sent):.2f}  "
        f"on the wire with WebSocket framing: in {t.wire_in / max(1, t.points_sent):.2f}  "
        f"out {(t.wire_out / copies) * t.frames_sent / max(1, t.points_sent):.2f}",
    ]
    if own_server:
        lines.append(
            f"server CPU: {100 * cpu / wall:.0f}% of one core "
            f"({1000 * cpu / wall / args.rooms:.1f} ms per second per room); "
            f"RSS {rss1:.0f} MiB ({(rss1 - rss0) / args.rooms * 1024:.0f} KiB per room)"
        )
    lines.append(f"load process CPU: {100 * load_cpu / wall:.0f}% of one core "
                 f"(on {os.cpu_count()} cores shared with the server)")
    print("\n".join(lines))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="atelier bench")
    sub = ap.add_subparsers(dest="what", required=True)
    ink = sub.add_parser("ink", help="rooms of players drawing at once")
    ink.add_argument("--rooms", type=int, default=100)
    ink.add_argument("--players", type=int, default=6, choices=range(1, 7))
    ink.add_argument("--seconds", type=float, default=20)
    ink.add_argument("--interval", type=float, default=0.05,
                     help="seconds between a player's batches (the browser sends every 50 ms)")
    ink.add_argument("--url", help="use a running server (started with the sketch game)")
    ink.add_argument("--game", default="sketch", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(run_ink(args))
