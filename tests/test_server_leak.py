"""Every message each client receives during a full game of the real Pictomania
engine, checked: no secret before its reveal, no one else's token, never the seed."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from atelier.ink.codec import Begin, End, Points, encode_batch
from conftest import Client, ServerProcess, create_room, open_client

SECRET_KEYS = ("letter", "number")
CARDS = [{"id": f"leak{i}", "level": 1, "words": [f"w{i}{j}x" for j in "abcdefg"]}
         for i in range(6)]


def secret_fields(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every letter/number field in a view, with where it sits."""
    found = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k in SECRET_KEYS and v is not None:
                found.append(((*path, k), v))
            found += secret_fields(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += secret_fields(v, (*path, str(i)))
    return found


async def play_round(players: list[Client], spectator: Client, edition: str) -> None:
    for c in players:
        assert (await c.request({"t": "act", "action": {"type": "ready"}}))["t"] == "ack"
    mine = []
    for c in players:
        st = await c.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "drawing")
        mine.append(st["game"]["me"])
    batch = encode_batch([Begin("pen", 10, 300, 300, 0, None), Points((4, 1, 12, 0) * 6), End()])
    for c in players:
        await c.send(batch)
    # each guesses every other drawing with a number of their own, then is done
    n = len(players)
    for s, c in enumerate(players):
        for k, target in enumerate(t for t in range(n) if t != s):
            reply = await c.request({"t": "act", "action": {"type": "guess", "target": target,
                                                             "number": k + 1}})
            assert reply["t"] == "ack", reply
    for c in players:
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    for c in [*players, spectator]:
        await c.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "review")
    assert all(m["number"] for m in mine)


async def test_no_secret_before_its_reveal(server: ServerProcess, clients: list[Client]) -> None:
    for edition in ("second", "first"):
        code = create_room(server.http, "pictomania",
                           {"edition": edition, "rounds": 1, "levels": [1], "custom_cards": CARDS})
        players = []
        for i, colour in enumerate(("red", "blue", "green")):
            c = await open_client(clients, server, code)
            assert (await c.join(f"P{i}", colour))["t"] == "joined"
            players.append(c)
        spectator = await open_client(clients, server, code)
        assert (await players[0].request({"t": "start"}))["t"] == "ack"
        await play_round(players, spectator, edition)
        for c in players:
            assert (await c.request({"t": "act", "action": {"type": "confirm"}}))["t"] == "ack"
        await spectator.state(lambda m: m["room"]["phase"] == "over")
        await spectator.drain(0.2)

        tokens = {c.player: c.token for c in players}
        seed = json.loads(sqlite3.connect(server.db).execute(
            "select data from events where room=? and seq=1", (code,)).fetchone()[0])["seed"]
        for viewer in [*players, spectator]:
            texts = [m for m in viewer.log if isinstance(m, dict)]
            assert texts, "the client saw the game"
            for msg in texts:
                raw = json.dumps(msg)
                assert str(seed) not in raw
                for pid, token in tokens.items():
                    if token is not None and pid != viewer.player:
                        assert token not in raw
                if msg["t"] != "state" or msg["game"] is None:
                    continue
                if msg["game"]["phase"] in ("review", "over"):
                    continue  # revealed
                for path, _ in secret_fields(msg["game"]):
                    assert path[0] == "me", (edition, path)
                    assert viewer is not spectator
                    assert msg["game"]["me"]["number"] is not None
