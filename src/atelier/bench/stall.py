"""How long one hostile client delays everyone else: a bystander in another room
pings the server every 60 ms while one address floods it, and the round trips
are reported (docs/performance.md, "One client against the server").

    python -m atelier.bench.stall [--attack fragments heads idle pings] [--src DIR]

Each attack gets a fresh server (``atelier serve`` from this install, or from
``--src DIR`` to measure another version of the code side by side):

- ``none``: 5 s of nothing, for the machine's own noise;
- ``fragments``: connections that each send 40,000 empty fragments (240 KB),
  before hello, one after another for 5 s;
- ``heads``: 3,000 connections that send half a request head and wait;
- ``idle``: 3,000 connections that send nothing;
- ``pings``: 200,000 pings (125 bytes each) from a client that reads nothing.

The attacker is 127.0.0.1, so the server is told its trusted proxy is elsewhere.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection

from atelier.bench.measure import free_port, http, percentile, proc_rss_mib
from atelier.bench.wsclient import client_frame
from atelier.server.wire.wsframe import CONTINUATION, PING, TEXT

ATTACKS = ("none", "fragments", "heads", "idle", "pings")
PING_EVERY = 0.06  # under the 20 messages a second a connection may send


async def bystander(port: int, code: str, pipe: Connection) -> None:
    """A player in a room of its own, asking the server for a pong every 60 ms until
    told to stop; then it sends back its round trips (seconds)."""
    reader, writer = await upgrade(port, f"/ws/{code}")
    writer.write(client_frame(TEXT, json.dumps(
        {"t": "hello", "v": 1, "token": None, "lang": "en"}).encode()))
    ping = client_frame(TEXT, b'{"t": "ping"}')
    rtts: list[float] = []
    pipe.send("ready")
    lost = ""
    try:
        while not pipe.poll():
            sent = time.monotonic()
            writer.write(ping)
            while b'"pong"' not in (answer := await read_message(reader)):
                if answer[:2] and not answer.startswith(b"{"):  # a close frame's code
                    raise ConnectionError(f"closed by the server: {answer!r}")
            rtts.append(time.monotonic() - sent)
            await asyncio.sleep(PING_EVERY)
    except (ConnectionError, asyncio.IncompleteReadError) as err:
        lost = f"the bystander lost its connection after {len(rtts)} pings: {err}"
    pipe.send((rtts, lost))
    writer.close()


def run_bystander(port: int, code: str, pipe: Connection) -> None:
    """In a process of its own, so the attacker's work never delays it."""
    asyncio.run(bystander(port, code, pipe))


def unfinished(opcode: int) -> bytes:
    """An empty fragment that is not the message's last."""
    whole = client_frame(opcode, b"")
    return bytes([whole[0] & 0x7F]) + whole[1:]


async def upgrade(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade"
                 f"\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    await reader.readuntil(b"\r\n\r\n")
    return reader, writer


async def read_message(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readexactly(2)
    n = head[1] & 127
    if n == 126:
        n = int.from_bytes(await reader.readexactly(2), "big")
    elif n == 127:
        n = int.from_bytes(await reader.readexactly(8), "big")
    return await reader.readexactly(n)


async def still_open(conns: list[socket.socket]) -> int:
    """How many of ``conns`` the server has not closed."""
    left = 0
    for conn in conns:
        conn.setblocking(False)  # a socket with a timeout would wait for data
        try:
            left += conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
        except BlockingIOError:
            left += 1
        except OSError:
            pass
    return left


def raw_connections(port: int, n: int, first: bytes) -> list[socket.socket]:
    conns = []
    for _ in range(n):
        try:
            conn = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            break
        if first:
            conn.sendall(first)
        conns.append(conn)
    return conns


async def attack(kind: str, port: int, code: str) -> str:
    """Run one attack; what it left behind, in words."""
    loop = asyncio.get_running_loop()
    if kind == "none":
        await asyncio.sleep(5)
        return "nothing for 5 s"
    if kind == "fragments":
        flood = unfinished(TEXT) + unfinished(CONTINUATION) * 40_000
        took: list[float] = []
        ends = time.monotonic() + 5
        while time.monotonic() < ends:  # one after another for 5 s at least
            reader, writer = await upgrade(port, f"/ws/{code}")
            started = time.monotonic()
            writer.write(flood)
            try:
                while True:
                    message = await asyncio.wait_for(reader.read(65536), 60)
                    if not message:
                        break
            except (TimeoutError, ConnectionError):
                pass
            took.append(time.monotonic() - started)
            writer.close()
        return (f"{len(took)} floods; each connection closed after {1000 * min(took):.0f} to "
                f"{1000 * max(took):.0f} ms")
    if kind in ("heads", "idle"):
        first = f"GET /ws/{code} HTTP/1.1\r\nHost: x\r\n".encode() if kind == "heads" else b""
        conns = await loop.run_in_executor(None, raw_connections, port, 3000, first)
        opened = len(conns)
        await asyncio.sleep(15)
        left = await still_open(conns)
        status = await loop.run_in_executor(None, http, f"http://127.0.0.1:{port}/healthz")
        for conn in conns:
            conn.close()
        return (f"{opened} connected, {left} still open 15 s later; /healthz from the same "
                f"address meanwhile: {status[0]}")
    reader, writer = await upgrade(port, f"/ws/{code}")
    ping = client_frame(PING, b"p" * 125)
    for _ in range(200):
        writer.write(ping * 1000)
        await writer.drain()
    await asyncio.sleep(2)
    return "sent 200,000 pings without reading"


async def measure(kind: str, src: str | None, folder: str) -> None:
    port = free_port()
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    server = subprocess.Popen(
        [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", os.path.join(folder, f"{kind}.sqlite3"), "--quiet",
         "--forwarded-allow-ips", "10.255.255.1"], env=env, stdout=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                if http(f"http://127.0.0.1:{port}/healthz")[0] == 200:
                    break
            except OSError:
                await asyncio.sleep(0.05)
        rooms = [http(f"http://127.0.0.1:{port}/api/rooms", {"game": "pictomania"})[1]["code"]
                 for _ in range(2)]
        rss = proc_rss_mib(server.pid)
        mine, theirs = multiprocessing.get_context("spawn").Pipe()
        watcher = multiprocessing.get_context("spawn").Process(
            target=run_bystander, args=(port, rooms[0], theirs), daemon=True)
        watcher.start()
        assert mine.recv() == "ready"
        outcome = await attack(kind, port, rooms[1])
        mine.send("stop")
        rtts, lost = mine.recv() if mine.poll(300) else ([], "the bystander never answered")
        during = [1000 * t for t in rtts]
        watcher.join(30)
        print(f"{kind}: {outcome}")
        print(f"  bystander's round trips during it: p50 {percentile(during, 50):.1f} ms, "
              f"p99 {percentile(during, 99):.1f} ms, max {max(during, default=0):.1f} ms "
              f"({len(during)} pings{'; ' + lost if lost else ''}); "
              f"server RSS {rss:.0f} -> {proc_rss_mib(server.pid):.0f} MiB", flush=True)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:  # main's server never stops after the ping flood
            print("  the server did not stop in 30 s after SIGTERM: killed", flush=True)
            server.kill()
            server.wait(10)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atelier.bench.stall")
    ap.add_argument("--attack", nargs="+", choices=ATTACKS, default=list(ATTACKS))
    ap.add_argument("--src", help="run the server from this source folder (PYTHONPATH)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for kind in args.attack:
            asyncio.run(measure(kind, args.src, folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
