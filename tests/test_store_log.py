"""The append-only log, the same code on SQLite (a real file) and PostgreSQL (marked)."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from atelier.store import Conflict, InkRow, Store, open_store
from support.server import PG_URL


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    prefix = f"t{secrets.token_hex(4)}_"
    if request.param == "sqlite":
        s = await open_store(db_path=str(tmp_path / "log.sqlite3"), prefix=prefix)
    else:
        s = await open_store(url=PG_URL, prefix=prefix)
    try:
        yield s
    finally:
        await s.drop_tables()
        await s.close()


async def test_events_append_in_order_and_conflict(store: Store) -> None:
    await store.create_room("ABCDEF", "secrets", 1.0, {"seed": 5})
    with pytest.raises(Conflict):
        await store.create_room("ABCDEF", "secrets", 2.0, {"seed": 6})
    await store.append("ABCDEF", 2, "joined", {"player": "p1"}, 2.0)
    await store.append("ABCDEF", 3, "started", {"seats": ["p1"]}, 3.0, status="playing")
    # a second writer with a stale view of the room loses, and nothing changes
    with pytest.raises(Conflict):
        await store.append("ABCDEF", 3, "action", {"x": 1}, 4.0)
    events = await store.load_events("ABCDEF")
    assert [(e.seq, e.kind) for e in events] == [(1, "created"), (2, "joined"), (3, "started")]
    assert events[0].data == {"seed": 5}
    assert [e.seq for e in await store.load_events("ABCDEF", after=2)] == [3]
    assert await store.rooms_with_status("playing") == ["ABCDEF"]
    assert await store.room_exists("ABCDEF") and not await store.room_exists("ZZZZZZ")


async def test_ink_batches_round_trip_and_duplicates_are_skipped(store: Store) -> None:
    await store.create_room("INKINK", "secrets", 1.0, {})
    rows = [("INKINK", InkRow("round-1", seat, n, bytes([seat, n, 0, 255])))
            for seat in (0, 1) for n in range(3)]
    await store.append_ink(rows[:4])
    await store.append_ink(rows[3:])  # row 3 again, as after a failed commit
    got = await store.load_ink("INKINK")
    assert [(r.key, r.seat, r.n, r.data) for r in got] == [
        (r.key, r.seat, r.n, r.data) for _, r in rows]
    assert await store.load_ink("OTHERS") == []


async def test_reopening_sees_everything(tmp_path: Path) -> None:
    path = str(tmp_path / "again.sqlite3")
    s = await open_store(db_path=path)
    await s.create_room("AAAAAA", "secrets", 1.0, {"seed": 1})
    await s.append("AAAAAA", 2, "joined", {"player": "p1"}, 2.0)
    await s.close()
    s = await open_store(db_path=path)
    assert len(await s.load_events("AAAAAA")) == 2
    await s.close()


async def test_a_flush_writes_a_row_per_drawing_and_reads_back_every_batch(store: Store) -> None:
    await store.create_room("PACKED", "secrets", 1.0, {})
    rows = [("PACKED", InkRow("round-1", seat, n, bytes([n % 7]) * (1 + n)))
            for n in range(50) for seat in (0, 1, 2)]
    await store.append_ink(rows[:60])
    await store.append_ink(rows[60:])
    async with store.engine.connect() as conn:
        stored = (await conn.execute(select(func.count()).select_from(store.ink))).scalar()
    assert stored == 2  # one drawing (three canvases), two flushes
    got = await store.load_ink("PACKED")
    assert sorted((r.seat, r.n, r.data) for r in got) == sorted(
        (r.seat, r.n, r.data) for _, r in rows)


async def test_a_retried_flush_keeps_every_batch_once(store: Store) -> None:
    await store.create_room("RETRYS", "secrets", 1.0, {})
    rows = [("RETRYS", InkRow("k", 0, n, bytes([1, n]))) for n in range(10)]
    await store.append_ink(rows[:6])
    await store.append_ink(rows[2:])  # the commit had gone through: written again, and more
    assert [(r.n, r.data) for r in await store.load_ink("RETRYS")] == [
        (r.n, r.data) for _, r in rows]


async def test_ink_tables_of_an_older_release_gain_the_batches_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # the ink table as releases before packing made it
        db.execute("CREATE TABLE ink (room VARCHAR(16), key VARCHAR(64), seat INTEGER, "
                   "n INTEGER, data BLOB NOT NULL, PRIMARY KEY (room, key, seat, n))")
        db.execute("INSERT INTO ink VALUES ('OLDOLD', 'round-1', 0, 0, x'0102')")
    s = await open_store(db_path=str(path))
    try:
        await s.append_ink([("OLDOLD", InkRow("round-1", 0, n, bytes([1, n]))) for n in (1, 2)])
        assert [(r.n, r.data) for r in await s.load_ink("OLDOLD")] == [
            (0, b"\x01\x02"), (1, b"\x01\x01"), (2, b"\x01\x02")]
    finally:
        await s.close()


async def test_processes_opening_one_new_file_together_create_its_tables(tmp_path: Path) -> None:
    # `atelier serve --workers N` starts N processes on one SQLite file at once
    path = str(tmp_path / "together.sqlite3")
    stores = await asyncio.gather(*(open_store(db_path=path) for _ in range(8)))
    try:
        await stores[0].create_room("TOGETH", "secrets", 1.0, {})
        assert await stores[7].room_exists("TOGETH")
    finally:
        for s in stores:
            await s.close()


async def test_runs_of_one_seat_written_by_older_releases_still_read_back(store: Store) -> None:
    """Before 2 Dec 2026 a row held a run of one seat's consecutive batches, each
    after its u16 length (``batches`` = how many): such rows load as they were."""
    await store.create_room("RUNRUN", "secrets", 1.0, {})
    run = [bytes([1, k]) * (k + 1) for k in range(3)]
    data = b"".join(len(b).to_bytes(2, "big") + b for b in run)
    async with store.engine.begin() as conn:
        await conn.execute(store.ink.insert().values(
            room="RUNRUN", key="round-1", seat=2, n=4, data=data, batches=3))
    await store.append_ink([("RUNRUN", InkRow("round-1", 2, 7, b"\x01\x09")),
                            ("RUNRUN", InkRow("round-1", 0, 0, b"\x01\x08"))])
    got = [(r.seat, r.n, r.data) for r in await store.load_ink("RUNRUN")]
    assert got == [(0, 0, b"\x01\x08"), (2, 4, run[0]), (2, 5, run[1]), (2, 6, run[2]),
                   (2, 7, b"\x01\x09")]
