"""Absent and removed players over real WebSockets: a dropped player shows as away
to everyone and back on return; the host goes on without them once only they hold
up the round; the host removes a player mid-game, who then watches."""

from __future__ import annotations

import base64
import json
import os
import socket
from typing import Any

from support.client import Client, open_client
from support.pictomania import sample_cards
from support.server import ServerProcess, create_room

PM = {"custom_cards": sample_cards(6, levels=(1,)), "custom_mode": "instead",
      "rounds": 1, "levels": [1]}
IG = {"custom_words": [f"word{i:02d}" for i in range(30)],
      "custom_locations": [f"place{i:02d}" for i in range(30)], "rounds": 2}


def connected(st: Any, player: str | None) -> bool:
    """Whether ``player`` shows as connected (true while not yet listed)."""
    return all(p["connected"] for p in st["room"]["players"] if p["id"] == player)


async def room_of(server: ServerProcess, clients: list[Client], game: str,
                  settings: dict[str, Any], n: int = 3) -> tuple[str, list[Client]]:
    code = create_room(server.http, game, settings)
    players = []
    for i, colour in enumerate(("red", "blue", "green", "yellow")[:n]):
        c = await open_client(clients, server, code)
        assert (await c.join(f"P{i}", colour))["t"] == "joined"
        players.append(c)
    assert (await players[0].request({"t": "start"}))["t"] == "ack"
    return code, players


async def test_pictomania_away_back_and_going_on_without_them(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (ann, bob, cy) = await room_of(server, clients, "pictomania", PM)
    assert (await ann.request({"t": "go_on"}))["code"] == "nobody_absent"
    for c in (ann, bob, cy):
        assert (await c.act(type="ready"))["t"] == "ack"
    await cy.close()
    await bob.state(lambda m: not connected(m, cy.player), timeout=5)
    # Ann and Bob are here and still drawing: going on is refused, naming them.
    refused = await ann.request({"t": "go_on"})
    assert refused["code"] == "still_waiting" and refused["params"]["names"] == "P0, P1"
    assert (await bob.request({"t": "go_on"}))["code"] == "not_host"
    assert (await ann.act(type="black"))["t"] == "ack"
    assert (await bob.act(type="done"))["t"] == "ack"
    # Cy comes back and is shown back at once; then drops out again.
    back = await open_client(clients, server, code, token=cy.token)
    await ann.state(lambda m: connected(m, cy.player))
    await back.close()
    await ann.state(lambda m: not connected(m, cy.player))
    assert (await ann.request({"t": "go_on"}))["t"] == "ack"
    st = await bob.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "review")
    cy_seat = next(p["seat"] for p in st["room"]["players"] if p["id"] == cy.player)
    result = st["game"]["round_result"]
    assert result["players"][cy_seat]["black_token"] is None
    assert st["game"]["round_result"]["ended_by"] == "finished"


async def test_the_host_removes_a_player_who_then_watches(
    server: ServerProcess, clients: list[Client]
) -> None:
    _code, (ann, bob, cy, dan) = await room_of(server, clients, "incognito", IG, n=4)
    assert (await ann.request({"t": "kick", "player": ann.player}))["code"] == "cannot_kick_self"
    assert (await bob.request({"t": "kick", "player": cy.player}))["code"] == "not_host"
    assert (await cy.act(type="done_drawing"))["t"] == "ack"
    assert (await ann.request({"t": "kick", "player": cy.player}))["t"] == "ack"
    assert (await cy.expect("error", lambda m: m["code"] == "kicked"))
    st = await cy.state(lambda m: m["you"]["player"] is None)
    assert st["game"]["word"] is None  # a spectator now
    gone = next(p for p in st["room"]["players"] if p["id"] == cy.player)
    assert gone["removed"] and gone["seat"] == 2
    assert st["game"]["players"][2]["removed"]
    # The others play on; the removed seat is never waited for.
    for c in (ann, bob, dan):
        assert (await c.act(type="done_drawing"))["t"] == "ack"
    st = await ann.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "voting")
    assert 2 not in st["game"]["waiting_for"]
    for c in (ann, bob, dan):
        assert (await c.act(type="done_voting"))["t"] == "ack"
    st = await ann.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "scored")
    assert len(st["game"]["reveal"]["drawings"]) == 4  # Cy's drawing stays in the round
    # Dan leaves on his own during the game: the same as being removed.
    assert (await dan.request({"t": "leave"}))["t"] == "ack"
    assert (await ann.request({"t": "kick", "player": bob.player}))["code"] == "too_few_left"
    for c in (ann, bob):
        assert (await c.act(type="confirm"))["t"] == "ack"
    st = await ann.state(
        lambda m: bool(m["game"]) and m["game"]["phase"] == "drawing" and m["game"]["round"] == 2)
    assert st["game"]["waiting_for"] == [0, 1]


def silent_socket(server: ServerProcess, code: str, token: str | None) -> socket.socket:
    """A WebSocket that says hello and then never answers again (no pongs): a phone
    that dropped off the network without closing anything."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 101"), reply
    payload = json.dumps({"t": "hello", "v": 1, "token": token}).encode()
    mask = os.urandom(4)
    assert len(payload) < 126
    frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.sendall(frame)
    return sock


async def test_a_silently_dropped_player_shows_as_away_within_seconds(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (ann, _bob, cy) = await room_of(server, clients, "pictomania", PM)
    await cy.close()
    await ann.state(lambda m: not connected(m, cy.player))
    sock = silent_socket(server, code, cy.token)
    try:
        await ann.state(lambda m: connected(m, cy.player))
        # The server pings every 4 s and gives up 4 s later without a pong: about
        # 8 s (the wait allows for a loaded machine; pings every 20 s would not do).
        await ann.state(lambda m: not connected(m, cy.player), timeout=25)
    finally:
        sock.close()


async def test_incognito_goes_on_without_an_absent_player(
    server: ServerProcess, clients: list[Client]
) -> None:
    _code, (ann, bob, cy) = await room_of(server, clients, "incognito", IG)
    assert (await ann.act(type="done_drawing"))["t"] == "ack"
    await cy.close()
    await ann.state(lambda m: not connected(m, cy.player))
    assert (await ann.request({"t": "go_on"}))["code"] == "still_waiting"
    assert (await bob.act(type="done_drawing"))["t"] == "ack"
    assert (await ann.request({"t": "go_on"}))["t"] == "ack"
    st = await bob.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "voting")
    assert st["game"]["waiting_for"] == [0, 1, 2]  # Cy may still vote if back in time
    for c in (ann, bob):
        assert (await c.act(type="done_voting"))["t"] == "ack"
    assert (await ann.request({"t": "go_on"}))["t"] == "ack"
    st = await bob.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "scored")
    # Cy's cards were placed at random, as the rules place unplaced cards.
    assert all(v["random"] for d in st["game"]["reveal"]["drawings"]
               for v in d["votes"] if v["voter"] == 2)
