"""Security headers on every HTTP answer, and the WebSocket Origin check by scheme and host."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import httpx
import websockets
from websockets.typing import Origin

from atelier.i18n import translate
from support.server import ServerProcess, create_room


def test_every_answer_carries_the_headers(server: ServerProcess) -> None:
    code = create_room(server.http)
    answers = [
        httpx.get(server.http + "/"),
        httpx.get(f"{server.http}/r/{code}"),
        httpx.get(server.http + "/static/app.js"),
        httpx.get(server.http + "/static/styles.css"),
        httpx.get(server.http + "/static/missing.js"),
        httpx.get(server.http + "/healthz"),
        httpx.get(server.http + "/api/strings/de"),
        httpx.get(f"{server.http}/api/rooms/{code}"),
        httpx.get(server.http + "/api/rooms/QQQQQQ"),
        httpx.get(f"{server.http}/api/rooms/{code}/drawings/round-1/%C2%B2.png"),
        httpx.post(server.http + "/api/rooms", content=b"nope"),
        httpx.post(server.http + "/api/rooms", json={"game": "secrets"}),
        httpx.delete(server.http + "/api/rooms"),
        httpx.get(server.http + "/nothing/here"),
    ]
    for r in answers:
        where = (r.request.method, str(r.request.url), r.status_code)
        csp = r.headers.get("content-security-policy", "")
        directives = dict(
            d.strip().partition(" ")[::2] for d in csp.split(";") if d.strip()
        )
        assert directives.get("default-src") == "'self'", where
        assert directives.get("script-src") == "'self'", where
        assert directives.get("style-src") == "'self'", where
        assert directives.get("connect-src") == "'self'", where
        assert directives.get("frame-ancestors") == "'none'", where
        assert directives.get("object-src") == "'none'", where
        assert "unsafe" not in csp, where
        assert r.headers.get("x-content-type-options") == "nosniff", where
        assert r.headers.get("referrer-policy") == "no-referrer", where
        assert r.headers.get("x-frame-options") == "DENY", where


async def connect(srv: ServerProcess, code: str, origin: str,
                  headers: dict[str, str] | None = None) -> int:
    """101 if the WebSocket opens, else the HTTP status of the refusal."""
    try:
        ws = await websockets.connect(f"{srv.ws}/ws/{code}", origin=Origin(origin),
                                      additional_headers=headers or {})
    except websockets.InvalidStatus as refused:
        return int(refused.response.status_code)
    await ws.close()
    return 101


async def test_origin_must_match_scheme_and_host(server: ServerProcess) -> None:
    code = create_room(server.http)
    host = server.http.split("://", 1)[1]
    assert await connect(server, code, f"http://{host}") == 101
    assert await connect(server, code, f"https://{host}") == 403  # same host, other scheme
    assert await connect(server, code, f"HTTP://{host.upper()}") == 101
    assert await connect(server, code, "http://evil.example") == 403
    assert await connect(server, code, f"http://{host}.evil.example") == 403
    assert await connect(server, code, "null") == 403


async def test_behind_a_tls_proxy(server_factory: Callable[..., ServerProcess],
                                  tmp_path: Path) -> None:
    """A proxy that ends TLS says so in X-Forwarded-Proto; the server believes it only
    from the addresses in --forwarded-allow-ips."""
    trusting = server_factory("--forwarded-allow-ips", "127.0.0.1",
                              "--allow-origin", "https://atelier.example.org/")
    code = create_room(trusting.http)
    host = trusting.http.split("://", 1)[1]
    https = {"X-Forwarded-Proto": "https"}
    assert await connect(trusting, code, f"https://{host}", https) == 101
    assert await connect(trusting, code, f"http://{host}", https) == 403
    assert await connect(trusting, code, "https://atelier.example.org") == 101
    assert await connect(trusting, code, "http://atelier.example.org") == 403
    wary = server_factory("--forwarded-allow-ips", "10.9.8.7", db=str(tmp_path / "wary.sqlite3"))
    code = create_room(wary.http)
    host = wary.http.split("://", 1)[1]
    assert await connect(wary, code, f"https://{host}", https) == 403
    assert await connect(wary, code, f"http://{host}", https) == 101


async def test_the_room_socket_refuses_in_json_with_the_headers(server: ServerProcess) -> None:
    """The room socket has its own transport: its refusals are HTTP answers like the rest."""
    code = create_room(server.http)
    for request, status, error in [
        (f"GET /ws/{code} HTTP/1.1\r\nHost: x\r\nAccept-Language: de\r\n\r\n", 400,
         "bad_request"),
        (f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
         "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
         "Sec-WebSocket-Version: 13\r\nOrigin: http://evil.example\r\n"
         "Accept-Language: de\r\n\r\n", 403, "origin_refused"),
    ]:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(request.encode())
        raw = await asyncio.wait_for(reader.read(), 20)
        writer.close()
        head, _, body = raw.decode().partition("\r\n\r\n")
        assert head.startswith(f"HTTP/1.1 {status}"), head
        headers = {k.lower(): v.strip() for k, _, v in
                   (line.partition(":") for line in head.split("\r\n")[1:])}
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        answer = json.loads(body)
        assert answer["code"] == error
        assert answer["message"] == translate(f"error.{error}", "de")
