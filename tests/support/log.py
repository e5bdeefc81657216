"""A room's log as the server stored it, read through the store (not with SQL
of the tests' own), so the tests read what a restarted server reads."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from atelier.store import EventRow, InkRow, Store, open_store

T = TypeVar("T")


def _read(db: str, read: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``read`` on the store at ``db``. On a thread of its own, with its own
    event loop: the callers are sync tests and async ones alike."""

    async def run() -> T:
        store = await open_store(db_path=db)
        try:
            return await read(store)
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def logged_events(db: str, code: str, kind: str | None = None) -> list[EventRow]:
    """The room's events in order (only those of ``kind`` if given)."""
    rows = _read(db, lambda store: store.load_events(code))
    return [row for row in rows if kind is None or row.kind == kind]


def stored_ink(db: str, code: str) -> list[InkRow]:
    """Every ink batch stored for the room."""
    return _read(db, lambda store: store.load_ink(code))
