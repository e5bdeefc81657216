"""Play again over real WebSockets: after game over the host sends {"t": "again"},
the room is back in its lobby with everyone joined, the next game draws on fresh
ink keys and other cards, and all of it comes back after a restart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from support.client import Client, open_client
from support.pictomania import sample_cards
from support.server import ServerProcess, create_room

DECK = sample_cards(12, levels=(1,))
SETTINGS = {"custom_cards": DECK, "custom_mode": "instead", "rounds": 1, "levels": [1]}


async def play_out(host: Client, others: list[Client]) -> Any:
    """The host deals, stops the round and finishes it: the game is over."""
    for _ in range(3):
        assert (await host.request({"t": "next"}))["t"] == "ack"
    for c in [host, *others]:
        st = await c.state(lambda m: m["room"]["phase"] == "over")
    return st


def cards(st: Any) -> set[str]:
    return {c["id"] for round_ in st["game"]["history"] for c in round_["cards"]}


async def test_play_again_over_websockets_and_after_a_restart(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory()
    code = create_room(srv.http, "pictomania", SETTINGS)
    players = []
    for name, colour in [("Ann", "red"), ("Bob", "blue"), ("Cy", "green")]:
        c = await open_client(clients, srv, code)
        assert (await c.join(name, colour))["t"] == "joined"
        players.append(c)
    ann, bob, cy = players
    watcher = await open_client(clients, srv, code)
    assert (await ann.request({"t": "again"}))["code"] == "not_over"
    assert (await ann.request({"t": "start"}))["t"] == "ack"
    first = await play_out(ann, [bob, cy])
    assert first["drawing_key"] is None or not first["drawing_key"].startswith("g")
    assert [p["score"] for p in first["room"]["played"][0]["players"]] == first["game"]["totals"]
    assert (await bob.request({"t": "again"}))["code"] == "not_host"

    assert (await ann.request({"t": "again"}))["t"] == "ack"
    lobby = await watcher.state(lambda m: m["room"]["phase"] == "lobby" and m["room"]["played"])
    assert lobby["you"]["player"] is None  # a spectator stays one
    assert [(p["id"], p["colour"], p["seat"]) for p in lobby["room"]["players"]] == [
        ("p1", "red", None), ("p2", "blue", None), ("p3", "green", None)]
    assert lobby["room"]["settings"]["rounds"] == 1 and len(lobby["room"]["played"]) == 1
    assert (await ann.request({"t": "start"}))["t"] == "ack"
    st = await bob.state(lambda m: m["room"]["phase"] == "playing")
    assert st["you"]["seat"] == 1 and st["room"]["ink_prefix"] == "g2-"

    srv.stop()
    srv.start()
    back = await open_client(clients, srv, code, token=ann.token)
    st = await back.state()
    assert st["room"]["phase"] == "playing" and st["you"]["host"]
    assert (await back.request({"t": "next"}))["t"] == "ack"  # deal
    st = await back.state(lambda m: m["game"]["phase"] == "drawing")
    assert st["drawing_key"].startswith("g2-")
    for _ in range(2):
        assert (await back.request({"t": "next"}))["t"] == "ack"
    second = await back.state(lambda m: m["room"]["phase"] == "over")
    assert cards(first).isdisjoint(cards(second))
    assert len(second["room"]["played"]) == 2


async def test_piet_against_the_computer_plays_again(
    server: ServerProcess, clients: list[Client]
) -> None:
    code = create_room(server.http, "piet", {"opponent": "easy"})
    ann = await open_client(clients, server, code)
    assert (await ann.join("Ann", "red"))["t"] == "joined"
    assert (await ann.request({"t": "start"}))["t"] == "ack"
    while True:
        st = await ann.state(lambda m: m["room"]["phase"] == "over" or (
            bool(m["game"]) and m["game"]["to_move"] == 0), timeout=30)
        if st["room"]["phase"] == "over":
            break
        move = st["game"]["legal_moves"][0]
        reply = await ann.request({"t": "act", "action": {"type": "move", "move": move}})
        assert reply["t"] == "ack", reply
    assert [p["id"] for p in st["room"]["played"][0]["players"]] == ["p1", "c1"]
    assert (await ann.request({"t": "again"}))["t"] == "ack"
    lobby = await ann.state(lambda m: m["room"]["phase"] == "lobby")
    assert lobby["room"]["settings"]["opponent"] == "easy"
    assert (await ann.request({"t": "start"}))["t"] == "ack"
    st = await ann.state(lambda m: m["room"]["phase"] == "playing")
    assert [p["computer"] for p in st["room"]["players"]] == [None, "easy"]  # its level
    assert st["game"]["moves"] == [] and st["game"]["to_move"] == 0  # a fresh board
