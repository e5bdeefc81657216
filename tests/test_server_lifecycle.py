"""The server's life cycle: a peer's disconnect never kills it, and a clean stop
(SIGTERM) writes every ink batch it accepted, within a bounded time, and says so."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import websockets

from atelier.games.registry import get_game
from atelier.hub import open_hub
from atelier.ink.synth import DEVICES, record
from atelier.server.room.rooms import Rooms
from atelier.store import InkRow, open_store
from support.client import Client, open_client, seated_room
from support.log import stored_ink
from support.server import ServerProcess, wait_until

SIGPIPE_BIT = 1 << (signal.SIGPIPE - 1)


def ignored_signals(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigIgn:"):
                return int(line.split()[1], 16)
    raise AssertionError("no SigIgn line")


def test_serve_keeps_sigpipe_ignored(server_factory: Callable[..., ServerProcess]) -> None:
    """With SIGPIPE at its default, a write to a socket the peer has reset kills
    the server silently (exit 141); ignored, it is an EPIPE the server handles."""
    srv = server_factory()
    assert srv.proc is not None
    assert ignored_signals(srv.proc.pid) & SIGPIPE_BIT


def test_printing_commands_take_sigpipe_default() -> None:
    """The commands that print still take SIGPIPE's default: `... | head` ends them quietly."""
    reader = subprocess.Popen(  # waits on its stdin, so its signals can be read
        [sys.executable, "-m", "atelier", "decks", "custom", "-"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        blocked = SIGPIPE_BIT
        deadline = time.monotonic() + 30
        while blocked and time.monotonic() < deadline and reader.poll() is None:
            blocked = ignored_signals(reader.pid) & SIGPIPE_BIT  # until main() has run
            time.sleep(0.01)
        assert not blocked
    finally:
        assert reader.stdin is not None
        reader.stdin.close()
        reader.wait(30)


async def test_sigterm_right_after_ink_writes_all_of_it(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory()
    code, players = await seated_room(clients, srv, n=2)
    sent: list[list[bytes]] = []
    for i, player in enumerate(players):
        batches = record(DEVICES[i], 60, seed=30 + i).batches[:100]
        for b in batches:
            await player.send(b)
        sent.append(batches)
    for player in players:  # frames are handled in order: the ack means all ink was accepted
        assert (await player.request({"t": "ping"}))["t"] == "ack"
    assert srv.proc is not None
    srv.proc.send_signal(signal.SIGTERM)
    # uvicorn stops cleanly, then re-raises the signal it caught
    assert srv.proc.wait(20) in (0, -signal.SIGTERM)
    assert "stopped: " in srv.log() and "could not be written" not in srv.log()
    srv.start()
    for i, player in enumerate(players):
        back = await open_client(clients, srv, code, token=player.token)
        assert (await back.expect("ink_sync", timeout=20))["seats"] == [i]
        got = [(await back.expect("bin", timeout=20))[1:] for _ in sent[i]]
        assert got == sent[i]


async def test_close_in_the_middle_of_a_write_keeps_the_batch(tmp_path: Path) -> None:
    """Rooms.close() while the flusher is writing: that write completes (it used to be
    cancelled, and every row of it lost)."""
    store = await open_store(str(tmp_path / "ink.sqlite3"))
    rooms = Rooms(store, await open_hub(None), get_game)
    await rooms.start()
    rows = [InkRow("round-1", seat, n, bytes([n % 256]) * 200)
            for seat in range(4) for n in range(10_000)]
    rooms.ink.pending_ink.extend(("ABCDEF", row) for row in rows)
    while rooms.ink.pending_ink:  # the flusher has taken them: it is writing now
        await asyncio.sleep(0.001)
    await rooms.close()
    assert rooms.ink.ink_written == len(rows)
    assert len(await store.load_ink("ABCDEF")) == len(rows)
    await store.close()


async def test_sigterm_under_load_stops_in_bounded_time_and_keeps_order(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    """Two players drawing as fast as they may when SIGTERM comes: the server
    stops (no "database is locked" hang), and what it kept is what was sent, in order."""
    srv = server_factory()
    code, players = await seated_room(clients, srv, n=2)
    sent = [record(DEVICES[i], 40, seed=50 + i).batches for i in range(2)]

    async def draw(player: Client, batches: list[bytes]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            for b in batches:
                await player.send(b)
                await asyncio.sleep(0.02)  # a hand's pace, within the rate limit

    drawing = [asyncio.create_task(draw(p, s)) for p, s in zip(players, sent, strict=True)]
    db = srv.db
    assert db is not None and srv.proc is not None
    await wait_until(lambda: len(stored_ink(db, code)) >= 40, what="ink on disk")
    srv.proc.send_signal(signal.SIGTERM)
    assert await asyncio.to_thread(srv.proc.wait, 30) in (0, -signal.SIGTERM)
    for task in drawing:
        task.cancel()
    log = srv.log()
    assert "stopped: " in log and "could not be written" not in log
    assert "database is locked" not in log and "Traceback" not in log
    stored = len(stored_ink(db, code))
    srv.start()
    kept = 0
    for i, player in enumerate(players):
        back = await open_client(clients, srv, code, token=player.token)
        assert (await back.expect("ink_sync", timeout=20))["seats"] == [i]
        await back.sync()
        got = [m[1:] for m in back.pending if isinstance(m, bytes)]
        assert got == sent[i][: len(got)]
        kept += len(got)
    assert kept == stored
