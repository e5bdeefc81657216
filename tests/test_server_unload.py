"""Rooms nobody is connected to leave memory after ``--unload-idle`` seconds and
come back from the log on the next visit, ink, timers and computer players included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from atelier.ink.synth import DEVICES, record
from support.client import Client, open_client, seated_room
from support.log import logged_events
from support.server import ServerProcess, create_room, wait_until


def health(srv: ServerProcess) -> dict[str, Any]:
    reply: dict[str, Any] = httpx.get(srv.http + "/healthz", timeout=10).json()
    return reply


def timeouts_logged(db: str, code: str) -> int:
    return sum(1 for row in logged_events(db, code, "action")
               if row.data["action"]["type"] == "timeout")


async def test_an_idle_room_leaves_memory_and_comes_back_intact(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory("--unload-idle", "0.3")
    code, (ann, bob) = await seated_room(clients, srv)
    for i in range(3):
        assert (await bob.request({"t": "act", "action": {"type": "note", "text": str(i)}}))[
            "t"] == "ack"
    batches = record(DEVICES[0], 3, seed=4).batches[:40]
    for b in batches:
        await ann.send(b)
    assert (await ann.request({"t": "ping"}))["t"] == "ack"
    assert health(srv)["rooms_loaded"] == 1  # connected: it stays, however long
    for c in (ann, bob):
        await c.close()
    await wait_until(lambda: health(srv)["rooms_loaded"] == 0, what="the room unloaded")
    assert health(srv)["rooms_unloaded"] == 1
    assert "unloaded 1 idle room (0 still loaded)" in srv.log()
    back = await open_client(clients, srv, code, token=ann.token)
    st = await back.state()
    assert health(srv)["rooms_loaded"] == 1
    assert st["you"]["seat"] == 0 and st["game"]["notes"] == 3
    assert [p["name"] for p in st["room"]["players"]] == ["P0", "P1"]
    assert (await back.expect("ink_sync"))["seats"] == [0]
    assert [(await back.expect("bin"))[1:] for _ in batches] == batches
    # and it goes on: a new action is appended after the reloaded log
    again = await open_client(clients, srv, code, token=bob.token)
    assert (await again.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    st = await back.state(lambda m: m["game"]["done"] == [False, True])
    assert st["game"]["notes"] == 3


async def test_an_unloaded_room_still_meets_its_deadline(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    """The computer player says done at once, which arms an 8 s deadline; the room is
    unloaded before it, and is loaded back to time out when it comes."""
    srv = server_factory("--unload-idle", "0.2")
    code = create_room(srv.http, settings={"computer": True, "seconds": 8})
    ann = await open_client(clients, srv, code)
    assert (await ann.join("Ann", "red"))["t"] == "joined"
    assert (await ann.request({"t": "start"}))["t"] == "ack"
    await ann.state(lambda m: bool(m["game"]) and m["game"]["done"] == [False, True]
                    and m["game"]["deadline"] is not None)
    await ann.close()
    db = srv.db
    assert db is not None
    await wait_until(lambda: health(srv)["rooms_unloaded"] >= 1, what="the room unloaded")
    assert timeouts_logged(db, code) == 0, "unloaded before its deadline"
    await wait_until(lambda: timeouts_logged(db, code) == 1, timeout=60,
                     what="the deadline met")
    back = await open_client(clients, srv, code, token=ann.token)
    st = await back.state()
    assert st["game"]["phase"] == "reveal" and st["game"]["words"] is not None


async def test_lobby_rooms_visited_over_http_unload_too(
    server_factory: Callable[..., ServerProcess]
) -> None:
    srv = server_factory("--unload-idle", "0.2")
    codes = [create_room(srv.http) for _ in range(3)]
    for code in codes:
        assert httpx.get(f"{srv.http}/api/rooms/{code}", timeout=10).status_code == 200
    await wait_until(lambda: health(srv)["rooms_unloaded"] >= 3, what="the rooms unloaded")
    assert health(srv)["rooms_loaded"] == 0
    info = httpx.get(f"{srv.http}/api/rooms/{codes[0]}", timeout=10).json()
    assert info["phase"] == "lobby"
