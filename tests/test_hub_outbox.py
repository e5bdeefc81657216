"""Redis carries a burst of notices in order and loses none; processes started
together on an empty PostgreSQL database both create their tables."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from atelier.hub import HubMessage
from atelier.hub.redis_hub import RedisHub
from atelier.store import open_store
from support.server import PG_URL, REDIS_URL


@pytest.mark.redis
async def test_a_burst_of_notices_arrives_whole_and_in_order() -> None:
    prefix = f"t{secrets.token_hex(4)}:"
    sender, listener = RedisHub(REDIS_URL, prefix), RedisHub(REDIS_URL, prefix)
    got: list[int] = []
    every = asyncio.Event()
    total = 3000

    async def receive(msg: HubMessage) -> None:
        got.append(msg.meta["n"])
        if len(got) == total:
            every.set()

    listener.set_receiver(receive)
    await listener.start()
    await sender.start()
    try:
        # as a hundred rooms drawing at once do: every publish at the same moment
        await asyncio.gather(*(
            sender.publish(HubMessage("ROOM01", "ink", sender.origin, {"n": n}, b"x" * 40))
            for n in range(total)
        ))
        await asyncio.wait_for(every.wait(), 60)
        assert got == list(range(total))
        assert sender.dropped == 0
    finally:
        await sender.close()
        await listener.close()


@pytest.mark.postgres
async def test_processes_started_together_create_the_tables_once() -> None:
    prefix = f"c{secrets.token_hex(4)}_"
    stores = await asyncio.gather(*(open_store(url=PG_URL, prefix=prefix) for _ in range(6)))
    try:
        await stores[0].create_room("ABCDEF", "secrets", 0.0, {"game": "secrets"})
        assert await stores[5].room_exists("ABCDEF")
    finally:
        await stores[0].drop_tables()
        for store in stores:
            await store.close()
