"""``atelier bench crash``: SIGKILL the server while rooms draw, restart it on the
same store, and check that no ink another screen showed is lost.

Each round starts a server (the sketch game; SQLite in a temporary folder, or
``--database-url`` with a table prefix of its own) or keeps the one the last
round restarted, and draws as ``atelier bench ink`` does (``atelier.bench.load``,
real ink from ``atelier.ink.synth``), with ``--spectators`` watching connections
per room besides the players. Every connection records each ink frame it gets
at its place in its drawing: an ``ink_sync`` clears the seats it names, and the
frames that follow (the drawing so far, then every new batch, which the server
relays in a drawer's order) take the places from 0 on. After ``--seconds`` of
drawing the whole process group of the server gets SIGKILL; the clients read
what the kernel still delivers, until their sockets close. The server is then
started again on the same store and a new spectator per room reads the drawings
as any client would get them on connect (``ink_sync`` and its batches), never
the database itself. Every batch a connection received before the kill must be
there, byte for byte at the same place: a screen showed it, so the store must
have had it. Batches the restarted server has that nobody saw, and batches sent
that are neither seen nor kept (in flight at the kill), are printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from atelier.bench.load import Job, LoadProcess, Player
from atelier.bench.measure import drop_tables, free_port, http, process_tree, start_server
from atelier.bench.wsclient import WsClient
from atelier.ink.codec import decode_batch
from atelier.ink.synth import DEVICES, record
from atelier.server.wire.wsframe import BINARY, TEXT

INTERVAL = 0.05
"""Seconds between a player's batches, as the browser sends them."""
PATIENCE = 120.0
"""The longest any condition (a server answering, players seated, sockets closed,
a read back) may take before the benchmark gives up: a loaded machine is slow,
so this only catches a run that is stuck."""
READERS = 8
"""Rooms read back at once after the restart."""
PING_ID = 1

Place = tuple[str, str, int]
"""(room code, drawing key, seat): one drawing."""


@dataclass
class Setup:
    rooms: int = 50
    players: int = 6
    spectators: int = 1
    seconds: float = 5.0
    kills: int = 3
    database_url: str | None = None
    serve_args: list[str] = field(default_factory=list)
    src: str | None = None  # run the server from this source folder (PYTHONPATH)


@dataclass
class Book:
    """The drawings as the connections received them: every batch at its place.

    The first connection to reach a place writes it; the others compare (a
    different batch at the same place is kept in ``conflicts``, checked after the
    restart as well: both connections showed theirs)."""

    drawings: dict[Place, list[bytes]] = field(default_factory=dict)
    conflicts: list[tuple[Place, int, bytes]] = field(default_factory=list)
    unplaced: int = 0  # frames for a seat no ink_sync announced (the protocol says none)

    def see(self, place: Place, index: int, batch: bytes) -> None:
        drawing = self.drawings.setdefault(place, [])
        if index == len(drawing):
            drawing.append(batch)
        elif drawing[index] != batch:
            self.conflicts.append((place, index, batch))


class Screen:
    """What one connection shows: where in its drawing the next frame of each seat goes."""

    def __init__(self, book: Book, code: str) -> None:
        self.book = book
        self.code = code
        self.key: str | None = None
        self.next: dict[int, int] = {}  # seat -> the place of its next frame
        loop = asyncio.get_running_loop()
        self.synced: asyncio.Future[None] = loop.create_future()  # the first ink_sync came
        self.answered: asyncio.Future[None] = loop.create_future()  # the ack of PING_ID
        self.errors: list[str] = []

    def take(self, opcode: int, payload: bytes) -> None:
        if opcode == BINARY:
            self.take_bundle(payload)
        elif opcode == TEXT:
            self.take_text(json.loads(payload))

    def take_text(self, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "ink_sync":
            # those seats' canvases start again: their batches follow from place 0
            if msg["key"] != self.key:
                self.key, self.next = msg["key"], {}
            for seat in msg["seats"]:
                self.next[seat] = 0
            if not self.synced.done():
                self.synced.set_result(None)
        elif kind == "ack" and msg.get("id") == PING_ID and not self.answered.done():
            self.answered.set_result(None)
        elif kind == "error":
            self.errors.append(str(msg.get("code")))

    def take_bundle(self, payload: bytes) -> None:
        """Each entry of a bundle (u16 length, then seat and batch) at its place."""
        i, n = 0, len(payload)
        while i < n:
            size = (payload[i] << 8) | payload[i + 1]
            seat = payload[i + 2]
            at = self.next.get(seat)
            if at is None or self.key is None:
                self.book.unplaced += 1
            else:
                self.book.see((self.code, self.key, seat), at, payload[i + 3 : i + 2 + size])
                self.next[seat] = at + 1
            i += 2 + size


class RecordingPlayer(Player):
    """A load player whose screen also records every ink frame it gets."""

    def __init__(self, proc: CrashLoad, room: int, hint: int, drawing: int) -> None:
        super().__init__(proc, room, hint, drawing)
        self.screen = Screen(proc.book, proc.codes[room])

    def on_message(self, opcode: int, payload: bytes, wire: int) -> None:
        super().on_message(opcode, payload, wire)
        self.screen.take(opcode, payload)


class CrashLoad(LoadProcess):
    """The ink benchmark's players, recording into one book."""

    def __init__(self, job: Job, book: Book) -> None:
        self.book = book
        self.codes = dict(job.rooms)
        super().__init__(job)

    def new_player(self, room: int, hint: int, drawing: int) -> Player:
        return RecordingPlayer(self, room, hint, drawing)


@dataclass
class Server:
    """One server process on the benchmark's store."""

    process: subprocess.Popen[bytes]
    base: str  # http://127.0.0.1:port
    ready_after: float = 0.0  # seconds from its start to its first /healthz answer

    @property
    def ws(self) -> str:
        return self.base.replace("http", "ws", 1)


async def start(setup: Setup, folder: str, store: list[str] | None) -> Server:
    """A server on the store, once it answers /healthz."""
    port = free_port()
    began = time.monotonic()
    process = start_server("atelier", port, folder, setup.serve_args, store=store,
                           own_group=True, src=setup.src)
    server = Server(process, f"http://127.0.0.1:{port}")
    while True:
        with contextlib.suppress(OSError):
            if (await asyncio.to_thread(http, server.base + "/healthz"))[0] == 200:
                server.ready_after = time.monotonic() - began
                return server
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode} before answering")
        if time.monotonic() - began > PATIENCE:
            stop(server)
            raise RuntimeError(f"the server did not answer /healthz in {PATIENCE:.0f} s")
        await asyncio.sleep(0.05)


def kill(server: Server) -> list[int]:
    """SIGKILL to every process of the server at the same instant (its group: with
    ``--workers`` or the engine's processes, a survivor could go on writing), and to
    any that left the group. Returns their ids."""
    pids = process_tree(server.process.pid)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGKILL)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return pids


async def gone(server: Server, pids: Iterable[int]) -> None:
    """Until every killed process is gone (the next server must not share the store
    with one that still lives)."""
    await asyncio.to_thread(server.process.wait, PATIENCE)
    end = time.monotonic() + PATIENCE
    while any(_alive(pid) for pid in pids):
        if time.monotonic() > end:
            raise RuntimeError("a killed server process is still alive")
        await asyncio.sleep(0.02)


def _alive(pid: int) -> bool:
    """Running (a zombie waits only for its parent to read its exit)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def stop(server: Server) -> None:
    """The server stopped as an operator would (SIGTERM), killed if it does not stop."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGTERM)
    try:
        server.process.wait(60)
    except subprocess.TimeoutExpired:
        kill(server)
        server.process.wait(10)


async def until(done: Callable[[], bool], what: str) -> None:
    """Wait for a condition (checked every 20 ms), at most ``PATIENCE`` seconds."""
    end = time.monotonic() + PATIENCE
    while not done():
        if time.monotonic() > end:
            raise RuntimeError(f"{what} took over {PATIENCE:.0f} s")
        await asyncio.sleep(0.02)


async def create_rooms(base: str, n: int) -> list[str]:
    codes = []
    for _ in range(n):
        status, made = await asyncio.to_thread(http, base + "/api/rooms",
                                               {"game": "sketch", "settings": {}})
        if status != 201:
            raise RuntimeError(f"creating a room answered {status}")
        codes.append(made["code"])
    return codes


async def watch(ws: str, screen: Screen, code: str) -> WsClient:
    """A spectator: says hello, takes ink bundles, never joins."""
    parts = urlsplit(ws)
    _, client = await asyncio.get_running_loop().create_connection(
        lambda: WsClient(parts.netloc, f"/ws/{code}?ink=bundles",
                         lambda opcode, payload, _: screen.take(opcode, payload), lambda: None),
        parts.hostname or "127.0.0.1", parts.port or 80)
    await asyncio.wait_for(client.opened, PATIENCE)
    client.send_text(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
    return client


def drawings() -> tuple[list[list[bytes]], list[list[int]]]:
    """The ink benchmark's twelve drawings and their points per batch."""
    made = [record(DEVICES[k % len(DEVICES)], 200, seed=k).batches for k in range(12)]
    return made, [[decode_batch(b).points for b in d] for d in made]


@dataclass
class Drawn:
    """One round's drawing up to the kill."""

    codes: list[str]
    book: Book
    sent: dict[tuple[str, int], int]  # (room, seat) -> batches the drawer sent
    lost_before: int  # connections the server closed before the kill
    errors: list[str]  # refusals the server sent


async def draw_until_killed(setup: Setup, server: Server) -> Drawn:
    """New rooms draw for ``setup.seconds``; then the server is killed, and the
    clients read all the kernel still delivers."""
    codes = await create_rooms(server.base, setup.rooms)
    book = Book()
    made, points = drawings()
    job = Job(server.ws, list(enumerate(codes)), setup.players, INTERVAL, made, points, True)
    proc = CrashLoad(job, book)
    spectators: list[tuple[Screen, WsClient]] = []
    try:
        await proc.connect_all()
        for code in codes:
            for _ in range(setup.spectators):
                screen = Screen(book, code)
                spectators.append((screen, await watch(server.ws, screen, code)))
        if await proc.start_rooms() < len(proc.players):
            raise RuntimeError("not every player was seated within a minute")
        screens = [p.screen for p in proc.players if isinstance(p, RecordingPlayer)]
        screens += [s for s, _ in spectators]
        # every frame from now on has a place: each screen had its room's ink_sync
        await until(lambda: all(s.synced.done() for s in screens), "every screen's ink_sync")
        began = time.monotonic() + 0.2
        ticking = asyncio.ensure_future(proc.tick(began, began, float("inf")))
        await asyncio.sleep(max(0.0, began + setup.seconds - time.monotonic()))
        pids = kill(server)
        lost_before = proc.counts.lost
        proc.stopping = True  # the ticker ends; the sockets' closes are the kill's
        clients = [p.client for p in proc.players if p.client is not None]
        clients += [c for _, c in spectators]
        # what the server wrote before it died still arrives: read until each closes
        await until(lambda: all(c.closed for c in clients), "the clients' sockets closing")
        await ticking
        await gone(server, pids)
    finally:
        proc.close()
        for _, client in spectators:
            client.close()
    sent = {(codes[p.room], p.seat): p.sent_count for p in proc.players}
    errors = [e for s in screens for e in s.errors]
    return Drawn(codes, book, sent, lost_before, errors)


async def read_back(server: Server, codes: list[str]) -> Book:
    """Every room's drawings as a new spectator of the restarted server gets them on
    connect: the ink_sync and its batches, all sent before the answer to a ping."""
    book = Book()
    turns = asyncio.Semaphore(READERS)

    async def one(code: str) -> None:
        async with turns:
            screen = Screen(book, code)
            client = await watch(server.ws, screen, code)
            try:
                client.send_text(json.dumps({"t": "ping", "id": PING_ID}))
                await until(lambda: screen.answered.done() or client.closed,
                            f"reading room {code} back")
            finally:
                client.close()
            if not screen.answered.done():
                raise RuntimeError(f"room {code} closed the socket after the restart "
                                   f"(errors: {screen.errors})")
            if not screen.synced.done():
                raise RuntimeError(f"room {code} sent no ink_sync after the restart")

    await asyncio.gather(*(one(code) for code in codes))
    return book


@dataclass
class Tally:
    """One kill's figures (or the sum of several)."""

    rooms: int = 0
    seen: int = 0  # batches some connection received before the kill
    missing: int = 0  # of those, not at their place after the restart: must be 0
    rooms_missing: int = 0  # rooms with any of them
    kept_unseen: int = 0  # in the restarted drawings, beyond what anyone saw
    sent: int = 0  # batches the drawers sent
    neither: int = 0  # of those, neither seen nor kept (in flight at the kill)
    drawers: int = 0
    conflicts: int = 0  # places where two connections got different batches
    unplaced: int = 0
    lost_before: int = 0
    errors: int = 0
    restarts: list[float] = field(default_factory=list)  # seconds to /healthz

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


def compare(drawn: Drawn, after: Book, restart: float) -> Tally:
    """Every batch seen before the kill against the restarted server's drawings."""
    before = drawn.book
    tally = Tally(rooms=len(drawn.codes), drawers=len(drawn.sent), unplaced=before.unplaced,
                  lost_before=drawn.lost_before, errors=len(drawn.errors),
                  conflicts=len(before.conflicts), restarts=[restart])
    losing: set[str] = set()
    for place, seen in before.drawings.items():
        kept = after.drawings.get(place, [])
        lost = sum(i >= len(kept) or kept[i] != b for i, b in enumerate(seen))
        tally.seen += len(seen)
        tally.missing += lost
        tally.kept_unseen += max(0, len(kept) - len(seen))
        if lost:
            losing.add(place[0])
    for place, index, batch in before.conflicts:
        kept = after.drawings.get(place, [])
        if index >= len(kept) or kept[index] != batch:
            tally.missing += 1
            losing.add(place[0])
    for place, kept in after.drawings.items():
        if place not in before.drawings:  # a drawing nobody saw any of
            tally.kept_unseen += len(kept)
    shown, kept_by = _longest(before), _longest(after)
    for drawer, sent in drawn.sent.items():
        tally.sent += sent
        tally.neither += max(0, sent - max(shown.get(drawer, 0), kept_by.get(drawer, 0)))
    tally.rooms_missing = len(losing)
    return tally


def _longest(book: Book) -> dict[tuple[str, int], int]:
    """(room, seat) -> the batches of its longest drawing in ``book``."""
    found: dict[tuple[str, int], int] = {}
    for (code, _, seat), drawing in book.drawings.items():
        found[(code, seat)] = max(found.get((code, seat), 0), len(drawing))
    return found


def store_args(setup: Setup, prefix: str) -> tuple[list[str] | None, str]:
    """The server's store arguments (None: SQLite in the temporary folder) and
    what to call the store; a PostgreSQL run gets tables of its own (``prefix``)."""
    if setup.database_url is None:
        return None, "SQLite (WAL) in a temporary folder"
    return (["--database-url", setup.database_url, "--table-prefix", prefix],
            f"{setup.database_url}, tables {prefix}*")


async def bench(setup: Setup, say: Callable[[str], None] = lambda _: None) -> list[Tally]:
    """``setup.kills`` rounds of draw, kill, restart, compare; one tally each."""
    tmp = tempfile.TemporaryDirectory()
    prefix = f"crash{secrets.token_hex(4)}_"
    store, where = store_args(setup, prefix)
    say(f"crash benchmark: {setup.rooms} rooms x {setup.players} player"
        f"{'s' if setup.players != 1 else ''} + "
        f"{setup.spectators} spectator{'s' if setup.spectators != 1 else ''}, a batch every "
        f"{INTERVAL * 1000:.0f} ms per player, SIGKILL after {setup.seconds:g} s of drawing, "
        f"{setup.kills} kill{'s' if setup.kills != 1 else ''}; store: {where}")
    tallies: list[Tally] = []
    server: Server | None = None
    try:
        server = await start(setup, tmp.name, store)
        for k in range(1, setup.kills + 1):
            drawn = await draw_until_killed(setup, server)
            server = None  # killed: nothing to stop should its restart fail
            server = await start(setup, tmp.name, store)
            tally = compare(drawn, await read_back(server, drawn.codes), server.ready_after)
            tallies.append(tally)
            say(kill_lines(f"kill {k}", tally))
    finally:
        if server is not None:
            stop(server)
        tmp.cleanup()
        if setup.database_url is not None:
            try:
                await drop_tables(setup.database_url, prefix)
            except Exception as err:  # said, but not in place of what ended the run
                print(f"could not drop the tables {prefix}*: {err!r}", file=sys.stderr)
    return tallies


def kill_lines(title: str, t: Tally) -> str:
    """A tally as printed: the figure that must be 0 first, then what informs."""
    lines = [
        f"{title}: {t.rooms} rooms; batches seen by other screens before the kill: "
        f"{t.seen}; of those missing after the restart: {t.missing}"
        + (f" (in {t.rooms_missing} rooms, about {1000 * INTERVAL * t.missing / t.drawers:.0f}"
           " ms of drawing per drawer)" if t.missing and t.drawers else ""),
        f"  accepted and kept but seen by nobody: {t.kept_unseen}; of {t.sent} batches sent, "
        f"neither seen nor kept (in flight at the kill): {t.neither}",
        "  restart answered /healthz in " + ", ".join(f"{s:.1f}" for s in t.restarts) + " s",
    ]
    if t.conflicts or t.unplaced:
        lines.append(f"  screens that got another batch at the same place: {t.conflicts}; "
                     f"frames for a seat no ink_sync announced: {t.unplaced}")
    if t.lost_before or t.errors:
        lines.append(f"  connections closed before the kill: {t.lost_before}; "
                     f"errors from the server: {t.errors}")
    return "\n".join(lines)


def total(tallies: list[Tally]) -> Tally:
    whole = Tally()
    for t in tallies:
        whole.add(t)
    return whole


def add_parser(sub: Any) -> None:
    ap = sub.add_parser("crash", help="SIGKILL the server mid-drawing, restart it, and "
                        "check that no ink another screen showed is lost")
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--players", type=int, default=6, choices=range(1, 7))
    ap.add_argument("--spectators", type=int, default=1,
                    help="watching connections per room (default 1)")
    ap.add_argument("--seconds", type=float, default=5.0,
                    help="seconds of drawing before each kill (default 5)")
    ap.add_argument("--kills", type=int, default=3, help="rounds of draw, kill, restart, "
                    "compare (default 3)")
    ap.add_argument("--database-url", help="PostgreSQL instead of SQLite, e.g. "
                    "postgresql+asyncpg://postgres@127.0.0.1:5432/test (own tables, dropped "
                    "after the run)")
    ap.add_argument("--serve-arg", action="append", default=[],
                    help="an argument for `atelier serve` (repeatable), "
                         "e.g. --serve-arg=--workers=2")
    ap.add_argument("--src", help="run the server from this source folder (PYTHONPATH)")


def main(args: argparse.Namespace) -> int:
    setup = Setup(args.rooms, args.players, args.spectators, args.seconds, args.kills,
                  args.database_url, args.serve_arg, args.src)
    try:  # uvloop for this run only, as the server has it (no global loop policy)
        import uvloop

        new_loop: Callable[[], asyncio.AbstractEventLoop] | None = uvloop.new_event_loop
    except ImportError:
        new_loop = None
    with asyncio.Runner(loop_factory=new_loop) as runner:
        tallies = runner.run(bench(setup, lambda line: print(line, flush=True)))
    whole = total(tallies)
    print(kill_lines(f"totals over {len(tallies)} kill{'s' if len(tallies) != 1 else ''}",
                     whole))
    if whole.missing:
        print(f"FAILED: {whole.missing} seen batches missing", file=sys.stderr)
        return 1
    return 0

