"""``atelier rooms list|show|close|export`` against the store of a running server:
a running game's secrets (words, tokens, host key, hidden ink, the seed) are
never printed; a closed room is gone for its players."""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Callable

import httpx
import pytest
import websockets

from support.cli import GAME, atelier
from support.client import Client, open_client, seated_room
from support.ink import stroke
from support.server import REDIS_URL, ServerProcess


def state_with_game(c: Client) -> dict[str, object]:
    seen = [m for m in c.log if isinstance(m, dict) and m["t"] == "state" and m["game"]]
    found: dict[str, object] = seen[-1]
    return found


async def test_show_and_export_of_a_running_game_print_no_secret(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    srv = server_factory()
    assert srv.db is not None
    created = httpx.post(srv.http + "/api/rooms", json={"game": "secrets"}).json()
    code, host_key = created["code"], created["host_key"]
    players = []
    for i, colour in enumerate(("red", "blue")):
        c = await open_client(clients, srv, code)
        assert (await c.join(f"P{i}", colour, host_key if i == 0 else None))["t"] == "joined"
        players.append(c)
    assert (await players[0].request({"t": "start"}))["t"] == "ack"
    secrets_: list[str] = [host_key, *(p.token or "" for p in players)]
    drawn = stroke(x=321, y=123)
    for p in players:
        state = await p.state(lambda m: m["game"] is not None)
        secrets_.append(state["game"]["my_word"])
        await p.send(drawn)
        await p.sync()
    # a finished room too, whose log may be exported
    over, done = await seated_room(clients, srv, n=2)
    for p in done:
        assert (await p.act(type="done"))["t"] == "ack"
    assert (await done[0].request({"t": "next"}))["t"] == "ack"
    await done[0].state(lambda m: m["room"]["phase"] == "over")
    over_tokens = [p.token or "" for p in done]

    def run(*args: str) -> str:
        result = atelier("rooms", *args, "--db", srv.db or "", "--extra-game", GAME)
        assert result.returncode == 0, result.stderr
        return result.stdout + result.stderr

    listing = run("list")
    assert f"{code}  secrets" in listing and "playing" in listing and over in listing
    assert over in run("list", "--status", "over") and code not in run("list", "--status", "over")
    ink_b64 = base64.b64encode(drawn).decode()
    for args in (("show", code), ("show", code, "--json"), ("export", code)):
        printed = run(*args)
        assert code in printed
        for secret in secrets_:
            assert secret not in printed, (args, secret)
        assert '"seed"' not in printed and "token_hash" not in printed
        assert ink_b64[8:40] not in printed  # the hidden drawings are not exported
    shown = json.loads(run("show", code, "--json"))
    assert shown["status"] == "playing" and [p["name"] for p in shown["room"]["players"]] == [
        "P0", "P1"]
    assert shown["game"]["words"] is None and shown["game"]["my_word"] is None
    exported = json.loads(run("export", code))
    assert exported["log"] is None and exported["drawings"] == []

    finished = json.loads(run("export", over))
    assert [e["kind"] for e in finished["log"]][:1] == ["created"]
    assert "seed" not in finished["log"][0]["data"]
    assert all(token not in json.dumps(finished) for token in over_tokens)
    assert finished["game"]["words"]  # revealed at the end: public now

    bad = atelier("rooms", "show", "NOPE!!", "--db", srv.db)
    assert bad.returncode == 2 and "not a room code" in bad.stderr
    missing = atelier("rooms", "show", "ZZZZZZ", "--db", srv.db)
    assert missing.returncode == 1 and "no room ZZZZZZ" in missing.stderr


async def test_close_takes_a_room_from_a_running_server(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    srv = server_factory("--unload-idle", "2")  # its sweep runs every half second
    assert srv.db is not None
    code, players = await seated_room(clients, srv, n=2)
    result = atelier("rooms", "close", code, "--db", srv.db)
    assert result.returncode == 0, result.stderr
    # the players are told there is no such room, and their sockets close for good
    gone = await players[0].expect("error", lambda m: m["code"] == "unknown_room", timeout=30)
    assert gone["code"] == "unknown_room"
    try:
        while True:
            await players[1].recv(30)
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 4404
    assert httpx.get(f"{srv.http}/api/rooms/{code}").status_code == 404
    listing = atelier("rooms", "list", "--status", "closed", "--db", srv.db)
    assert code in listing.stdout


@pytest.mark.redis
async def test_close_with_redis_tells_the_running_servers_at_once(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    """With the servers' Redis, ``close`` does not wait for their idle sweep (every
    30 s here): the players hear at once that the room is gone."""
    prefix = f"c{secrets.token_hex(4)}_"  # a channel of its own (the prefix names it)
    srv = server_factory("--redis-url", REDIS_URL, "--table-prefix", prefix)
    assert srv.db is not None
    code, players = await seated_room(clients, srv, n=2)
    result = atelier("rooms", "close", code, "--db", srv.db, "--table-prefix", prefix,
                     "--redis-url", REDIS_URL)
    assert result.returncode == 0, result.stderr
    assert "told 1 server process" in result.stdout
    gone = await players[0].expect("error", lambda m: m["code"] == "unknown_room", timeout=20)
    assert code in json.dumps(gone)  # "there is no room CODE", in their language
    assert httpx.get(f"{srv.http}/api/rooms/{code}").status_code == 404

    # a Redis that does not answer: closed all the same, and said so
    other, _ = await seated_room(clients, srv, n=2)
    dead = atelier("rooms", "close", other, "--db", srv.db, "--table-prefix", prefix,
                   "--redis-url", "redis://:hunter2@127.0.0.1:1")
    assert dead.returncode == 1 and "did not answer" in dead.stderr
    assert "hunter2" not in dead.stderr + dead.stdout  # the URL's password is not printed
    assert f"room {other} closed" in dead.stdout
