"""Every refusal on the wire: a clear, translated error, and nothing changes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import websockets
from websockets.typing import Origin

from support.client import Client, open_client, seated_room
from support.server import ServerProcess, create_room


def _has_id(k: int) -> Callable[[Any], bool]:
    """The reply to the message sent with id ``k``."""
    return lambda m: bool(m.get("id") == k)


async def test_hello_must_come_first(server: ServerProcess, clients: list[Client]) -> None:
    code = create_room(server.http)
    ws = await websockets.connect(f"{server.ws}/ws/{code}")
    await ws.send(json.dumps({"t": "ping"}))
    err = json.loads(await ws.recv())
    assert err["code"] == "hello_first"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400


async def test_bad_version_and_unknown_room(server: ServerProcess) -> None:
    code = create_room(server.http)
    ws = await websockets.connect(f"{server.ws}/ws/{code}")
    await ws.send(json.dumps({"t": "hello", "v": 2, "token": None, "lang": "de"}))
    err = json.loads(await ws.recv())
    assert err["code"] == "bad_version" and "neu" in err["message"]
    ws = await websockets.connect(f"{server.ws}/ws/QQQQQQ")
    await ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "uk"}))
    err = json.loads(await ws.recv())
    assert err["code"] == "unknown_room" and "QQQQQQ" in err["message"]
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


async def test_foreign_origin_is_refused(server: ServerProcess) -> None:
    code = create_room(server.http)
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(f"{server.ws}/ws/{code}", origin=Origin("http://evil.example"))
    assert refused.value.response.status_code == 403
    ok = await websockets.connect(f"{server.ws}/ws/{code}", origin=Origin(server.http))
    await ok.close()


@pytest.mark.parametrize(
    ("raw", "detail"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not an object"),
        ('{"t": "dance"}', "unknown message type 'dance'"),
        ('{"name": "x"}', "missing field t"),
        ('{"t": "join", "name": "A", "colour": "red", "admin": true}', "unexpected field admin"),
        ('{"t": "join", "name": 5, "colour": "red"}', "name"),
        ('{"t": "act", "action": "done"}', "action"),
        ('{"t": "kick", "player": "' + "x" * 100 + '"}', "player"),
    ],
)
async def test_malformed_messages(server: ServerProcess, clients: list[Client], raw: str,
                                  detail: str) -> None:
    code = create_room(server.http)
    c = await open_client(clients, server, code, lang="de")
    before = await c.state()
    await c.send(raw)
    err = await c.expect("error")
    assert err["code"] == "bad_message" and detail in err["params"]["detail"]
    assert err["message"].startswith("Diese Nachricht kann nicht verarbeitet werden")
    # still connected, nothing changed
    assert (await c.request({"t": "ping"}))["t"] == "ack"
    summary = (await c.request({"t": "lang", "lang": "en"}))
    assert summary["t"] == "ack"
    assert before["room"]["players"] == []


async def test_ids_come_back_on_errors(server: ServerProcess, clients: list[Client]) -> None:
    code = create_room(server.http)
    c = await open_client(clients, server, code)
    await c.send({"t": "start", "id": 41, "extra": 1})
    err = await c.expect("error")
    assert err["id"] == 41 and err["code"] == "bad_message"
    await c.send({"t": "start", "id": 42})
    err = await c.expect("error")
    assert err["id"] == 42 and err["code"] == "not_host"


async def test_oversized_text(server: ServerProcess, clients: list[Client]) -> None:
    code = create_room(server.http)
    c = await open_client(clients, server, code)
    await c.send({"t": "settings", "settings": {"x": "y" * 20000}})
    err = await c.expect("error")
    assert err["code"] == "message_too_large" and err["params"]["max"] == 16384
    assert (await c.request({"t": "ping"}))["t"] == "ack"


async def test_game_rule_errors_are_translated(server: ServerProcess,
                                               clients: list[Client]) -> None:
    code, (ann, bob) = await seated_room(clients, server)
    assert (await ann.request({"t": "lang", "lang": "uk"}))["t"] == "ack"
    err = await ann.request({"t": "act", "action": {"type": "fly"}})
    assert err["code"] == "bad_action" and err["message"] == "Цю дію не розпізнано."
    err = await ann.request({"t": "act", "action": {"no": "type"}})
    assert err["code"] == "bad_action"
    err = await ann.request({"t": "act", "action": {"type": "timeout"}})
    assert err["code"] == "not_a_player"
    assert (await ann.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    err = await ann.request({"t": "act", "action": {"type": "done"}})
    assert err["code"] == "wrong_phase" and err["message"] == "Зараз цього зробити не можна."
    assert (await bob.request({"t": "next"}))["code"] == "not_host"
    spectator = await open_client(clients, server, code)
    err = await spectator.request({"t": "act", "action": {"type": "done"}})
    assert err["code"] == "not_a_player"
    for msg in ({"t": "settings", "settings": {}}, {"t": "kick", "player": bob.player},
                {"t": "start"}):
        assert (await ann.request(msg))["code"] == "game_started"


async def test_simultaneous_actions_each_answered(server: ServerProcess,
                                                  clients: list[Client]) -> None:
    """Two players acting at once: both applied, one after the other, none dropped."""
    _, players = await seated_room(clients, server, n=4)

    async def five_notes(p: Client, i: int) -> list[str]:
        for k in range(5):
            await p.send({"t": "act", "id": k, "action": {"type": "note", "text": str(i)}})
        return [(await p.expect_any(("ack", "error"), _has_id(k)))["t"]
                for k in range(5)]

    replies = await asyncio.gather(*(five_notes(p, i) for i, p in enumerate(players)))
    assert replies == [["ack"] * 5] * 4
    st = await players[0].state(lambda m: bool(m["game"]) and m["game"]["notes"] == 20)
    assert st["seq"] >= 20


async def test_flood_is_limited_then_closed(server: ServerProcess,
                                            clients: list[Client]) -> None:
    code = create_room(server.http)
    c = await open_client(clients, server, code)
    for _ in range(200):
        await c.send({"t": "ping"})
    codes = []
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            msg = await c.recv(5)
            if isinstance(msg, dict) and msg["t"] == "error":
                codes.append(msg["code"])
    assert "rate_limited" in codes
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
