"""Hostile inputs above the socket: ink beyond any drawing's size, rooms created by
other sites' pages, codes guessed by the hundred, bodies cut off, settings at the
edge. Each over HTTP or a WebSocket to a real server process."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable

import httpx
import pytest
import websockets

from atelier.ink.codec import Clear, encode_batch
from support.client import Client, seated_room
from support.server import ServerProcess


def clears(first: int, n: int = 500) -> bytes:
    """A batch of ``n`` clears: no stroke, but kept as any ink is."""
    return encode_batch([Clear(t) for t in range(first, first + n)])


async def draw_until_refused(player: Client, start: int) -> tuple[str, int]:
    """Send batches of clears until one is refused: its code and the bytes kept."""
    kept = 0
    for k in range(1000):
        batch = clears(start + 500 * k)
        await player.send(batch)
        reply = await player.request({"t": "ping"})  # answered after the batch
        errors = [m for m in player.log if isinstance(m, dict) and m.get("t") == "error"]
        if errors:
            return str(errors[-1]["code"]), kept
        assert reply["t"] == "ack"
        kept += len(batch)
    raise AssertionError("never refused")


async def test_ink_is_bounded_per_drawing_and_per_room(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    srv = server_factory("--ink-limits", "3000,5000")
    _code, (ann, bob) = await seated_room(clients, srv)
    code, kept = await draw_until_refused(ann, 0)
    assert code == "drawing_full" and kept <= 3000
    code, more = await draw_until_refused(bob, 0)
    assert code == "room_ink_full" and kept + more <= 5000


@pytest.mark.parametrize("media", ["text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", None])
def test_a_room_is_created_only_from_json(server: ServerProcess, media: str | None) -> None:
    """A page of another site can post a form or text/plain without the browser
    asking the server first; JSON it cannot."""
    body = json.dumps({"game": "secrets"}).encode()
    headers = {"content-type": media} if media else {}
    r = httpx.post(server.http + "/api/rooms", content=body, headers=headers)
    assert r.status_code == 415 and r.json()["code"] == "json_required", r.text


async def test_room_lookups_per_address_are_limited(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--max-lookups-per-minute", "5")
    code = httpx.post(srv.http + "/api/rooms", json={"game": "secrets"}).json()["code"]
    for _ in range(5):
        assert httpx.get(f"{srv.http}/api/rooms/{code}").status_code == 200
    r = httpx.get(f"{srv.http}/api/rooms/{code}", headers={"accept-language": "uk"})
    assert r.status_code == 429 and r.json()["code"] == "too_many_lookups"
    assert "хвилину" in r.json()["message"]
    r = httpx.get(f"{srv.http}/api/rooms/QQQQQQ/qr.svg")  # a guess: refused unlooked
    assert r.status_code == 429


async def test_hellos_to_codes_that_do_not_exist_are_limited(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--max-lookups-per-minute", "5")

    async def hello(code: str) -> tuple[str, int | None]:
        async with websockets.connect(f"{srv.ws}/ws/{code}") as ws:
            await ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
            error = json.loads(await asyncio.wait_for(ws.recv(), 20))
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 20)
            return error["code"], ws.close_code

    for k in range(5):
        assert await hello(f"NOPE{k}A") == ("unknown_room", 4404)
    assert await hello("NOPE9A") == ("too_many_lookups", 4429)


async def test_a_client_that_leaves_mid_body_logs_nothing_at_the_default_level(
        server_factory: Callable[..., ServerProcess]) -> None:
    """An abandoned body is abuse counted in the interval's summary (edge/abuse.py),
    never a line per event at the default level; the server goes on answering."""
    srv = server_factory()
    with socket.create_connection(("127.0.0.1", srv.port)) as sock:
        sock.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"game\": ")
    deadline = time.monotonic() + 20
    while httpx.get(srv.http + "/healthz").json().get("unfinished_requests", 0) != 0:
        assert time.monotonic() < deadline, "the abandoned request was never let go"
        await asyncio.sleep(0.05)
    assert httpx.get(srv.http + "/healthz").status_code == 200
    lines = [line for line in srv.log().splitlines() if line.strip()]
    assert "Traceback" not in srv.log() and not any("ERROR" in line for line in lines)
    assert not any("left before" in line or "body" in line.lower() for line in lines), lines


def test_an_unknown_room_language_is_refused(server: ServerProcess) -> None:
    r = httpx.post(server.http + "/api/rooms", json={"game": "secrets", "language": "xx"})
    assert r.status_code == 400 and r.json()["code"] == "unknown_language"


@pytest.mark.parametrize(("limit", "status"), [(1e-300, 400), (0.5, 400), (4.9, 400),
                                               (5, 201), (3600, 201), (3601, 400)])
def test_a_drawing_time_limit_has_sensible_bounds(server: ServerProcess, limit: float,
                                                  status: int) -> None:
    r = httpx.post(server.http + "/api/rooms",
                   json={"game": "incognito", "settings": {"drawing_time_limit": limit}})
    assert r.status_code == status, r.text
