"""Every HTTP route answers a bad path, query or body with a 4xx JSON error in the
asker's language, never a 500 or a bare text page."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from atelier.ink.codec import Begin, End, Points, encode_batch
from support.client import Client, seated_room
from support.server import ServerProcess, create_room


def refused(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body: dict[str, Any] = r.json()
    assert body["code"] == code, body
    assert body["message"] and body["message"] != f"error.{code}", body
    return body


async def drawn_room(server: ServerProcess, clients: list[Client]) -> str:
    """A secrets room whose seat 0 drew one stroke, turned over for all to see."""
    code, (ann, bob) = await seated_room(clients, server)
    await ann.send(encode_batch([Begin("pen", 12, 100, 200, 0, None),
                                 Points((5, 3, 16, 0) * 8), End()]))
    for c in (ann, bob):
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    return code


async def test_drawing_paths_and_sizes(server: ServerProcess, clients: list[Client]) -> None:
    code = await drawn_room(server, clients)
    base = f"{server.http}/api/rooms/{code}/drawings/round-1"
    async with httpx.AsyncClient() as http:
        ok = await http.get(f"{base}/0.png?size=64")
        assert ok.status_code == 200 and ok.headers["content-type"] == "image/png"
        for name in ("%C2%B2.png", "%D9%A0.png", "0.bmp", "0", "00000.png", ".png", "-1.png",
                     "9.png", "0.png.png"):
            refused(await http.get(f"{base}/{name}"), 404, "unknown_drawing")
        for size in ("%C2%B2", "%D9%A1%D9%A0%D9%A0", "abc", "-5", "1e3", "", "9" * 40):
            body = refused(await http.get(f"{base}/0.png?size={size}&lang=de"), 400, "bad_query")
            assert body["params"] == {"name": "size"} and "size" in body["message"]
            for animated in ("gif", "webp"):
                refused(await http.get(f"{base}/0.{animated}?size={size}"), 400, "bad_query")
        refused(await http.get(f"{server.http}/api/rooms/{code}/drawings/%C2%B2/0.png"),
                404, "unknown_drawing")


async def test_unknown_paths_and_methods_are_json(server: ServerProcess) -> None:
    code = create_room(server.http)
    async with httpx.AsyncClient(base_url=server.http) as http:
        for path in ("/nothing", "/api", "/api/rooms/X/Y/Z/W/V", "/static/nothing.js",
                     "/static/%C2%B2", f"/api/rooms/{code}/deck.%C2%B2"):
            r = await http.get(path, headers={"accept-language": "uk"})
            assert 400 <= r.status_code < 500, (path, r.status_code)
            assert r.headers["content-type"].startswith("application/json"), path
            assert r.json()["message"], path
        body = refused(await http.get("/nothing?lang=de"), 404, "not_found")
        assert body["message"] == "Unter dieser Adresse gibt es nichts."
        refused(await http.delete(f"/api/rooms/{code}"), 405, "method_not_allowed")
        refused(await http.put("/api/rooms"), 405, "method_not_allowed")
        refused(await http.get("/r/%C2%B2"), 404, "unknown_room")
        refused(await http.get("/r/" + "A" * 40), 404, "unknown_room")
        assert (await http.get(f"/r/{code}")).status_code == 200
        for bad in ("%C2%B2", "a" * 200, "%00"):
            refused(await http.get(f"/api/rooms/{bad}"), 404, "unknown_room")
            refused(await http.get(f"/api/rooms/{bad}/drawings"), 404, "unknown_room")
            refused(await http.get(f"/api/rooms/{bad}/deck"), 404, "unknown_room")
        refused(await http.get("/api/strings/%C2%B2"), 404, "unknown_language")


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"not json",
        b"\xff\xfe",
        b"[]",
        b'{"game": 5}',
        b'{"game": "secrets", "settings": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'{"game": "secrets", "junk": 1}',
    ],
)
def test_create_room_refuses_bad_bodies(server: ServerProcess, body: bytes) -> None:
    r = httpx.post(server.http + "/api/rooms", content=body,
                   headers={"content-type": "application/json"})
    refused(r, 400, "bad_message")


JSON = {"content-type": "application/json"}


def test_create_room_bounds_its_body(server: ServerProcess) -> None:
    big = json.dumps({"game": "secrets", "settings": {"x": "y" * 200_000}}).encode()
    body = refused(httpx.post(server.http + "/api/rooms", content=big, headers=JSON), 413,
                   "body_too_large")
    assert body["params"]["max"] < 200_000

    def chunks() -> Any:  # no Content-Length: the stream itself is counted
        yield b'{"game": "secrets", "settings": {"x": "'
        for _ in range(100):
            yield b"y" * 4096
        yield b'"}}'

    refused(httpx.post(server.http + "/api/rooms", content=chunks(), headers=JSON), 413,
            "body_too_large")
    assert httpx.post(server.http + "/api/rooms", json={"game": "secrets"}).status_code == 201
