"""One load process of ``atelier bench ink``: its share of the rooms' players.

Every player is a :class:`WsClient`; one ticker per process sends each
player's next batch (built and masked in advance) on its own phase of the
interval, so the process wakes a few hundred times a second rather than once
per batch. Every frame another player relays back is timed from its send.
Every frame is also counted by who drew it: after the drawing stops, the
process waits for the last ones and reports how many never came (the server
relays a drawer's batches in order, so counts per sender are exact).
The parent process decides when to start and when to measure (monotonic
clock times, shared by all processes of the machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import time
from array import array
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, cast
from urllib.parse import urlsplit

from atelier.bench.wsclient import WsClient, client_frame
from atelier.server.wire.wsframe import BINARY, TEXT

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
SLOTS = 10
"""Phases of the interval that players are spread over."""
DRAIN_SECONDS = 15.0
"""How long the last frames may take to arrive before they count as lost."""


@dataclass
class Job:
    url: str  # ws://host:port
    rooms: list[tuple[int, str]]  # (index, code)
    players: int
    interval: float
    drawings: list[list[bytes]]
    points: list[list[int]]
    bundles: bool


@dataclass
class Counts:
    latencies: array[int] = field(default_factory=lambda: array("I"))  # microseconds
    frames_sent: int = 0
    frames_received: int = 0
    messages_received: int = 0
    payload_sent: int = 0
    points_sent: int = 0
    wire_in: int = 0
    wire_out: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    frames_expected: int = 0  # copies every other seated player should get
    frames_missing: int = 0  # of those, never delivered
    cpu: float = 0.0
    players: int = 0
    seated_at_start: int = 0  # players with a seat when measuring began


class Player:
    def __init__(self, proc: LoadProcess, room: int, hint: int, drawing: int) -> None:
        self.proc = proc
        self.room = room
        self.hint = hint
        self.drawing = drawing
        self.sent = proc.sent[room]
        self.seat = -1
        self.next = 0
        self.sent_count = 0  # batches sent since the drawing began
        self.got = [0] * 256  # frames received, by the seat that drew them
        self.joined: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.seated: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.client: WsClient | None = None

    def on_message(self, opcode: int, payload: bytes, wire: int) -> None:
        now = time.monotonic()
        proc = self.proc
        counts = proc.counts
        if opcode == BINARY:
            got_by_seat = self.got
            measuring = proc.t0 <= now < proc.t1
            if not proc.job.bundles:
                got_by_seat[payload[0]] += 1
                t = self.sent.get(payload) if measuring else None
                if t is not None:
                    counts.latencies.append(int((now - t) * 1e6))
                    counts.frames_received += 1
                    counts.messages_received += 1
                    counts.wire_out += wire
                return
            # one pass: count each frame by its drawer and, while measuring, time
            # it (a memoryview slice is looked up by content without a copy)
            sent, view, latencies = self.sent, memoryview(payload), counts.latencies
            i, n, got = 0, len(payload), 0
            while i < n:
                size = (payload[i] << 8) | payload[i + 1]
                got_by_seat[payload[i + 2]] += 1
                if measuring:
                    t = sent.get(cast(bytes, view[i + 2 : i + 2 + size]))
                    if t is not None:
                        latencies.append(int((now - t) * 1e6))
                        got += 1
                i += 2 + size
            if got:
                counts.frames_received += got
                counts.messages_received += 1
                counts.wire_out += wire
            return
        if opcode != TEXT:
            return
        msg = json.loads(payload)
        kind = msg.get("t")
        if kind == "state" and msg["you"]["seat"] is not None:
            self.seat = msg["you"]["seat"]
            if not self.seated.done():
                self.seated.set_result(None)
        elif kind == "joined":
            if not self.joined.done():
                self.joined.set_result(None)
        elif kind == "error":
            counts.errors += 1
            code = str(msg.get("code"))
            counts.error_codes[code] = counts.error_codes.get(code, 0) + 1

    def on_lost(self) -> None:
        if not self.proc.stopping:
            self.proc.counts.lost += 1

    async def connect(self, code: str) -> None:
        job = self.proc.job
        parts = urlsplit(job.url)
        path = f"/ws/{code}" + ("?ink=bundles" if job.bundles else "")
        loop = asyncio.get_running_loop()
        _, client = await loop.create_connection(
            lambda: WsClient(parts.netloc, path, self.on_message, self.on_lost),
            parts.hostname or "127.0.0.1", parts.port or 80,
        )
        await asyncio.wait_for(client.opened, 30)
        self.client = client
        client.send_text(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        client.send_text(json.dumps({"t": "join", "name": f"P{self.hint}",
                                     "colour": COLOURS[self.hint]}))
        await asyncio.wait_for(self.joined, 30)

    def send_next(self, now: float) -> None:
        proc = self.proc
        if self.seat < 0 or self.client is None or self.client.closed:
            return
        i = self.next % len(proc.frames[self.drawing])
        self.next += 1
        batch = proc.job.drawings[self.drawing][i]
        self.sent[bytes([self.seat]) + batch] = now
        self.client.write(proc.frames[self.drawing][i])
        self.sent_count += 1
        if proc.t0 <= now < proc.t1:
            c = proc.counts
            c.frames_sent += 1
            c.payload_sent += len(batch)
            c.points_sent += proc.job.points[self.drawing][i]
            c.wire_in += len(proc.frames[self.drawing][i])


class LoadProcess:
    def __init__(self, job: Job) -> None:
        self.job = job
        self.counts = Counts()
        self.sent: dict[int, dict[bytes, float]] = {r: {} for r, _ in job.rooms}
        # every batch framed and masked once
        self.frames = [[client_frame(BINARY, b, b"\x5a\xa5\x3c\xc3") for b in d]
                       for d in job.drawings]
        self.players: list[Player] = []
        self.t0 = self.t1 = float("inf")
        self.stopping = False

    def new_player(self, room: int, hint: int, drawing: int) -> Player:
        """One player (``atelier bench crash`` makes ones that also record their ink)."""
        return Player(self, room, hint, drawing)

    async def connect_all(self) -> None:
        job = self.job
        waits = []
        for r, code in job.rooms:
            for s in range(job.players):
                player = self.new_player(r, s, (r * job.players + s) % len(job.drawings))
                self.players.append(player)
                if s == 0:  # the first to join is the host
                    await player.connect(code)
                else:
                    waits.append(asyncio.ensure_future(player.connect(code)))
            await asyncio.sleep(0.005)  # do not open hundreds of sockets in one instant
        await asyncio.gather(*waits)

    async def start_rooms(self) -> int:
        """Every host starts its room; the players seated (within a minute)."""
        for p in self.players:
            if p.hint == 0 and p.client is not None:
                p.client.send_text(json.dumps({"t": "start"}))
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(p.seated for p in self.players)), 60)
        return sum(p.seat >= 0 for p in self.players)

    async def draw(self, start: float, t0: float, t1: float) -> None:
        """Draw from ``start``, measure from ``t0`` to ``t1``, then stop and wait for
        the last frames."""
        await self.tick(start, t0, t1)
        await self.drain()

    async def tick(self, start: float, t0: float, t1: float) -> None:
        """Send every player's batches from ``start``, measuring from ``t0``, until
        ``t1`` or until ``close`` (``atelier bench crash`` kills the server while
        everyone draws, then stops)."""
        self.t0, self.t1 = t0, t1
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        slots: list[list[Player]] = [[] for _ in range(SLOTS)]
        for p in self.players:
            slots[(p.room * self.job.players + p.hint) % SLOTS].append(p)
        step = self.job.interval / SLOTS
        base = time.monotonic()
        done = -1
        cpu0 = cpu1 = None
        while True:
            now = time.monotonic()
            if cpu0 is None and now >= t0:
                cpu0 = _cpu()
                self.counts.seated_at_start = sum(p.seat >= 0 for p in self.players)
            if now >= t1 or self.stopping:
                cpu1 = _cpu()
                break
            due = int((now - base) / step)
            # a hand does not draw faster to catch up after a stall
            for k in range(max(done + 1, due - SLOTS + 1), due + 1):
                for p in slots[k % SLOTS]:
                    p.send_next(now)
            done = due
            await asyncio.sleep(max(0.0, base + (due + 1) * step - time.monotonic()))
        self.counts.cpu = cpu1 - (cpu0 if cpu0 is not None else cpu1)
        self.counts.players = len(self.players)

    def missing(self) -> tuple[int, int]:
        """(frames every seated player should have had from the others, of those
        not received)."""
        by_room: dict[int, list[Player]] = {}
        for p in self.players:
            if p.seat >= 0:
                by_room.setdefault(p.room, []).append(p)
        expected = missing = 0
        for room in by_room.values():
            for sender in room:
                for receiver in room:
                    if receiver is not sender:
                        expected += sender.sent_count
                        missing += max(0, sender.sent_count - receiver.got[sender.seat])
        return expected, missing

    async def drain(self, limit: float = DRAIN_SECONDS) -> None:
        """Wait until every frame sent has come to every other player of its room,
        or ``limit`` seconds; then count those that did not."""
        end = time.monotonic() + limit
        while self.missing()[1] and time.monotonic() < end:
            await asyncio.sleep(0.1)
        self.counts.frames_expected, self.counts.frames_missing = self.missing()

    def close(self) -> None:
        self.stopping = True
        for p in self.players:
            if p.client is not None:
                p.client.close()


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def _serve(pipe: Connection, job: Job) -> None:
    proc = LoadProcess(job)
    try:
        await proc.connect_all()
        pipe.send(("ready", len(proc.players)))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, pipe.recv)
        pipe.send(("seated", await proc.start_rooms()))
        _, start, t0, t1 = await loop.run_in_executor(None, pipe.recv)
        await proc.draw(start, t0, t1)
    finally:
        proc.close()
    c = proc.counts
    pipe.send(("done", {**c.__dict__, "latencies": c.latencies.tobytes()}))


def run(pipe: Connection, job: Job) -> None:
    """The body of one load process."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(_serve(pipe, job))
    except Exception as exc:
        pipe.send(("failed", repr(exc)))


def merge(results: list[dict[str, Any]]) -> Counts:
    total = Counts()
    for r in results:
        lat = array("I")
        lat.frombytes(r.pop("latencies"))
        total.latencies.extend(lat)
        for code, n in r.pop("error_codes").items():
            total.error_codes[code] = total.error_codes.get(code, 0) + n
        for name, value in r.items():
            setattr(total, name, getattr(total, name) + value)
    return total
