"""What Web Push keeps in the store, the same code on SQLite and PostgreSQL
(marked): the VAPID key made once, subscriptions bounded per address, each
push claimed once, the due-room scan."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from atelier.server.push.vapid import make_pair, server_key
from atelier.store import Store, open_store
from atelier.store.push import Subscription
from support.server import PG_URL


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    prefix = f"t{secrets.token_hex(4)}_"
    if request.param == "sqlite":
        s = await open_store(db_path=str(tmp_path / "push.sqlite3"), prefix=prefix)
    else:
        s = await open_store(url=PG_URL, prefix=prefix)
    try:
        yield s
    finally:
        await s.drop_tables()
        await s.close()


async def test_the_vapid_key_is_made_once_and_kept(store: Store) -> None:
    made: list[int] = []

    def counted() -> tuple[str, str]:
        made.append(1)
        return make_pair()

    first = await store.push.vapid_key(counted)
    assert await store.push.vapid_key(counted) == first and len(made) == 1
    _, public = await server_key(store.push)
    assert public == first[1] and len(public) == 87  # 65 bytes, base64url


async def test_a_push_is_claimed_once_and_a_room_is_bounded(store: Store) -> None:
    claims = await asyncio.gather(*(store.push.claim("turn:R:5:p1", "R", 10) for _ in range(8)))
    assert sorted(claims) == [False] * 7 + [True]
    for n in range(9):
        assert await store.push.claim(f"turn:R:{n + 6}:p1", "R", 10)
    assert not await store.push.claim("turn:R:99:p1", "R", 10)  # 10 this minute already
    assert await store.push.claim("turn:S:1:p1", "S", 10)  # another room is not bounded by it


async def test_subscriptions_are_bounded_per_address_and_forgotten(store: Store) -> None:
    def sub(n: int, room: str = "ROOM01") -> Subscription:
        return Subscription(f"https://fcm.googleapis.com/x/{n}", "k" * 87, "a" * 22, room,
                            "p1", "en")

    assert await store.push.subscribe(sub(1), "1.2.3.4", 2)
    assert await store.push.subscribe(sub(1), "1.2.3.4", 2)  # the same again: renewed
    assert await store.push.subscribe(sub(2), "1.2.3.4", 2)
    assert not await store.push.subscribe(sub(3), "1.2.3.4", 2)
    assert await store.push.subscribe(sub(3), "5.6.7.8", 2)
    assert len(await store.push.subscriptions("ROOM01", "p1")) == 3
    assert await store.push.forget_endpoint(sub(2).endpoint) == 1
    await store.push.unsubscribe("ROOM01", "p1")
    assert await store.push.subscriptions("ROOM01") == []


async def test_due_rooms_are_found_by_their_wake_up_time(store: Store) -> None:
    for code, status, wake in (("AAAAAA", "playing", 10.0), ("BBBBBB", "playing", 99.0),
                               ("CCCCCC", "over", 5.0), ("DDDDDD", "playing", None)):
        await store.create_room(code, "piet", 1.0, {"seed": 1})
        await store.append(code, 2, "started", {}, 1.0, status=status)
        await store.set_wake(code, wake)
    assert await store.rooms_due(50.0) == ["AAAAAA"]
