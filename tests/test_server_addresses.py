"""Per-address limits: rooms created per minute (HTTP 429), open WebSockets and
WebSockets not yet past hello (error, then close 4429); forwarded addresses are
believed only when the server is told to trust the proxy."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import websockets

from atelier.server.edge.addresses import (
    CONNECTIONS_PER_ADDRESS,
    PENDING_HELLOS_PER_ADDRESS,
    ROOMS_PER_MINUTE,
    AddressLimits,
    AddressPolicy,
    client_address,
)
from atelier.server.edge.forwarded import Proxies
from support.client import Client, open_client
from support.server import ServerProcess, create_room


def new_room(srv: ServerProcess, lang: str = "en", **headers: str) -> httpx.Response:
    return httpx.post(f"{srv.http}/api/rooms?lang={lang}", json={"game": "secrets"},
                      headers=headers, timeout=10)


async def refused(srv: ServerProcess, code: str, **headers: str) -> tuple[dict[str, Any], int]:
    """Open a WebSocket that the server refuses: its error and its close code."""
    ws = await websockets.connect(f"{srv.ws}/ws/{code}", additional_headers=headers)
    try:
        error = json.loads(await ws.recv())
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert ws.close_code is not None
        return error, ws.close_code
    finally:
        await ws.close()


def test_the_defaults_let_a_lan_party_play() -> None:
    """Eight phones behind one address, each with a tab or two, a TV, a few rooms."""
    assert ROOMS_PER_MINUTE >= 20
    assert CONNECTIONS_PER_ADDRESS >= 8 * 3
    assert PENDING_HELLOS_PER_ADDRESS >= 16
    limits = AddressLimits()
    assert all(limits.take_room("10.0.0.1", now=100.0) for _ in range(ROOMS_PER_MINUTE))
    assert not limits.take_room("10.0.0.1", now=100.0)
    assert limits.take_room("10.0.0.2", now=100.0)  # another address is not affected
    assert limits.take_room("10.0.0.1", now=100.0 + 60 / ROOMS_PER_MINUTE)  # it refills
    for _ in range(24):
        assert limits.admit("10.0.0.1") is None
        limits.said_hello("10.0.0.1")
    assert limits.open_connections("10.0.0.1") == 24
    for _ in range(24):
        limits.release("10.0.0.1", said_hello=True)
    assert limits.open_connections("10.0.0.1") == 0


def test_forwarded_for_is_believed_only_from_trusted_proxies() -> None:
    xff = "6.6.6.6, 203.0.113.9"  # the client wrote the first entry, our proxy the last
    assert client_address("10.0.0.5", xff, Proxies("")) == "10.0.0.5"
    assert client_address("10.0.0.5", xff, Proxies("127.0.0.1")) == "10.0.0.5"
    assert client_address("127.0.0.1", xff, Proxies("127.0.0.1")) == "203.0.113.9"
    assert client_address("127.0.0.1", xff, Proxies("*")) == "203.0.113.9"
    chain = "6.6.6.6, 203.0.113.9, 10.0.0.2"  # through two proxies we trust
    assert client_address("127.0.0.1", chain, Proxies("127.0.0.1, 10.0.0.0/24")) == (
        "203.0.113.9")
    assert client_address("127.0.0.1", None, Proxies("127.0.0.1")) == "127.0.0.1"


def test_counts_come_back_when_connections_end() -> None:
    limits = AddressLimits(AddressPolicy(connections=3, pending_hellos=2))
    assert limits.admit("a") is None and limits.admit("a") is None
    err = limits.admit("a")
    assert err is not None and err.code == "too_many_pending"
    limits.said_hello("a")
    assert limits.admit("a") is None
    err = limits.admit("a")
    assert err is not None and err.code == "too_many_connections"
    limits.release("a", said_hello=False)
    limits.release("a", said_hello=False)
    limits.release("a", said_hello=True)
    assert limits.open_connections("a") == 0
    assert limits.admit("a") is None and limits.admit("a") is None


async def test_rooms_per_minute(server_factory: Callable[..., ServerProcess]) -> None:
    # the only trusted proxy is elsewhere: this client's forwarded headers prove nothing
    srv = server_factory("--max-rooms-per-minute", "3", "--forwarded-allow-ips", "10.9.8.7")
    assert [new_room(srv).status_code for _ in range(3)] == [201, 201, 201]
    reply = new_room(srv, lang="de")
    assert reply.status_code == 429 and int(reply.headers["retry-after"]) >= 1
    body = reply.json()
    assert body["code"] == "too_many_rooms" and body["params"] == {"per_minute": 3}
    assert "3" in body["message"] and "Räume" in body["message"]
    # a forged forwarded address does not help: the client is not a trusted proxy
    assert new_room(srv, **{"X-Forwarded-For": "203.0.113.9"}).status_code == 429


async def test_forwarded_address_when_trusted(
    server_factory: Callable[..., ServerProcess]
) -> None:
    srv = server_factory("--max-rooms-per-minute", "1", "--max-connections", "1",
                         "--forwarded-allow-ips", "127.0.0.1")
    assert new_room(srv, **{"X-Forwarded-For": "203.0.113.9"}).status_code == 201
    assert new_room(srv, **{"X-Forwarded-For": "203.0.113.9"}).status_code == 429
    code = new_room(srv, **{"X-Forwarded-For": "198.51.100.7"}).json()["code"]
    # WebSockets too: one each for two forwarded addresses, a second one refused
    first = await websockets.connect(f"{srv.ws}/ws/{code}",
                                     additional_headers={"X-Forwarded-For": "203.0.113.9"})
    try:
        await first.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        assert json.loads(await first.recv())["t"] == "welcome"
        other = await websockets.connect(f"{srv.ws}/ws/{code}",
                                         additional_headers={"X-Forwarded-For": "198.51.100.7"})
        await other.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        assert json.loads(await other.recv())["t"] == "welcome"
        await other.close()
        error, close = await refused(srv, code, **{"X-Forwarded-For": "203.0.113.9"})
        assert (error["code"], close) == ("too_many_connections", 4429)
    finally:
        await first.close()


async def test_connections_per_address(server_factory: Callable[..., ServerProcess],
                                       clients: list[Client]) -> None:
    srv = server_factory("--max-connections", "3")
    code = create_room(srv.http)
    first = [await open_client(clients, srv, code) for _ in range(3)]
    error, close = await refused(srv, code, **{"Accept-Language": "uk"})
    assert (error["t"], error["code"], close) == ("error", "too_many_connections", 4429)
    assert "з’єднань" in error["message"]
    await first[0].close()  # a tab closed: room for another, once the server has seen it go
    end = time.monotonic() + 20
    while True:
        again = Client(await websockets.connect(f"{srv.ws}/ws/{code}"))
        clients.append(again)
        with contextlib.suppress(websockets.ConnectionClosed):  # refused: closed already
            await again.send({"t": "hello", "v": 1, "token": None, "lang": "en"})
        first_reply = await again.recv()  # the refusal is read even after the close
        if first_reply["t"] == "welcome":
            break
        assert first_reply["code"] == "too_many_connections" and time.monotonic() < end
        await asyncio.sleep(0.05)


async def test_connections_not_past_hello(server_factory: Callable[..., ServerProcess],
                                          clients: list[Client]) -> None:
    srv = server_factory("--max-pending-hellos", "2")
    code = create_room(srv.http)
    silent = [await websockets.connect(f"{srv.ws}/ws/{code}") for _ in range(2)]
    try:
        # the server counts them once it has accepted them: a refusal shows it
        error, close = await refused(srv, code)
        assert (error["code"], close) == ("too_many_pending", 4429)
        # one says hello: it no longer counts as pending
        await silent[0].send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        assert json.loads(await silent[0].recv())["t"] == "welcome"
        late = await open_client(clients, srv, code)  # room for one more
        assert late.log[0]["t"] == "welcome"
    finally:
        for ws in silent:
            await ws.close()
