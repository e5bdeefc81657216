"""Backups: ``atelier backup`` while rooms are being played over WebSockets,
``--check``, ``atelier restore`` into a fresh server: every room and every
drawing comes back where it was. PostgreSQL: the pg_dump/pg_restore commands
docs/deploy.md gives, run against the local server."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from atelier.games.registry import register
from atelier.store import InkRow, open_store
from support.cli import ENV, GAME, atelier
from support.client import Client, open_client, seated_room
from support.ink import stroke
from support.server import PG_URL, ServerProcess, wait_until


def stored_batches(path: str) -> int:
    with sqlite3.connect(path) as con:
        row = con.execute("SELECT COALESCE(SUM(ABS(batches)), 0) FROM ink").fetchone()
    return int(row[0])


async def ink_of(path: str | None, url: str | None = None) -> dict[tuple[str, str, int], bytes]:
    """Every stored batch: (room, key, seat) -> the batches in order, joined."""
    register(GAME)
    store = await open_store(path, url)
    try:
        codes = [r.code for r in await store.list_rooms(limit=1000)]
        found: dict[tuple[str, str, int], list[InkRow]] = {}
        for code in codes:
            for row in await store.load_ink(code):
                found.setdefault((code, row.key, row.seat), []).append(row)
    finally:
        await store.close()
    return {k: b"|".join(r.data for r in rows) for k, rows in found.items()}


async def draw_until(player: Client, stop: asyncio.Event, start_t: int) -> int:
    """A stroke every 20 ms until ``stop``: the load the backup runs under."""
    sent, t = 0, start_t
    while not stop.is_set():
        await player.send(stroke(x=100 + sent % 50, t=t))
        sent += 1
        t += 200
        await asyncio.sleep(0.02)
    return sent


async def own_ink(client: Client, seat: int) -> list[bytes]:
    """The ink frames of ``seat`` a reconnected player was sent, after a round trip."""
    await client.sync()
    return [m[1:] for m in client.log if isinstance(m, bytes) and m[0] == seat]


async def test_backup_under_load_then_restore_brings_every_room_and_drawing_back(
        server_factory: Callable[..., ServerProcess], clients: list[Client],
        tmp_path: Path) -> None:
    a_db, backup, c_db = (str(tmp_path / n) for n in ("a.sqlite3", "b.sqlite3", "c.sqlite3"))
    a = server_factory(db=a_db)
    rooms = [await seated_room(clients, a, n=2) for _ in range(4)]
    players = [p for _, ps in rooms for p in ps]
    words = {}
    for code, ps in rooms:
        for seat, p in enumerate(ps):
            seen = [m for m in p.log if isinstance(m, dict) and m["t"] == "state" and m["game"]]
            words[(code, seat)] = seen[-1]["game"]["my_word"]
    # drawings made before the backup: acknowledged and written
    for p in players:
        for i in range(5):
            await p.send(stroke(t=i * 200))
        await p.sync()
    await wait_until(lambda: stored_batches(a_db) >= 5 * len(players), 20, "ink written")

    stop = asyncio.Event()
    load = [asyncio.create_task(draw_until(p, stop, 10_000)) for p in players]
    await wait_until(lambda: stored_batches(a_db) >= 10 * len(players), 30, "load under way")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "atelier", "backup", backup, "--db", a_db, "--extra-game", GAME,
        env=ENV, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    during = stored_batches(a_db)
    stop.set()
    sent = await asyncio.gather(*load)
    assert proc.returncode == 0, err.decode()
    assert "4 rooms (4 playing)" in out.decode(), out.decode()
    assert min(sent) > 0
    for p in players:  # the server is still fine after the backup
        await p.sync()
    a.stop()

    checked = atelier("backup", "--check", backup, "--extra-game", GAME)
    assert checked.returncode == 0, checked.stderr
    assert "opens: 4 rooms" in checked.stdout
    assert atelier("restore", backup, "--db", c_db, "--extra-game", GAME).returncode == 0
    # a second restore over a store in use is refused without --replace
    refused = atelier("restore", backup, "--db", c_db, "--extra-game", GAME)
    assert refused.returncode == 1 and "--replace" in refused.stderr

    in_backup = await ink_of(backup)
    at_the_end = await ink_of(a_db)
    assert len(in_backup) == 8  # every drawing (4 rooms x 2 seats)
    for where, ink in in_backup.items():
        # a consistent snapshot: each drawing's batches as they were at one moment
        assert at_the_end[where].startswith(ink), where
        assert ink.count(b"|") + 1 >= 5, where  # at least what was written before
    assert sum(v.count(b"|") + 1 for v in in_backup.values()) <= during

    b = server_factory(db=c_db)
    for code, ps in rooms:
        for seat, p in enumerate(ps):
            again = await open_client(clients, b, code, token=p.token)
            state = await again.state(lambda m: m["game"] is not None)
            assert state["room"]["phase"] == "playing"
            assert state["you"]["seat"] == seat
            assert state["game"]["my_word"] == words[(code, seat)]
            frames = await own_ink(again, seat)
            assert b"|".join(frames) == in_backup[(code, "round-1", seat)]


def test_check_refuses_what_is_not_a_backup(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    result = atelier("backup", "--check", str(junk))
    assert result.returncode == 1 and "not a readable Atelier database" in result.stderr
    empty = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty).close()
    result = atelier("backup", "--check", str(empty))
    assert result.returncode == 1 and "no table rooms" in result.stderr


def _pg(database: str) -> str:
    return PG_URL.rsplit("/", 1)[0] + "/" + database


async def _admin(sql: str) -> None:
    engine = create_async_engine(_pg("test").replace("postgresql://", "postgresql+asyncpg://"),
                                 isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.mark.postgres
async def test_pg_dump_and_pg_restore_as_docs_say(
        server_factory: Callable[..., ServerProcess], clients: list[Client],
        tmp_path: Path) -> None:
    suffix = secrets.token_hex(4)
    source, target = f"atelier_src_{suffix}", f"atelier_restored_{suffix}"
    dump = str(tmp_path / "atelier.dump")
    await _admin(f"CREATE DATABASE {source}")
    await _admin(f"CREATE DATABASE {target}")
    try:
        a = server_factory("--database-url", _pg(source), db=None)
        code, players = await seated_room(clients, a, n=2)
        for p in players:
            await p.send(stroke())
            await p.sync()
        want = {}
        for _ in range(200):  # the ink is written within a flush (0.25 s)
            want = await ink_of(None, _pg(source))
            if len(want) == 2:
                break
            await asyncio.sleep(0.05)
        assert len(want) == 2
        # the commands of docs/deploy.md, "Backups"
        done = subprocess.run(["pg_dump", "--format=custom", "--file", dump, _pg(source)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        a.stop()
        done = subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner",
                               "--dbname", _pg(target), dump],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert await ink_of(None, _pg(target)) == want
        b = server_factory("--database-url", _pg(target), db=None)
        again = await open_client(clients, b, code, token=players[1].token)
        state = await again.state(lambda m: m["game"] is not None)
        assert state["room"]["phase"] == "playing" and state["you"]["seat"] == 1
        assert b"|".join(await own_ink(again, 1)) == want[(code, "round-1", 1)]
        b.stop()
    finally:
        for c in clients:
            await c.close()
        for database in (source, target):
            await _admin(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
