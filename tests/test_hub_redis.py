"""Two server processes share rooms through PostgreSQL (the log) and Redis (the doorbell)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from atelier.ink.codec import Begin, End, Points, encode_batch
from atelier.store import open_store
from support.client import Client, open_client
from support.server import PG_URL, REDIS_URL, ServerProcess, create_room, wait_until


def _has_id(k: int) -> Callable[[Any], bool]:
    """The reply to the message sent with id ``k``."""
    return lambda m: bool(m.get("id") == k)

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


async def test_two_processes_one_room(server_factory: Callable[..., ServerProcess],
                                      clients: list[Client]) -> None:
    prefix = f"h{secrets.token_hex(4)}_"
    shared = ("--database-url", PG_URL, "--redis-url", REDIS_URL, "--table-prefix", prefix)
    try:
        a = server_factory(*shared, db=None)
        b = server_factory(*shared, db=None)
        code = create_room(a.http)
        ann = await open_client(clients, a, code)
        bob = await open_client(clients, b, code)  # B loads the room from the shared log
        await ann.join("Ann", "red")
        await bob.state(lambda m: [p["name"] for p in m["room"]["players"]] == ["Ann"])
        assert (await bob.join("Ann", "blue"))["code"] == "name_taken"
        assert (await bob.join("Bob", "blue"))["t"] == "joined"
        started = await ann.request({"t": "start"})
        assert started["t"] == "ack", started
        await bob.state(lambda m: m["room"]["phase"] == "playing")
        # presence crosses processes
        await ann.state(lambda m: all(p["connected"] for p in m["room"]["players"]))

        # both processes take actions at once: every one applied exactly once
        async def notes(c: Client) -> list[str]:
            for k in range(10):
                await c.send({"t": "act", "id": k, "action": {"type": "note"}})
            replies = []
            for k in range(10):
                reply = await c.expect_any(("ack", "error"), _has_id(k))
                replies.append(reply.get("code", "ack"))
            return replies

        assert list(await asyncio.gather(notes(ann), notes(bob))) == [["ack"] * 10] * 2
        await ann.state(lambda m: bool(m["game"]) and m["game"]["notes"] == 20)
        await bob.state(lambda m: bool(m["game"]) and m["game"]["notes"] == 20)

        # ink drawn on A reaches the drawer's other tab on B at once
        ann_b = await open_client(clients, b, code, token=ann.token)
        await ann_b.expect("ink_sync")
        batch = encode_batch([Begin("pen", 9, 50, 60, 0, None), Points((2, 2, 8, 0) * 4), End()])
        await ann.send(batch)
        assert await ann_b.expect("bin") == bytes([0]) + batch
        # the reveal on B sends it to Bob from B's own copy
        assert (await ann.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
        assert (await bob.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
        await bob.expect("ink_sync", lambda m: 0 in m["seats"])
        assert await bob.expect("bin") == bytes([0]) + batch
    finally:
        store = await open_store(url=PG_URL, prefix=prefix)
        await store.drop_tables()
        await store.close()


async def test_ink_crosses_to_another_process_only_while_it_holds_the_room(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    """Routed by room code, a room lives in one process and its ink stays there;
    only while a second process holds it too (a room moving machine with players
    on it) is its ink published to Redis, and it stops when that one lets go."""
    prefix = f"h{secrets.token_hex(4)}_"
    shared = ("--database-url", PG_URL, "--redis-url", REDIS_URL, "--table-prefix", prefix,
              "--unload-idle", "0.5")
    batch = encode_batch([Begin("pen", 9, 50, 60, 0, None), Points((2, 2, 8, 0) * 4), End()])

    def health(srv: ServerProcess) -> dict[str, Any]:
        reply: dict[str, Any] = httpx.get(f"{srv.http}/healthz").json()
        return reply

    def ink_published(srv: ServerProcess) -> int:
        return int(health(srv)["hub_published"].get("ink", 0))

    async def draw(player: Client, times: int) -> None:
        for _ in range(times):
            await player.send(batch)
        # messages are handled in order: once this is answered, the ink was taken
        assert (await player.request({"t": "lang", "lang": "en"}))["t"] == "ack"

    try:
        a = server_factory(*shared, db=None)
        b = server_factory(*shared, db=None)
        code = create_room(a.http)
        ann = await open_client(clients, a, code)
        await ann.join("Ann", "red")
        bob = await open_client(clients, a, code)
        await bob.join("Bob", "blue")
        assert (await ann.request({"t": "start"}))["t"] == "ack"
        await draw(ann, 5)
        assert health(a)["rooms_shared"] == 0 and ink_published(a) == 0

        # Ann's other tab reaches the room through B: B holds it too, A learns so
        other_tab = await open_client(clients, b, code, token=ann.token)
        await other_tab.expect("ink_sync")
        await wait_until(lambda: health(a)["rooms_shared"] == 1, what="A knows B holds it")
        # a batch of its own: the tab may first be sent the five above, which are
        # stored, as B loads the room (A writes ink before it relays it)
        fresh = encode_batch([Begin("pen", 9, 70, 80, 0, None), Points((1, 1, 8, 0)), End()])
        await ann.send(fresh)
        while await other_tab.expect("bin") != bytes([0]) + fresh:
            pass  # one of the stored ones
        assert ink_published(a) >= 1  # it reached B through Redis

        # the tab closes; B unloads the idle room and says so; A stops publishing
        await other_tab.close()
        await wait_until(lambda: health(b)["rooms_loaded"] == 0, what="B unloads the room")
        await wait_until(lambda: health(a)["rooms_shared"] == 0, what="A hears B let go")
        before = ink_published(a)
        await draw(ann, 5)
        assert ink_published(a) == before
    finally:
        store = await open_store(url=PG_URL, prefix=prefix)
        await store.drop_tables()
        await store.close()
