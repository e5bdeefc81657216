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
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine


class Conflict(Exception):
    """Another writer appended this seq first (or the room code exists)."""


@dataclass(frozen=True)
class EventRow:
    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True)
class InkRow:
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
    def __init__(self, engine: AsyncEngine, prefix: str = "") -> None:
        self.engine = engine
        self.prefix = prefix
        self.meta, self.rooms, self.events, self.ink = _tables(prefix)
        self.is_sqlite = engine.dialect.name == "sqlite"
        # SQLite has one writer at a time: queue our own writes rather than
        # letting them fight over the file lock.
        self._write_lock = asyncio.Lock()

    async def create_tables(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(self.meta.create_all)

    async def drop_tables(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(self.meta.drop_all)

    async def close(self) -> None:
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
                        await conn.execute(
                            update(self.rooms)
                            .where(self.rooms.c.code == code)
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

    async def room_exists(self, code: str) -> bool:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(self.rooms.c.code).where(self.rooms.c.code == code))
            ).first()
        return row is not None

    async def rooms_with_status(self, status: str) -> list[str]:
        query = select(self.rooms.c.code).where(self.rooms.c.status == status)
        async with self.engine.connect() as conn:
            return [r.code for r in (await conn.execute(query)).all()]

    async def append_ink(self, rows: Sequence[tuple[str, InkRow]]) -> None:
        """Many ink batches in one transaction; rows already stored are skipped."""
        if not rows:
            return
        values = [
            {"room": code, "key": r.key, "seat": r.seat, "n": r.n, "data": r.data}
            for code, r in rows
        ]
        async with self._write_lock:
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(insert(self.ink), values)
            except IntegrityError:
                # A batch was written twice (a retry after a failed commit):
                # write them one by one, keeping the first copy of each.
                for value in values:
                    try:
                        async with self.engine.begin() as conn:
                            await conn.execute(insert(self.ink).values(**value))
                    except IntegrityError:
                        continue

    async def load_ink(self, code: str) -> list[InkRow]:
        query = (
            select(self.ink.c.key, self.ink.c.seat, self.ink.c.n, self.ink.c.data)
            .where(self.ink.c.room == code)
            .order_by(self.ink.c.key, self.ink.c.seat, self.ink.c.n)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [InkRow(r.key, r.seat, r.n, bytes(r.data)) for r in rows]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    # WAL: a commit survives the process being killed; NORMAL skips the fsync
    # per commit (a power cut may lose the last commits, a kill -9 does not).
    cursor.execute("PRAGMA journal_mode=WAL")
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
        engine = create_async_engine(full, connect_args={"timeout": 10})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    else:
        engine = create_async_engine(full, pool_size=5, max_overflow=5)
    store = Store(engine, prefix)
    await store.create_tables()
    return store
