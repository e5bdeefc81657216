"""An echo server over exactly the room socket's WebSocket transport, for conformance
suites such as Autobahn|Testsuite (docs/performance.md, "Conformance").

    python -m atelier.bench.wsecho --port 9001

Every text or binary message sent to ``ws://HOST:PORT/ws/<anything>`` comes back as
it was; ``GET /`` answers 200. The transport's limits are the room socket's own
(a message over 64 KiB is refused), since those are what is being tested.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import uvicorn
from starlette.websockets import WebSocket

from atelier.server.ink.transport import SocketTransport
from atelier.server.wire.frontdoor import front_protocol

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


async def echo(ws: WebSocket, code: str, transport: SocketTransport) -> None:
    """Send back every message until the client goes."""
    await ws.accept()
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("bytes") is not None:
            await ws.send_bytes(message["bytes"])
        else:
            await ws.send_text(message.get("text") or "")


async def page(scope: Scope, receive: Receive, send: Send) -> None:
    """Plain HTTP: 200 to anything (a suite checks the server is up first)."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"atelier wsecho\n"})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atelier.bench.wsecho",
                                 description="Echo WebSocket messages over the room "
                                 "socket's transport (ws://HOST:PORT/ws/echo).")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=9001)
    args = ap.parse_args(argv)
    http: Any = front_protocol(echo)
    uvicorn.Server(uvicorn.Config(page, http=http, ws=http, host=args.host, port=args.port,
                                  log_level="warning", lifespan="on")).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
