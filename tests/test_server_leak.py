"""Every message each client receives during a full game of the real Pictomania
engine, checked: no secret before its reveal, no one else's token, never the seed."""

from __future__ import annotations

import json
from typing import Any

import httpx

from atelier.ink.codec import Begin, End, Points, encode_batch
from support.client import Client, open_client
from support.log import logged_events
from support.server import ServerProcess, create_room

SECRET_KEYS = ("letter", "number")
CARDS: list[dict[str, Any]] = [
    {"id": f"leak{i}", "level": 1, "words": [f"w{i}{j}x" for j in "abcdefg"]} for i in range(6)
]


def unrevealed_game(msg: dict[str, Any], viewer: Client, seed: int,
                    tokens: dict[str | None, str | None]) -> dict[str, Any] | None:
    """Checks that ``msg`` carries neither the room's seed nor another player's
    token; returns its game view if it is one the reveal has not opened yet."""
    raw = json.dumps(msg)
    assert str(seed) not in raw
    for pid, token in tokens.items():
        if token is not None and pid != viewer.player:
            assert token not in raw
    if msg["t"] != "state" or msg["game"] is None:
        return None
    if msg["game"]["phase"] in ("review", "over"):
        return None  # revealed
    game: dict[str, Any] = msg["game"]
    return game


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
        await spectator.sync()

        tokens = {c.player: c.token for c in players}
        assert server.db is not None
        seed = logged_events(server.db, code)[0].data["seed"]
        for viewer in [*players, spectator]:
            texts = [m for m in viewer.log if isinstance(m, dict)]
            assert texts, "the client saw the game"
            for msg in texts:
                game = unrevealed_game(msg, viewer, seed, tokens)
                if game is None:
                    continue
                for path, _ in secret_fields(game):
                    assert path[0] == "me", (edition, path)
                    assert viewer is not spectator
                    assert msg["game"]["me"]["number"] is not None
        check_settings([*players, spectator],
                       httpx.get(f"{server.http}/api/rooms/{code}").json())


def check_settings(viewers: list[Client], summary: dict[str, Any]) -> None:
    """The settings on the wire are the game's public ones: a custom deck travels as its
    cards' levels, and a card's words only ever arrive once the card is on display."""
    shown = {word for c in viewers for msg in c.log
             if isinstance(msg, dict) and msg.get("t") == "state" and msg["game"]
             for card in msg["game"]["cards"] or [] for word in card.get("words", [])}
    hidden = {w for card in CARDS for w in card["words"]} - shown
    assert hidden
    kinds = set()
    for c in viewers:
        for msg in c.log:
            if not isinstance(msg, dict):
                continue
            kinds.add(msg["t"])
            raw = json.dumps(msg)
            assert not [w for w in hidden if w in raw], msg
            if isinstance(msg.get("room"), dict):
                assert msg["room"]["settings"]["custom_cards"] == [{"level": 1}] * len(CARDS)
    assert {"welcome", "joined", "state", "ack"} <= kinds
    assert not [w for w in hidden if w in json.dumps(summary)]
    assert summary["settings"]["custom_cards"] == [{"level": 1}] * len(CARDS)


async def test_play_again_away_and_removed_players_leak_nothing(
    server: ServerProcess, clients: list[Client]
) -> None:
    """A second game in the room, a player away (go_on) and one removed (kick while
    playing): the removed player, now watching, gets no more secrets."""
    code = create_room(server.http, "pictomania",
                       {"rounds": 1, "levels": [1], "custom_cards": CARDS})
    players = []
    for i, colour in enumerate(("red", "blue", "green", "yellow")):
        c = await open_client(clients, server, code)
        assert (await c.join(f"P{i}", colour))["t"] == "joined"
        players.append(c)
    host, p1, p2, p3 = players
    spectator = await open_client(clients, server, code)
    assert (await host.request({"t": "start"}))["t"] == "ack"
    for _ in range(3):
        assert (await host.request({"t": "next"}))["t"] == "ack"
    assert (await host.request({"t": "again"}))["t"] == "ack"
    assert (await host.request({"t": "start"}))["t"] == "ack"
    for c in (host, p1, p2):
        assert (await c.request({"t": "act", "action": {"type": "ready"}}))["t"] == "ack"
    await p3.close()
    await host.state(lambda m: m["room"]["phase"] == "playing" and not next(
        p for p in m["room"]["players"] if p["id"] == p3.player)["connected"])
    assert (await host.request({"t": "go_on"}))["t"] == "ack"  # deal without P3
    await host.state(lambda m: m["game"]["phase"] == "drawing")
    assert (await host.request({"t": "kick", "player": p2.player}))["t"] == "ack"
    kicked = await p2.expect("error", lambda m: m["code"] == "kicked")
    assert kicked
    st = await p2.state(lambda m: m["you"]["player"] is None)
    assert "me" not in st["game"]
    assert next(p for p in st["room"]["players"] if p["id"] == p2.player)["removed"]
    for c in (host, p1):
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    assert (await host.request({"t": "go_on"}))["t"] == "ack"
    for c in (host, p1, p2, spectator):
        await c.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "review")
    await spectator.drain(0.2)
    await p2.drain(0.2)

    tokens = {c.player: c.token for c in players}
    assert server.db is not None
    seed = logged_events(server.db, code)[0].data["seed"]
    for viewer in (host, p1, p2, spectator):
        for msg in (m for m in viewer.log if isinstance(m, dict)):
            game = unrevealed_game(msg, viewer, seed, tokens)
            if game is None:
                continue
            for path, _ in secret_fields(game):
                assert path[0] == "me" and msg["you"]["seat"] is not None, path
