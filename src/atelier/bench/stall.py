"""How long one hostile client delays everyone else: a bystander in another room
pings the server every 60 ms while one address floods it, and the round trips
are reported (docs/performance.md, "One client against the server").

    atelier bench stall [--attack fragments heads idle pings bodies] [--src DIR]
    (or python -m atelier.bench.stall ...)

Each attack gets a fresh server (``atelier serve`` from this install, or from
``--src DIR`` to measure another version of the code side by side):

- ``none``: 5 s of nothing, for the machine's own noise;
- ``fragments``: connections that each send 40,000 empty fragments (240 KB),
  before hello, one after another for 5 s;
- ``heads``: 3,000 connections that send half a request head and wait;
- ``idle``: 3,000 connections that send nothing;
- ``pings``: 200,000 pings (125 bytes each) from a client that reads nothing;
- ``bodies``: 50 addresses (127.0.0.10 to 127.0.0.59) each try to hold 400
  connections (the per-address cap) for 30 s, each a room creation whose head
  announces a 20,000-byte body that never comes; a closed one is opened again at
  once. 5 s in, a newcomer from 127.0.0.200 creates a room and pings in it; the
  server's open files (its connections) and RSS are sampled every half second.
  ``--attacker-nice 19`` runs the attacking processes at the lowest priority, as
  if they were other machines; by default they compete with the server for this
  machine's cores, a harsher case.

The attacker is 127.0.0.1 (or other loopback addresses), so the server is told its
trusted proxy is elsewhere.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection

from atelier.bench.measure import free_port, http, percentile, proc_cpu_seconds, proc_rss_mib
from atelier.bench.wsclient import client_frame
from atelier.server.wire.wsframe import CONTINUATION, PING, TEXT

ATTACKS = ("none", "fragments", "heads", "idle", "pings", "bodies")
PING_EVERY = 0.06  # under the 20 messages a second a connection may send
BODY_ADDRESSES = 50
BODY_SOCKETS = 400  # each address's --max-sockets
BODY_SECONDS = 30.0
ATTACK_PROCESSES = 2  # 20,000 sockets are more than one process may open here
NEWCOMER = "127.0.0.200"


async def create_room_from(port: int, address: str) -> tuple[int, str, float]:
    """POST /api/rooms from ``address``: the status, the room's code, milliseconds."""
    started = time.monotonic()
    body = b'{"game": "pictomania"}'
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            "127.0.0.1", port, local_addr=(address, 0)), 30)
        writer.write(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                     % (len(body), body))
        answer = await asyncio.wait_for(reader.read(), 30)
        writer.close()
    except (OSError, TimeoutError) as err:
        return 0, f"{type(err).__name__}", 1000 * (time.monotonic() - started)
    took = 1000 * (time.monotonic() - started)
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    code = json.loads(answer.split(b"\r\n\r\n", 1)[1] or b"{}").get("code", "") \
        if status == 201 else ""
    return status, code, took


async def bystander(port: int, code: str, pipe: Connection, newcomer: bool = False) -> None:
    """A player in a room of its own, asking the server for a pong every 60 ms until
    told to stop; then it sends back its round trips (seconds). A newcomer first
    creates its room, from an address of its own, and reports how that went."""
    address = "127.0.0.1"
    if newcomer:
        address = NEWCOMER
        status, code, took = await create_room_from(port, address)
        pipe.send((status, took))
        if status != 201:
            pipe.recv()
            pipe.send(([], f"no room: {status or code}"))
            return
    reader, writer = await upgrade(port, f"/ws/{code}", address)
    writer.write(client_frame(TEXT, json.dumps(
        {"t": "hello", "v": 1, "token": None, "lang": "en"}).encode()))
    ping = client_frame(TEXT, b'{"t": "ping"}')
    rtts: list[float] = []
    if not newcomer:
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


def run_bystander(port: int, code: str, pipe: Connection, newcomer: bool = False) -> None:
    """In a process of its own, so the attacker's work never delays it."""
    asyncio.run(bystander(port, code, pipe, newcomer))


def unfinished(opcode: int) -> bytes:
    """An empty fragment that is not the message's last."""
    whole = client_frame(opcode, b"")
    return bytes([whole[0] & 0x7F]) + whole[1:]


async def upgrade(port: int, path: str, address: str = "127.0.0.1"
                  ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
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


async def hold_bodies(port: int, addresses: list[str], until: float,
                      counts: dict[str, int]) -> None:
    """Keep ``BODY_SOCKETS`` slow bodies open from each address until ``until``."""
    loop = asyncio.get_running_loop()
    head = (b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 20000\r\n\r\n")

    async def slot(address: str) -> None:
        while time.monotonic() < until:
            sock = socket.socket()
            sock.setblocking(False)
            connected = False
            try:
                sock.bind((address, 0))
                await loop.sock_connect(sock, ("127.0.0.1", port))
                await loop.sock_sendall(sock, head)
                connected = True
                counts["opened"] += 1
                while (left := until - time.monotonic()) > 0:
                    if not await asyncio.wait_for(loop.sock_recv(sock, 4096), left):
                        break
                else:
                    continue
                counts["closed by the server"] += 1
            except TimeoutError:
                pass
            except OSError:
                if connected:
                    counts["closed by the server"] += 1
                else:
                    counts["refused"] += 1
                    await asyncio.sleep(0.05)  # e.g. out of local ports for a moment
            finally:
                sock.close()

    await asyncio.gather(*(slot(a) for a in addresses for _ in range(BODY_SOCKETS)))


def run_body_attacker(port: int, addresses: list[str], until: float, pipe: Connection,
                      nice: int = 0) -> None:
    os.nice(nice)
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    counts = {"opened": 0, "closed by the server": 0, "refused": 0}
    asyncio.run(hold_bodies(port, addresses, until, counts))
    pipe.send(counts)


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


async def bodies(port: int, server_pid: int, nice: int = 0) -> str:
    """The slow-body attack from many addresses, with a newcomer 5 s in."""
    spawn = multiprocessing.get_context("spawn")
    until = time.monotonic() + BODY_SECONDS  # the same clock in every process here
    addresses = [f"127.0.0.{10 + i}" for i in range(BODY_ADDRESSES)]
    files_before, rss_before = open_files(server_pid), proc_rss_mib(server_pid)
    cpu_before = proc_cpu_seconds(server_pid)
    attackers = []
    for k in range(ATTACK_PROCESSES):
        mine, theirs = spawn.Pipe()
        proc = spawn.Process(target=run_body_attacker, daemon=True,
                             args=(port, addresses[k::ATTACK_PROCESSES], until, theirs, nice))
        proc.start()
        attackers.append((proc, mine))
    files, rss = [], []
    newcomer: tuple[multiprocessing.process.BaseProcess, Connection] | None = None
    while time.monotonic() < until:
        await asyncio.sleep(0.5)
        files.append(open_files(server_pid))
        rss.append(proc_rss_mib(server_pid))
        if newcomer is None and time.monotonic() > until - BODY_SECONDS + 5:
            mine, theirs = spawn.Pipe()
            player = spawn.Process(target=run_bystander, args=(port, "", theirs, True),
                                   daemon=True)
            player.start()
            newcomer = (player, mine)
    cpu = proc_cpu_seconds(server_pid) - cpu_before
    counts: dict[str, int] = {}
    for proc, pipe in attackers:
        for key, n in (pipe.recv() if pipe.poll(120) else {}).items():
            counts[key] = counts.get(key, 0) + n
        proc.join(30)
    assert newcomer is not None
    newcomer_process, pipe = newcomer
    created = pipe.recv() if pipe.poll(60) else (0, 0.0)
    pipe.send("stop")
    rtts, lost = pipe.recv() if pipe.poll(120) else ([], "the newcomer never answered")
    newcomer_process.join(30)
    during = [1000 * t for t in rtts]
    try:
        health = http(f"http://127.0.0.1:{port}/healthz")[1]
    except OSError:  # a server that cannot answer yet
        health = None
    shed = health.get("unfinished_shed", "-") if isinstance(health, dict) else "-"
    return (f"{BODY_ADDRESSES} addresses x {BODY_SOCKETS} slow bodies for {BODY_SECONDS:.0f} s: "
            f"{counts.get('opened', 0):,} opened, {counts.get('closed by the server', 0):,} "
            f"closed by the server, {counts.get('refused', 0):,} failed to connect; "
            f"server's open files {files_before} -> peak {max(files, default=0):,} "
            f"(at the end {files[-1] if files else 0:,}); server RSS {rss_before:.0f} -> "
            f"peak {max(rss, default=0):.0f} MiB; shed by the budget: {shed}; server CPU "
            f"{cpu:.1f} s ({1000 * cpu / max(1, counts.get('opened', 0)):.2f} ms per attacking "
            f"connection)\n"
            f"  newcomer ({NEWCOMER}, 5 s in): room creation {created[0] or 'failed'} in "
            f"{created[1]:.0f} ms; its round trips p50 {percentile(during, 50):.1f} ms, "
            f"p99 {percentile(during, 99):.1f} ms, max {max(during, default=0):.1f} ms "
            f"({len(during)} pings{'; ' + lost if lost else ''})")


async def attack(kind: str, port: int, code: str, server_pid: int = 0, nice: int = 0) -> str:
    """Run one attack; what it left behind, in words."""
    loop = asyncio.get_running_loop()
    if kind == "none":
        await asyncio.sleep(5)
        return "nothing for 5 s"
    if kind == "bodies":
        return await bodies(port, server_pid, nice)
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


async def measure(kind: str, src: str | None, folder: str, nice: int = 0) -> None:
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
        outcome = await attack(kind, port, rooms[1], server.pid, nice)
        mine.send("stop")
        rtts, lost = mine.recv() if mine.poll(300) else ([], "the bystander never answered")
        during = [1000 * t for t in rtts]
        watcher.join(30)
        print(f"{kind}: {outcome}")
        print(f"  bystander's (a game socket open before) round trips during it: "
              f"p50 {percentile(during, 50):.1f} ms, "
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
    ap = argparse.ArgumentParser(prog="atelier bench stall")
    ap.add_argument("--attack", nargs="+", choices=ATTACKS, default=list(ATTACKS))
    ap.add_argument("--src", help="run the server from this source folder (PYTHONPATH)")
    ap.add_argument("--attacker-nice", type=int, default=0, metavar="N",
                    help="the bodies attack's processes at this niceness (19: as if on "
                    "other machines; default 0, competing with the server)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for kind in args.attack:
            asyncio.run(measure(kind, args.src, folder, args.attacker_nice))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
