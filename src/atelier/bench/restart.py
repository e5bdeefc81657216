"""``atelier bench restart``: a rolling restart (SIGHUP to ``atelier serve
--workers N``) while rooms are being played, and what it cost them.

Each player draws a batch every 50 ms and sends a logged action (the sketch
game's ``tick``) every 500 ms, waiting for its ack. When the server closes its
socket the player reconnects at once (with its token), as the browser does, and
goes on. After the restart every player connects once more and compares:

- acked actions lost: ticks the server acknowledged that its state no longer counts;
- ink lost: batches the server had certainly taken (sent before a later message
  it acknowledged on the same socket) that are not in the drawing;
- ink unconfirmed: batches sent after a socket's last ack that did not arrive
  (in flight when it closed: the transport's loss, not the server's);
- the longest reconnect: from a socket's close to the new one's welcome.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from atelier.bench.measure import free_port, process_tree, start_server
from atelier.ink.codec import Begin, End, Points, encode_batch


@dataclass
class Player:
    code: str
    name: str
    token: str | None = None
    seat: int = -1
    ticks_acked: int = 0
    confirmed: list[bytes] = field(default_factory=list)  # batches before an ack
    unconfirmed: list[bytes] = field(default_factory=list)  # since the last ack
    in_flight: list[bytes] = field(default_factory=list)  # unconfirmed when a socket closed
    reconnects: list[float] = field(default_factory=list)
    closes: list[int | None] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # refusals the server sent
    connected: bool = False  # has a socket that said hello now


def add_parser(sub: Any) -> None:
    ap = sub.add_parser("restart", help="a rolling restart (SIGHUP) while rooms play")
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--before", type=float, default=3.0,
                    help="seconds of play before the SIGHUP (default 3)")
    ap.add_argument("--after", type=float, default=3.0,
                    help="seconds of play after every worker was replaced (default 3)")
    ap.add_argument("--no-restart", action="store_true",
                    help="the same play without the SIGHUP: the figures to compare with")


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as reply:
        answer: dict[str, Any] = json.loads(reply.read())
    return answer


def _batches(n: int, salt: int) -> list[bytes]:
    """``n`` distinct whole strokes (each batch begins and ends its own, so a batch
    lost in flight never leaves the next one continuing a stroke the server missed)."""
    out = []
    for i in range(n):
        x, y = 100 + (i * 37 + salt * 11) % 800, 100 + (i * 53 + salt * 7) % 600
        out.append(encode_batch([Begin("pen", 8, x, y, i * 60, None),
                                 Points((3, 2, 16, 0) * 3), End()]))
    return out


async def _play(ws_base: str, player: Player, stop: asyncio.Event, ink: list[bytes],
                seat_msg: dict[str, Any] | None) -> None:
    import websockets

    next_ink = 0
    msg_id = 0
    closed_at: float | None = None
    while not stop.is_set():
        try:
            async with websockets.connect(f"{ws_base}/ws/{player.code}") as ws:
                await ws.send(json.dumps({"t": "hello", "v": 1, "token": player.token}))
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["t"] == "welcome":
                        break
                if closed_at is not None:
                    player.reconnects.append(time.monotonic() - closed_at)
                    closed_at = None
                player.connected = True
                if seat_msg is not None:  # the first connection sits down
                    await ws.send(json.dumps(seat_msg))
                    while True:
                        raw = await ws.recv()
                        if isinstance(raw, str) and json.loads(raw)["t"] == "joined":
                            joined = json.loads(raw)
                            player.token, seat_msg = joined["token"], None
                            break
                    return  # seated: the bench starts the game, then plays
                sent_at = time.monotonic()
                pending: dict[int, int] = {}  # a tick's id -> batches sent before it
                while not stop.is_set():
                    batch = ink[next_ink % len(ink)]
                    next_ink += 1
                    await ws.send(batch)
                    player.unconfirmed.append(batch)
                    if time.monotonic() - sent_at >= 0.5:
                        msg_id += 1
                        pending[msg_id] = len(player.unconfirmed)
                        await ws.send(json.dumps({"t": "act", "id": msg_id,
                                                  "action": {"type": "tick"}}))
                        sent_at = time.monotonic()
                    # read what arrived (acks among the relayed ink) without waiting long
                    with contextlib.suppress(TimeoutError):
                        while True:
                            raw = await asyncio.wait_for(ws.recv(), 0.05)
                            if isinstance(raw, str):
                                msg = json.loads(raw)
                                if msg.get("t") == "error":
                                    player.errors.append(str(msg.get("code")))
                                if msg.get("t") == "ack" and msg.get("id") in pending:
                                    player.ticks_acked += 1
                                    # the batches sent before the tick were taken
                                    # (messages are handled in order)
                                    n = pending.pop(msg["id"])
                                    player.confirmed += player.unconfirmed[:n]
                                    player.unconfirmed = player.unconfirmed[n:]
                                    for later in pending:
                                        pending[later] = max(0, pending[later] - n)
        except websockets.ConnectionClosed as closed:
            player.closes.append(closed.rcvd.code if closed.rcvd else None)
            closed_at = closed_at or time.monotonic()
        except OSError:
            closed_at = closed_at or time.monotonic()
            await asyncio.sleep(0.05)
        player.connected = False
        # what this socket sent after its last ack is not confirmed by a later one
        player.in_flight += player.unconfirmed
        player.unconfirmed = []


async def _check(ws_base: str, player: Player) -> tuple[int, int, int]:
    """(ticks the state counts for this seat, confirmed batches missing, unconfirmed missing)."""
    import websockets

    async with websockets.connect(f"{ws_base}/ws/{player.code}", max_size=2**24) as ws:
        await ws.send(json.dumps({"t": "hello", "v": 1, "token": player.token}))
        frames: list[bytes] = []
        ticks = -1
        await ws.send(json.dumps({"t": "ping", "id": 1}))
        while True:
            raw = await asyncio.wait_for(ws.recv(), 30)
            if isinstance(raw, bytes):
                frames.append(raw)
                continue
            msg = json.loads(raw)
            if msg["t"] == "state" and msg.get("game"):
                player.seat = msg["you"]["seat"]
                ticks = msg["game"]["ticks"][player.seat]
            if msg["t"] == "ack" and msg.get("id") == 1:
                break
    kept = {f[1:] for f in frames if f[0] == player.seat}
    return (ticks, sum(b not in kept for b in player.confirmed),
            sum(b not in kept for b in player.in_flight))


def _workers(pid: int) -> set[int]:
    return set(process_tree(pid)) - {pid}


async def run(args: argparse.Namespace) -> int:
    if args.workers < 2:
        print("a rolling restart needs --workers 2 or more", file=sys.stderr)
        return 2
    try:
        import websockets
    except ModuleNotFoundError:
        print("atelier bench restart needs websockets: pip install 'atelier[fuzz]'",
              file=sys.stderr)
        return 2
    tmp = tempfile.TemporaryDirectory()
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    server = start_server("atelier", port, tmp.name, ["--workers", str(args.workers)])
    try:
        for _ in range(600):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(base + "/healthz", timeout=5)
                break
            await asyncio.sleep(0.1)
        players: list[Player] = []
        hosts: list[tuple[str, str]] = []
        for _ in range(args.rooms):
            created = _post(base + "/api/rooms", {"game": "sketch"})
            hosts.append((created["code"], created["host_key"]))
            for i, colour in enumerate(("red", "blue")):
                p = Player(created["code"], f"P{i}")
                join: dict[str, Any] = {"t": "join", "name": p.name, "colour": colour}
                if i == 0:
                    join["host_key"] = created["host_key"]
                await _play(ws_base, p, asyncio.Event(), [], join)
                players.append(p)
        for code, _ in hosts:  # the host starts each game
            host = next(p for p in players if p.code == code and p.name == "P0")
            import websockets

            async with websockets.connect(f"{ws_base}/ws/{code}") as ws:
                await ws.send(json.dumps({"t": "hello", "v": 1, "token": host.token}))
                await ws.send(json.dumps({"t": "start", "id": 1}))
                while True:
                    raw = await ws.recv()
                    if isinstance(raw, str) and json.loads(raw).get("id") == 1:
                        break
        stop = asyncio.Event()
        tasks = [asyncio.create_task(_play(ws_base, p, stop, _batches(4000, k), None))
                 for k, p in enumerate(players)]
        await asyncio.sleep(args.before)
        before = set() if args.no_restart else _workers(server.pid)
        began = time.monotonic()
        if not args.no_restart:
            os.kill(server.pid, signal.SIGHUP)
        # done when every old worker has exited (its replacement then starts serving)
        while _workers(server.pid) & before or len(_workers(server.pid)) != args.workers:
            await asyncio.sleep(0.05)
            if time.monotonic() - began > 300:
                print("the workers were not all replaced within 300 s", file=sys.stderr)
                return 1
        replaced = time.monotonic() - began
        await asyncio.sleep(args.after)
        # and every player back (their reconnect times are the figure)
        waited = time.monotonic()
        while not all(p.connected for p in players) and time.monotonic() - waited < 120:
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.gather(*tasks)
        results = [await _check(ws_base, p) for p in players]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(60)
        tmp.cleanup()
    acked = sum(p.ticks_acked for p in players)
    lost = sum(max(0, p.ticks_acked - ticks) for p, (ticks, _, _) in zip(players, results,
                                                                        strict=True))
    reconnects = [r for p in players for r in p.reconnects]
    closed = [c for p in players for c in p.closes]
    what = ("no restart (--no-restart)" if args.no_restart else
            f"the last old worker gone {replaced:.1f} s after SIGHUP")
    print(f"rolling restart: {args.rooms} rooms x 2 players, --workers {args.workers}; {what}")
    print(f"acked actions lost: {lost} of {acked}")
    print(f"ink lost: {sum(r[1] for r in results)} of "
          f"{sum(len(p.confirmed) for p in players)} batches the server had taken; "
          f"sent after a socket's last ack and not kept: {sum(r[2] for r in results)} of "
          f"{sum(len(p.in_flight) for p in players)}")
    print(f"sockets closed by the server: {len(closed)} (codes {sorted(set(map(str, closed)))})")
    if reconnects:
        ordered = sorted(reconnects)
        print(f"reconnects: {len(ordered)}; from a close to the new socket's welcome: longest "
              f"{1000 * ordered[-1]:.0f} ms, median {1000 * ordered[len(ordered) // 2]:.0f} ms")
    errors = [e for p in players for e in p.errors]
    print(f"refusals during the run: {len(errors)} {sorted(set(errors))}")
    return 0 if lost == 0 and sum(r[1] for r in results) == 0 else 1


def main(args: argparse.Namespace) -> int:
    return asyncio.run(run(args))
