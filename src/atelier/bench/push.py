"""``atelier bench push``: what turn nudges cost (docs/deploy.md, "Turn nudges").

Two figures:

- **send**: pushes one process sends per second, each as the server sends it
  (claimed in the store, its subscription read, the payload encrypted for the
  subscription, RFC 8291, the VAPID token signed, RFC 8292, then POSTed), to a
  receiver in a process of its own that answers 201 at once; with the CPU time
  per push (the figure that holds on a loaded machine) and the part of it that
  is encryption and signing alone;
- **latency**: a real server (``atelier serve --push-service``) and two players
  of a correspondence Piet game over WebSockets: the time from a move's
  sending to its nudge arriving at the push service.

The receiver is a plain HTTP server: it checks nothing (the tests' push service
does, tests/support/push_service.py), so the figures are the sender's.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

RECEIVER = """
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
"""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _subscription_keys() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return _b64(public), _b64(os.urandom(16))


def add_parser(sub: Any) -> None:
    push = sub.add_parser("push", help="turn nudges: pushes per second, move-to-push time")
    push.add_argument("--pushes", type=int, default=400, help="pushes to send (default 400)")
    push.add_argument("--concurrency", type=int, default=16,
                      help="pushes under way at once (default 16)")
    push.add_argument("--moves", type=int, default=20,
                      help="moves for the latency figure (default 20; 0: skip it)")


async def _send_figure(args: argparse.Namespace) -> list[str]:
    from atelier.server.push.nudges import Nudge
    from atelier.server.push.sender import payload
    from atelier.server.push.service import PushConfig, PushService
    from atelier.store import open_store
    from atelier.store.push import Subscription

    receiver = subprocess.Popen([sys.executable, "-c", RECEIVER], stdout=subprocess.PIPE)
    assert receiver.stdout is not None
    url = f"http://127.0.0.1:{int(receiver.stdout.readline())}"
    tmp = tempfile.TemporaryDirectory()
    store = await open_store(os.path.join(tmp.name, "push.sqlite3"))
    lines = []
    try:
        service = PushService(store.push, PushConfig(services=(url,), per_minute=10**9,
                                                     per_address=10**9))
        await service.start()
        rooms = [f"B{i:05d}" for i in range(max(1, args.pushes // 4))]
        for i, room in enumerate(rooms):
            p256dh, auth = _subscription_keys()
            await store.push.subscribe(
                Subscription(f"{url}/p/{i}", p256dh, auth, room, "p1", "en"), "bench", 10**9)
        # encryption and signing alone, as pywebpush does them for one push
        from pywebpush import WebPusher
        subs = [await store.push.subscriptions(room) for room in rooms[:50]]
        cpu0 = time.process_time()
        for sub in subs:
            WebPusher(sub[0].info()).encode(payload(sub[0].room, "Your turn in room X."))
            service.key().sign({"sub": "mailto:a@b.c", "aud": url, "exp": int(time.time()) + 600})
        crypto_ms = (time.process_time() - cpu0) * 1000 / len(subs)
        queue: asyncio.Queue[int] = asyncio.Queue()
        for n in range(args.pushes):
            queue.put_nowait(n)

        async def sender() -> None:
            while not queue.empty():
                n = queue.get_nowait()
                room = rooms[n % len(rooms)]
                await service.deliver(room, Nudge("p1", f"bench:{n}", "push.turn"),
                                      time.monotonic())

        wall0, cpu0 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(sender() for _ in range(args.concurrency)))
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        sent = service.stats.sent
        lines.append(f"send: {sent} pushes in {wall:.2f} s = {sent / wall:.0f} pushes/s "
                     f"({args.concurrency} at once, SQLite store); "
                     f"{1000 * cpu / max(1, sent):.2f} ms of CPU per push, of which "
                     f"{crypto_ms:.2f} ms encryption and VAPID signing; "
                     f"{service.stats.failed} failed")
        await service.close()
    finally:
        await store.close()
        receiver.terminate()
        receiver.wait(10)
        tmp.cleanup()
    return lines


class _Arrivals:
    def __init__(self) -> None:
        self.at: list[float] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with server.lock:
                    server.at.append(time.monotonic())
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def count(self) -> int:
        with self.lock:
            return len(self.at)


async def _latency_figure(args: argparse.Namespace) -> list[str]:
    import httpx
    import websockets

    from atelier.bench.measure import free_port

    arrivals = _Arrivals()
    tmp = tempfile.TemporaryDirectory()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", os.path.join(tmp.name, "bench.sqlite3"), "--quiet",
         "--push-service", arrivals.url, "--max-pushes-per-minute", "100000"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async with httpx.AsyncClient(base_url=base) as http:
            for _ in range(600):
                try:
                    if (await http.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
            room = (await http.post("/api/rooms", json={
                "game": "piet", "settings": {"move_days": 1}})).json()["code"]
            socks = []
            for name, colour in (("Ann", "red"), ("Bob", "blue")):
                ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/{room}")
                await ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
                await ws.send(json.dumps({"t": "join", "name": name, "colour": colour}))
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["t"] == "joined":
                        break
                p256dh, auth = _subscription_keys()
                answer = await http.post(
                    f"/api/rooms/{room}/push",
                    json={"subscription": {"endpoint": f"{arrivals.url}/{name}",
                                           "keys": {"p256dh": p256dh, "auth": auth}}},
                    headers={"Authorization": f"Bearer {msg['token']}"})
                assert answer.status_code == 204, answer.text
                socks.append(ws)
            await socks[0].send(json.dumps({"t": "start"}))
            latencies: list[float] = []
            games_moves = 0
            state: dict[str, Any] = {}
            while len(latencies) < args.moves:
                # the latest state, from either socket (both get every one)
                for ws in socks:
                    while True:
                        try:
                            msg = json.loads(await asyncio.wait_for(ws.recv(), 0.02))
                        except TimeoutError:
                            break
                        if msg["t"] == "state" and msg.get("game"):
                            state = msg["game"]
                if not state or state.get("phase") == "over":
                    if state.get("phase") == "over":
                        break
                    continue
                seat = state["to_move"]
                before = arrivals.count()
                sent = time.monotonic()
                await socks[seat].send(json.dumps({"t": "act", "action": {
                    "type": "move", "move": state["legal_moves"][0]}}))
                # a move after which the same player moves again (a paintbrush) or
                # that ends the game nudges nobody (or both): wait a second at most
                while arrivals.count() == before and time.monotonic() - sent < 1.0:
                    await asyncio.sleep(0.001)
                if arrivals.count() > before and state["phase"] != "over":
                    latencies.append(arrivals.at[before] - sent)
                state = {}
                games_moves += 1
                if games_moves > 4 * args.moves:
                    break
            for ws in socks:
                await ws.close()
        ms = sorted(1000 * x for x in latencies)
        return [f"latency: move sent to its nudge at the push service, {len(ms)} moves: "
                f"median {statistics.median(ms):.1f} ms, "
                f"p90 {ms[int(0.9 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms"]
    finally:
        server.terminate()
        server.wait(10)
        arrivals.httpd.shutdown()
        tmp.cleanup()


def main(args: argparse.Namespace) -> int:
    lines = asyncio.run(_send_figure(args))
    if args.moves > 0:
        lines += asyncio.run(_latency_figure(args))
    load = os.getloadavg()
    lines.append(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
                 f"on {os.cpu_count()} cores")
    print("\n".join(lines))
    return 0
