"""One SQLAlchemy async code path for SQLite (aiosqlite) and PostgreSQL (asyncpg).

Three tables, all append-only except the small ``rooms`` index:

- ``rooms``: one row per room (code, game, status), so the server can find
  the rooms whose timers must resume after a restart;
- ``events``: the room's log, primary key (room, seq). The key is what makes
  several server processes safe: two of them appending the same seq conflict,
  and the loser reloads the tail and retries (optimistic concurrency);
- ``ink``: stroke batches per (room, drawing key, seat, n).

A ``prefix`` names the tables, so test runs and deployments can share a database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sqlite3
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import (
    Column,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from atelier.store.push import PushStore, PushTables

INK_WRITE_PATIENCE = 1.0
"""Seconds SQLite's ink write may wait for the file's lock (on the event loop)."""
_DDL_LOCK = 0x41_74_65_6C  # "Atel": the advisory lock key for creating tables


class Conflict(Exception):
    """Another writer appended this seq first (or the room code exists)."""


@dataclass(frozen=True)
class EventRow:
    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True)
class RoomRow:
    code: str
    game: str
    status: str  # lobby, playing, over, or closed (CLOSED)
    created: float


CLOSED = "closed"
"""The status of a room an operator closed: no server loads it again."""


class InkRow(NamedTuple):
    """One ink batch to store: a tuple, made for every batch the server takes."""

    key: str
    seat: int
    n: int
    data: bytes


def _tables(prefix: str) -> tuple[MetaData, Table, Table, Table]:
    meta = MetaData()
    rooms = Table(
        f"{prefix}rooms",
        meta,
        Column("code", String(16), primary_key=True),
        Column("game", String(40), nullable=False),
        Column("status", String(16), nullable=False),
        Column("created", Float, nullable=False),
        # a correspondence game's next moment to act on (its quarter-time nudge,
        # then its loss on time), so a room out of memory is found when it is due
        Column("wake", Float, nullable=True),
    )
    events = Table(
        f"{prefix}events",
        meta,
        Column("room", String(16), primary_key=True),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("kind", String(24), nullable=False),
        Column("data", Text, nullable=False),
        Column("at", Float, nullable=False),
    )
    ink = Table(
        f"{prefix}ink",
        meta,
        Column("room", String(16), primary_key=True),
        Column("key", String(64), primary_key=True),
        Column("seat", Integer, primary_key=True, autoincrement=False),
        Column("n", Integer, primary_key=True, autoincrement=False),
        Column("data", LargeBinary, nullable=False),
        # how many batches ``data`` holds (see pack_ink); 1 for rows of older releases
        Column("batches", Integer, nullable=False, server_default="1"),
    )
    return meta, rooms, events, ink


def database_url(db_path: str | None = None, url: str | None = None) -> str:
    """The SQLAlchemy async URL for a file path or a plain database URL."""
    if url:
        if url.startswith(("postgresql://", "postgres://")):
            return "postgresql+asyncpg://" + url.split("://", 1)[1]
        return url
    path = os.path.abspath(db_path or "data/atelier.sqlite3")
    return f"sqlite+aiosqlite:///{path}"


class Store:
    def __init__(self, engine: AsyncEngine, prefix: str = "",
                 sqlite_path: str | None = None) -> None:
        self.engine = engine
        self.prefix = prefix
        self.sqlite_path = sqlite_path
        self._ink_db: sqlite3.Connection | None = None  # SQLite's ink writes (append_ink)
        self.meta, self.rooms, self.events, self.ink = _tables(prefix)
        # the ink table's INSERT in the driver's own placeholders (append_ink)
        marks = ("?",) * 6 if engine.dialect.paramstyle == "qmark" else tuple(
            f"${k}" for k in range(1, 7))
        self._ink_insert = (f'INSERT INTO "{self.ink.name}" (room, key, seat, n, data, '
                            f"batches) VALUES ({', '.join(marks)})")
        push_tables = PushTables(self.meta, prefix)
        # the engine's answers (a game's review), kept so they outlive the process
        self.advice = Table(
            f"{prefix}advice",
            self.meta,
            Column("key", String(64), primary_key=True),
            Column("data", Text, nullable=False),
            Column("at", Float, nullable=False),
        )
        # SQLite has one writer at a time: queue our own writes rather than
        # letting them fight over the file lock. PostgreSQL takes them together.
        self._write_lock: contextlib.AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext())
        self.push = PushStore(engine, push_tables, self._write_lock)

    async def create_tables(self) -> None:
        for attempt in range(20):
            try:
                async with self.engine.begin() as conn:
                    if self.engine.dialect.name == "postgresql":
                        # Processes started together would race in CREATE TABLE (a
                        # unique violation in pg_type): one at a time, the rest
                        # then find the tables there. The lock ends with the
                        # transaction.
                        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                           {"key": _DDL_LOCK})
                    await conn.run_sync(self.meta.create_all)
                    await conn.run_sync(self._add_missing_columns)
                return
            except OperationalError as err:
                # SQLite has no such lock: workers started together on one file
                # may both see no table (the second CREATE fails), or find the
                # other's write under way (SQLite answers "locked" at once rather
                # than wait, as waiting could deadlock). Look again.
                if not _sqlite_race(err) or attempt == 19:
                    raise
                await asyncio.sleep(0.02 + random.random() * 0.05)

    def _add_missing_columns(self, conn: Any) -> None:
        """Tables made by an older release gain the columns added since."""
        have = {c["name"] for c in inspect(conn).get_columns(self.ink.name)}
        if "batches" not in have:
            conn.execute(text(f'ALTER TABLE "{self.ink.name}" '
                              "ADD COLUMN batches INTEGER NOT NULL DEFAULT 1"))
        if "wake" not in {c["name"] for c in inspect(conn).get_columns(self.rooms.name)}:
            conn.execute(text(f'ALTER TABLE "{self.rooms.name}" ADD COLUMN wake FLOAT'))

    async def drop_tables(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(self.meta.drop_all)

    async def close(self) -> None:
        if self._ink_db is not None:
            self._ink_db.close()
            self._ink_db = None
        await self.engine.dispose()

    async def create_room(self, code: str, game: str, at: float, first: dict[str, Any]) -> None:
        """The room row and its first event (seq 1), atomically; Conflict if the code exists."""
        async with self._write_lock:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(
                        insert(self.rooms).values(code=code, game=game, status="lobby", created=at)
                    )
                    await conn.execute(
                        insert(self.events).values(
                            room=code, seq=1, kind="created", data=json.dumps(first), at=at
                        )
                    )
            except IntegrityError as exc:
                raise Conflict(code) from exc

    async def append(
        self, code: str, seq: int, kind: str, data: dict[str, Any], at: float,
        status: str | None = None,
    ) -> None:
        """Append event ``seq``; Conflict when another writer took that seq."""
        async with self._write_lock:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(
                        insert(self.events).values(
                            room=code, seq=seq, kind=kind, data=json.dumps(data), at=at
                        )
                    )
                    if status is not None:
                        # a closed room stays closed, whatever a stale server writes
                        await conn.execute(
                            update(self.rooms)
                            .where(self.rooms.c.code == code, self.rooms.c.status != CLOSED)
                            .values(status=status)
                        )
            except IntegrityError as exc:
                raise Conflict(f"{code}#{seq}") from exc

    async def load_events(self, code: str, after: int = 0) -> list[EventRow]:
        query = (
            select(self.events.c.seq, self.events.c.kind, self.events.c.data, self.events.c.at)
            .where(self.events.c.room == code, self.events.c.seq > after)
            .order_by(self.events.c.seq)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [EventRow(r.seq, r.kind, json.loads(r.data), r.at) for r in rows]

    async def load_advice(self, key: str, newer_than: float = 0.0) -> Any | None:
        """The answer kept under ``key`` if it was saved after ``newer_than`` (epoch seconds)."""
        query = select(self.advice.c.data).where(self.advice.c.key == key,
                                                 self.advice.c.at > newer_than)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else json.loads(row.data)

    async def save_advice(self, key: str, data: Any) -> None:
        """Kept once: the same key always has the same answer, so a second is
        dropped; an expired one (``load_advice`` no longer returns it) is replaced."""
        row = {"key": key, "data": json.dumps(data), "at": time.time()}
        try:
            async with self._write_lock, self.engine.begin() as conn:
                await conn.execute(delete(self.advice).where(self.advice.c.key == key))
                await conn.execute(insert(self.advice).values(**row))
        except IntegrityError:
            pass

    async def drop_advice(self, older_than: float) -> None:
        """Forget the answers saved before ``older_than`` (epoch seconds): they expire."""
        async with self._write_lock, self.engine.begin() as conn:
            await conn.execute(delete(self.advice).where(self.advice.c.at <= older_than))

    async def room_exists(self, code: str) -> bool:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(self.rooms.c.code).where(self.rooms.c.code == code))
            ).first()
        return row is not None

    async def room_row(self, code: str) -> RoomRow | None:
        """The room's index row (code, game, status, created), or None."""
        query = select(self.rooms).where(self.rooms.c.code == code)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else RoomRow(row.code, row.game, row.status, row.created)

    async def list_rooms(self, status: str | None = None, after: str = "",
                         limit: int = 100) -> list[RoomRow]:
        """Rooms by code from ``after`` on (for paging), ``limit`` at most."""
        query = select(self.rooms).where(self.rooms.c.code > after)
        if status is not None:
            query = query.where(self.rooms.c.status == status)
        query = query.order_by(self.rooms.c.code).limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [RoomRow(r.code, r.game, r.status, r.created) for r in rows]

    async def close_room(self, code: str) -> bool:
        """Mark a room closed (an operator's ``atelier rooms close``): servers stop
        serving it; its log stays. False if there is no such room."""
        async with self._write_lock, self.engine.begin() as conn:
            done = await conn.execute(
                update(self.rooms).where(self.rooms.c.code == code).values(status=CLOSED))
        return bool(done.rowcount)

    async def closed_among(self, codes: Sequence[str]) -> list[str]:
        """Which of ``codes`` are closed (asked in chunks: a process may hold thousands)."""
        found: list[str] = []
        for i in range(0, len(codes), 500):
            query = select(self.rooms.c.code).where(
                self.rooms.c.code.in_(codes[i : i + 500]), self.rooms.c.status == CLOSED)
            async with self.engine.connect() as conn:
                found += [r.code for r in (await conn.execute(query)).all()]
        return found

    async def set_wake(self, code: str, wake: float | None) -> None:
        async with self._write_lock, self.engine.begin() as conn:
            await conn.execute(update(self.rooms).where(self.rooms.c.code == code)
                               .values(wake=wake))

    async def rooms_due(self, before: float) -> list[str]:
        """Running games whose next moment to act on has come."""
        query = select(self.rooms.c.code).where(
            self.rooms.c.status == "playing", self.rooms.c.wake <= before)
        async with self.engine.connect() as conn:
            return [r.code for r in (await conn.execute(query)).all()]

    async def rooms_with_status(self, status: str) -> list[str]:
        query = select(self.rooms.c.code).where(self.rooms.c.status == status)
        async with self.engine.connect() as conn:
            return [r.code for r in (await conn.execute(query)).all()]

    async def append_ink(self, rows: Sequence[tuple[str, InkRow]]) -> None:
        """Many ink batches in one transaction, a row per drawing (see
        :func:`pack_ink`); rows already stored are skipped.

        Ink is written on every bundle tick, before it is relayed, so this is on
        the relay's path. The rows go to the driver as they are (SQLAlchemy's
        handling of each parameter cost about 15 us a row). On SQLite they are
        written by a connection of their own, right here on the event loop's
        thread: a write of a tick's ink is a millisecond or two of SQLite, while
        aiosqlite's thread needs the GIL back a few times a write, and with the
        event loop busy each time waited for Python's switch interval (5 ms), so
        under load the writes, and the relay behind them, fell seconds behind."""
        if not rows:
            return
        values = [(code, r.key, r.seat, r.n, data, count)
                  for code, r, count, data in pack_ink(rows)]
        async with self._write_lock:
            if self.sqlite_path is not None:
                self._append_ink_here(rows, values)
                return
            try:
                async with self.engine.begin() as conn:
                    await conn.exec_driver_sql(self._ink_insert, values)
            except IntegrityError:
                # Some were written before (a retry after a commit that did
                # succeed): write each batch on its own, skipping those that
                # exist; load_ink keeps the first copy of every batch.
                for code, r in rows:
                    try:
                        async with self.engine.begin() as conn:
                            await conn.exec_driver_sql(
                                self._ink_insert, [(code, r.key, r.seat, r.n, r.data, 1)])
                    except IntegrityError:
                        continue

    def _append_ink_here(self, rows: Sequence[tuple[str, InkRow]],
                         values: list[tuple[str, str, int, int, bytes, int]]) -> None:
        db = self._ink_db
        if db is None:
            assert self.sqlite_path is not None
            # it waits on the event loop's thread: for another process's write
            # (``--workers N``, a millisecond or two) but never long; past that the
            # write fails, is retried, and the relay goes on (Bundler._write)
            db = self._ink_db = sqlite3.connect(self.sqlite_path, timeout=INK_WRITE_PATIENCE,
                                                check_same_thread=False)
            db.execute("PRAGMA synchronous=NORMAL")  # as the pool's (_sqlite_pragmas)
        try:
            with db:  # one transaction, committed (or rolled back) here
                db.executemany(self._ink_insert, values)
        except sqlite3.IntegrityError:
            # as above: a retry of rows a commit had stored; each batch on its own
            with db:
                db.executemany(self._ink_insert.replace("INSERT", "INSERT OR IGNORE", 1),
                               [(code, r.key, r.seat, r.n, r.data, 1) for code, r in rows])

    async def load_ink(self, code: str) -> list[InkRow]:
        query = (
            select(self.ink.c.key, self.ink.c.seat, self.ink.c.n, self.ink.c.data,
                   self.ink.c.batches)
            .where(self.ink.c.room == code)
            .order_by(self.ink.c.key, self.ink.c.seat, self.ink.c.n)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        found: dict[tuple[str, int, int], bytes] = {}
        for r in rows:
            for seat, n, data in unpack_ink(r.seat, r.n, r.batches, bytes(r.data)):
                found.setdefault((r.key, seat, n), data)
        return [InkRow(key, seat, n, data) for (key, seat, n), data in sorted(found.items())]


_ENTRY = struct.Struct(">BIH")  # a packed row's entry: seat, batch number, length
_MAX_ENTRIES = 4096


def pack_ink(rows: Sequence[tuple[str, InkRow]]) -> list[tuple[str, InkRow, int, bytes]]:
    """One row per drawing a write touches, whatever the seats, so a write on every
    bundle tick (each canvas has a batch or two in it) stores a row per room
    rather than per batch: (room, first batch, how many, data). ``how many`` is 1
    for a row of one batch, and minus the number of entries for a packed row, whose
    data holds ``u8 seat, u32 n, u16 length, batch`` for each (:func:`unpack_ink`)."""
    groups: dict[tuple[str, str], list[InkRow]] = {}
    out: list[tuple[str, list[InkRow]]] = []
    for code, row in rows:
        group = groups.get((code, row.key))
        if group is None or len(group) >= _MAX_ENTRIES:
            group = groups[(code, row.key)] = []
            out.append((code, group))
        group.append(row)
    packed = []
    for code, group in out:
        if len(group) == 1:
            packed.append((code, group[0], 1, group[0].data))
        else:
            entry = _ENTRY.pack
            data = b"".join(entry(r.seat, r.n, len(r.data)) + r.data for r in group)
            packed.append((code, group[0], -len(group), data))
    return packed


def unpack_ink(seat: int, n: int, batches: int, data: bytes) -> list[tuple[int, int, bytes]]:
    """The batches of one stored row, as (seat, number, batch): a row of one batch,
    a packed row (``batches`` below 0, :func:`pack_ink`), or a run of one seat's
    consecutive batches each after its u16 length (``batches`` above 1, as
    releases before 2 Dec 2026 wrote them)."""
    if batches == 1:
        return [(seat, n, data)]
    found: list[tuple[int, int, bytes]] = []
    i = 0
    if batches < 0:
        head = _ENTRY.size
        while i + head <= len(data):
            s, k, size = _ENTRY.unpack_from(data, i)
            found.append((s, k, data[i + head : i + head + size]))
            i += head + size
        return found
    while i + 2 <= len(data):
        size = int.from_bytes(data[i : i + 2], "big")
        found.append((seat, n + len(found), data[i + 2 : i + 2 + size]))
        i += 2 + size
    return found


def _sqlite_race(err: OperationalError) -> bool:
    return "already exists" in str(err) or "database is locked" in str(err)


def _use_wal(path: str, patience: float = 30.0) -> None:
    """Switch a SQLite file to WAL once, before any pooled connection opens it.

    WAL is what lets a commit survive the process being killed. The mode is kept
    in the file, so this is a no-op after the first open. Switching needs the file
    to itself: done from every pooled connection, processes started together
    deadlocked (each holding a read lock the other's switch waits for), so it is
    done here, on its own connection, retrying while another process holds the file.
    """
    deadline = time.monotonic() + patience
    while True:
        try:
            con = sqlite3.connect(path, timeout=10)
            try:
                con.execute("PRAGMA journal_mode=WAL").fetchone()
                return
            finally:
                con.close()
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.02 + random.random() * 0.05)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    # NORMAL skips the fsync per commit (a power cut may lose the last commits,
    # a kill -9 does not); the file is already in WAL mode (_use_wal).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


async def open_store(
    db_path: str | None = None, url: str | None = None, prefix: str = ""
) -> Store:
    """Open (and create if needed) the store; SQLite at ``db_path`` unless ``url`` is given."""
    full = database_url(db_path, url)
    if full.startswith("sqlite"):
        path = full.split(":///", 1)[1]
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        await asyncio.to_thread(_use_wal, path)
        engine = create_async_engine(full, connect_args={"timeout": 10})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    else:
        path = None
        engine = create_async_engine(full, pool_size=5, max_overflow=5)
    store = Store(engine, prefix, path)
    await store.create_tables()
    return store
