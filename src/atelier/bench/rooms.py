"""``atelier bench rooms``: the server's memory with many finished rooms loaded,
then after they are unloaded (``atelier serve --unload-idle``).

Starts a server process (SQLite in a temporary directory, the sketch game), and
plays ``--rooms`` rooms to the end over real WebSockets: a player joins,
starts, draws ``--strokes`` strokes of real ink (atelier.ink.synth) and ends
the game. Every player stays connected until all rooms are over, so all of them
are in memory at once when the figure is taken; then everyone leaves and the
figure is taken again once /healthz says the rooms were unloaded. A second
generation of new rooms shows whether the memory is reused (Python keeps freed
memory for itself rather than giving it back to the system).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any
from urllib.parse import urlsplit

from atelier.bench.measure import UNLIMITED, free_port, http, proc_rss_mib
from atelier.bench.wsclient import WsClient, client_frame
from atelier.ink.synth import DEVICES, record
from atelier.server.wire.wsframe import BINARY, TEXT


class Player:
    """One player's connection (the benchmark's own WebSocket client)."""

    def __init__(self) -> None:
        self.texts: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client: WsClient | None = None

    def on_message(self, opcode: int, payload: bytes, _wire: int) -> None:
        if opcode == TEXT:
            self.texts.put_nowait(json.loads(payload))

    async def reply(self, wanted: str, rid: int | None = None) -> dict[str, Any]:
        while True:
            msg = await asyncio.wait_for(self.texts.get(), 60)
            if msg["t"] == "error" and (rid is None or msg.get("id") == rid):
                raise RuntimeError(f"refused: {msg}")
            if msg["t"] == wanted and (rid is None or msg.get("id") == rid):
                return msg


async def play(base: str, code: str, batches: list[bytes]) -> WsClient:
    """One room played to its end; the connection is returned open."""
    parts = urlsplit(base)
    player = Player()
    _, client = await asyncio.get_running_loop().create_connection(
        lambda: WsClient(parts.netloc, f"/ws/{code}", player.on_message, lambda: None),
        parts.hostname or "127.0.0.1", parts.port or 80)
    await asyncio.wait_for(client.opened, 60)
    client.send_text(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
    client.send_text(json.dumps({"t": "join", "name": "Ann", "colour": "red"}))
    await player.reply("joined")
    client.send_text(json.dumps({"t": "start", "id": 1}))
    await player.reply("ack", 1)
    for b in batches:
        client.write(client_frame(BINARY, b))
    client.send_text(json.dumps({"t": "next", "id": 2}))
    await player.reply("ack", 2)
    return client


async def get(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    return await asyncio.to_thread(http, url, body)


async def run(args: argparse.Namespace) -> int:
    tmp = tempfile.TemporaryDirectory()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", os.path.join(tmp.name, "bench.sqlite3"), "--quiet",
         "--extra-game", "atelier.bench.sketch:GAME", "--unload-idle", str(args.unload_idle),
         *UNLIMITED],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    conns: list[WsClient] = []
    lines: list[str] = []
    try:
        for _ in range(1200):
            try:
                if (await get(base + "/healthz"))[0] == 200:
                    break
            except OSError:
                pass
            await asyncio.sleep(0.05)
        rss0 = proc_rss_mib(server.pid)
        drawing = record(DEVICES[0], args.strokes, seed=1).batches
        ink_bytes = sum(len(b) for b in drawing)
        lines.append(
            f"rooms benchmark: {args.generations} x {args.rooms} rooms played to the end "
            f"({args.strokes} strokes: {len(drawing)} ink batches, {ink_bytes / 1024:.1f} KiB "
            f"each); --unload-idle {args.unload_idle:g}")
        lines.append(f"server RSS at start: {rss0:.1f} MiB")
        gate = asyncio.Semaphore(args.parallel)

        async def one(code: str) -> None:
            async with gate:
                conns.append(await play(base, code, drawing))

        first = ""
        for gen in range(1, args.generations + 1):
            t0 = time.monotonic()
            codes = []
            for _ in range(args.rooms):
                status, made = await get(base + "/api/rooms", {"game": "sketch"})
                if status != 201:
                    raise RuntimeError(f"creating a room answered {status}")
                codes.append(made["code"])
            first = first or codes[0]
            await asyncio.gather(*(one(c) for c in codes))
            played = time.monotonic() - t0
            loaded = (await get(base + "/healthz"))[1]["rooms_loaded"]
            rss1 = proc_rss_mib(server.pid)
            for ws in conns:
                ws.close()
            conns.clear()
            t1 = time.monotonic()
            while (await get(base + "/healthz"))[1]["rooms_loaded"] > 0:
                await asyncio.sleep(0.2)
            gone_in = time.monotonic() - t1
            rss2 = proc_rss_mib(server.pid)
            lines.append(
                f"generation {gen}: {loaded} finished rooms loaded (each with its player "
                f"still connected; played in {played:.0f} s): RSS {rss1:.1f} MiB "
                f"(+{rss1 - rss0:.1f} MiB since the start, "
                f"{(rss1 - rss0) / args.rooms * 1024:.0f} KiB per room)")
            lines.append(
                f"generation {gen}: all unloaded {gone_in:.1f} s after the players left: "
                f"RSS {rss2:.1f} MiB")
        t2 = time.monotonic()
        back = (await get(f"{base}/api/rooms/{first}"))[1]
        reload_ms = (time.monotonic() - t2) * 1000
        if back.get("phase") != "over":
            raise RuntimeError(f"an unloaded room came back wrong: {back}")
        lines.append(f"a visit to an unloaded room (GET /api/rooms/CODE, read back from "
                     f"the log): {reload_ms:.0f} ms")
    finally:
        for ws in conns:
            ws.close()
        server.terminate()
        server.wait(30)
        tmp.cleanup()
    print("\n".join(lines))
    return 0


def add_parser(sub: Any) -> None:
    rooms = sub.add_parser("rooms", help="memory with many finished rooms, and after unloading")
    rooms.add_argument("--rooms", type=int, default=1000)
    rooms.add_argument("--strokes", type=int, default=12,
                       help="strokes drawn in each room (default 12)")
    rooms.add_argument("--generations", type=int, default=2,
                       help="rounds of new rooms; the memory of unloaded ones is reused")
    rooms.add_argument("--unload-idle", type=float, default=2.0,
                       help="the server's --unload-idle (default 2 s)")
    rooms.add_argument("--parallel", type=int, default=20,
                       help="rooms played at the same time (default 20)")


def main(args: argparse.Namespace) -> int:
    return asyncio.run(run(args))
