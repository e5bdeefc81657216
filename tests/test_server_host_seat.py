"""The room's creator is its host, and a drawing left empty is a blank drawing.

POST /api/rooms hands the creating browser a host credential; joining with it
makes that player host, even after a friend sat down first (and after a
restart). A seat that drew nothing in a round has a blank PNG, not a 404.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import httpx
from PIL import Image

from conftest import Client, ServerProcess, open_client


def create(srv: ServerProcess) -> tuple[str, str]:
    r = httpx.post(srv.http + "/api/rooms", json={"game": "secrets", "settings": {}})
    assert r.status_code == 201, r.text
    body = r.json()
    assert isinstance(body["host_key"], str) and len(body["host_key"]) >= 24
    return body["code"], body["host_key"]


async def join(c: Client, name: str, colour: str, host_key: str | None = None) -> str:
    msg: dict[str, object] = {"t": "join", "name": name, "colour": colour}
    if host_key is not None:
        msg["host_key"] = host_key
    await c.send(msg)
    reply = await c.expect_any(("joined", "error"), lambda m: True)
    assert reply["t"] == "joined", reply
    c.token = reply["token"]
    c.player = reply["player"]["id"]
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
