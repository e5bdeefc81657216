"""The room's creator is its host, and a drawing left empty is a blank drawing.

POST /api/rooms hands the creating browser a host credential; joining with it
makes that player host, even after a friend sat down first (and after a
restart). While the creator's page is in the room unseated, a friend who sits
down is not host; when it leaves, the host role waits a while, then goes to
the first player seated. A seat that drew nothing in a round has a blank PNG,
not a 404.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import httpx
import websockets
from PIL import Image

from support.client import Client, open_client
from support.server import ServerProcess


def create(srv: ServerProcess) -> tuple[str, str]:
    r = httpx.post(srv.http + "/api/rooms", json={"game": "secrets", "settings": {}})
    assert r.status_code == 201, r.text
    body = r.json()
    assert isinstance(body["host_key"], str) and len(body["host_key"]) >= 24
    return body["code"], body["host_key"]


async def join(c: Client, name: str, colour: str, host_key: str | None = None) -> str:
    """Sits down (it must succeed); the new player's id."""
    reply = await c.join(name, colour, host_key)
    assert reply["t"] == "joined", reply
    return str(c.player)


async def host_of(c: Client, players: int) -> str | None:
    state = await c.state(lambda m: len(m["room"]["players"]) == players)
    host: str | None = state["room"]["host"]
    return host


async def test_the_creator_is_host_even_if_a_friend_sits_first(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory()
    code, key = create(srv)
    friend = await open_client(clients, srv, code)
    friend_id = await join(friend, "Friend", "blue")
    assert await host_of(friend, 1) == friend_id  # nobody else yet

    # A wrong key does nothing.
    other = await open_client(clients, srv, code)
    other_id = await join(other, "Other", "green", host_key="not-the-key")
    assert await host_of(other, 2) == friend_id

    # The creator's key survives a restart of the server.
    srv.stop()
    srv.start()
    creator = await open_client(clients, srv, code)
    creator_id = await join(creator, "Creator", "red", host_key=key)
    assert await host_of(creator, 3) == creator_id
    welcome_state = await creator.request({"t": "settings", "settings": {"seconds": 30}})
    assert welcome_state["t"] == "ack", welcome_state

    # The key works once: a second join with it gets no host role.
    late = await open_client(clients, srv, code)
    await join(late, "Late", "yellow", host_key=key)
    assert await host_of(late, 4) == creator_id

    # The host leaving hands it on as before (first in joining order).
    await creator.request({"t": "leave"})
    assert await host_of(late, 3) == friend_id
    assert other_id != friend_id


async def open_creator(clients: list[Client], srv: ServerProcess, code: str,
                       key: str) -> Client:
    """The creator's page, not seated: its hello carries the host key."""
    ws = await websockets.connect(f"{srv.ws}/ws/{code}")
    creator = Client(ws)
    clients.append(creator)
    await creator.send({"t": "hello", "v": 1, "token": None, "lang": "en", "host_key": key})
    await creator.expect("welcome")
    return creator


async def test_nobody_is_host_while_the_creator_is_here_unseated(
    server: ServerProcess, clients: list[Client]
) -> None:
    # A wrong key in a hello makes nobody the creator: the first to sit is host.
    code, _ = create(server)
    await open_creator(clients, server, code, "not-the-key")
    first = await open_client(clients, server, code)
    assert await host_of(first, 0) is None
    first_id = await join(first, "First", "blue")
    assert await host_of(first, 1) == first_id

    code, key = create(server)
    creator = await open_creator(clients, server, code, key)
    friend = await open_client(clients, server, code)
    await join(friend, "Friend", "blue")
    assert await host_of(friend, 1) is None  # no Start button for the friend
    refused = await friend.request({"t": "start"})
    assert refused["t"] == "error" and refused["code"] == "not_host"
    creator_id = await join(creator, "Creator", "red", host_key=key)
    assert await host_of(friend, 2) == creator_id


async def test_the_host_role_waits_a_while_for_a_creator_who_left(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory("--creator-wait", "0.5")
    code, key = create(srv)
    creator = await open_creator(clients, srv, code, key)
    friend = await open_client(clients, srv, code)
    friend_id = await join(friend, "Friend", "blue")
    assert await host_of(friend, 1) is None
    # The creator's phone goes to another app: after the wait the friend is host.
    await creator.close()
    clients.remove(creator)
    state = await friend.state(lambda m: m["room"]["host"] is not None)
    assert state["room"]["host"] == friend_id
    # The creator's key still makes them host when they come back to sit.
    back = await open_creator(clients, srv, code, key)
    creator_id = await join(back, "Creator", "red", host_key=key)
    assert await host_of(back, 2) == creator_id


async def test_after_a_restart_a_room_without_host_gets_one(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory()
    code, key = create(srv)
    await open_creator(clients, srv, code, key)
    friend = await open_client(clients, srv, code)
    await join(friend, "Friend", "blue")
    assert await host_of(friend, 1) is None
    token, friend_id = friend.token, friend.player
    srv.stop()
    srv.start()
    # The creator is not back: the room does not wait for them.
    again = await open_client(clients, srv, code, token=token)
    state = await again.state(lambda m: m["room"]["host"] is not None)
    assert state["room"]["host"] == friend_id


async def test_an_empty_drawing_is_a_blank_png(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, _ = create(server)
    players = []
    for name, colour in (("A", "red"), ("B", "blue")):
        c = await open_client(clients, server, code)
        await join(c, name, colour)
        players.append(c)
    assert (await players[0].request({"t": "start"}))["t"] == "ack"
    base = f"{server.http}/api/rooms/{code}/drawings"
    # During the drawing a hidden drawing stays hidden, blank or not.
    assert httpx.get(f"{base}/round-1/0.png").status_code == 404
    for c in players:  # nobody draws anything
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    await players[0].state(lambda m: (m["game"] or {}).get("phase") == "reveal")
    for seat in (0, 1):
        r = httpx.get(f"{base}/round-1/{seat}.png?size=64")
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(r.content)).convert("RGBA")
        assert image.size == (64, 64)
        colours = image.getcolors()
        assert colours is not None and len(colours) == 1  # one colour: blank paper
    # Seats and rounds that do not exist are still unknown.
    for path in ("round-1/2.png", "round-2/0.png", "round-x/0.png", "round-1/00000.png"):
        assert httpx.get(f"{base}/{path}").status_code == 404, path
