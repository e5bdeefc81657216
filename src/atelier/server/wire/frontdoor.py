"""Every connection's first bytes, on the same port as the HTTP app.

A connection's request head is read here (:class:`FrontProtocol`, which also
counts the connection against its address and times its head): an upgrade to
``/ws/{code}`` is served by :class:`~atelier.server.wire.roomsocket.RoomSocket`;
anything else is passed on, bytes untouched, to uvicorn's HTTP protocol, so
FastAPI serves pages and the API. An upgrade that comes later on a kept-alive
connection is handed back to the front (:class:`HttpGuard`).

uvicorn takes the protocol class as its ``http`` setting (a documented hook):
``uvicorn.Config(app, http=front_protocol(handler), ws=<the same class>)``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from uvicorn.config import HTTP_PROTOCOLS
from uvicorn.importer import import_from_string

from atelier.server.edge.addresses import SocketCounts, Ticket
from atelier.server.wire.roomsocket import RoomSocket, RoomSocketHandler

log = logging.getLogger(__name__)

MAX_HEAD = 16 * 1024
HEAD_SECONDS = 10.0
"""How long a new connection may take to send its request head (each later one
on a kept-alive connection too): a slow head holds a file descriptor."""
PREFIX = b"GET /ws/"


@dataclass
class Defences:
    """What a connection must do to stay open before a room socket's session runs:
    send its request head in time, from an address without too many connections."""

    head_seconds: float = HEAD_SECONDS
    sockets: SocketCounts = field(default_factory=SocketCounts)


def http_protocol_class() -> type[asyncio.Protocol]:
    """uvicorn's own HTTP protocol (httptools when installed, else h11)."""
    cls: type[asyncio.Protocol] = import_from_string(HTTP_PROTOCOLS["auto"])
    return cls


def front_protocol(handler: RoomSocketHandler,
                   defences: Defences | None = None) -> type[asyncio.Protocol]:
    """The class uvicorn instantiates per connection, bound to the room socket handler."""
    defences = defences or Defences()
    front = cast(type[FrontProtocol], type("BoundFront", (FrontProtocol,), {
        "handler": staticmethod(handler), "defences": defences}))
    front.http_class = cast(type[asyncio.Protocol], type(
        "GuardedHttp", (HttpGuard, http_protocol_class()),
        {"defences": defences, "front_class": front}))
    return front


class FrontProtocol(asyncio.Protocol):
    """Counts a new connection against its address, reads its request head (in
    time, and no larger than MAX_HEAD), then gives the connection away: to a
    RoomSocket for ``GET /ws/...``, else to uvicorn's HTTP protocol."""

    handler: ClassVar[RoomSocketHandler]
    http_class: ClassVar[type[asyncio.Protocol]]
    defences: ClassVar[Defences]

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.config = config
        self.server_state = server_state
        self.app_state = app_state
        self.loop = _loop
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.ticket: Ticket | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        peer = transport.get_extra_info("peername")
        self.ticket = self.defences.sockets.take(peer[0] if isinstance(peer, tuple) else None)
        if self.ticket is None:  # too many from this address: not a byte is read
            transport.close()
            return
        self.timer = asyncio.get_running_loop().call_later(self.defences.head_seconds,
                                                           transport.close)

    def data_received(self, data: bytes) -> None:
        if self.ticket is None:
            return
        buf = self.buf
        start = max(0, len(buf) - 3)  # the blank line may straddle two reads
        buf += data
        end = buf.find(b"\r\n\r\n", start)
        if end < 0:
            if len(buf) > MAX_HEAD and self.transport is not None:
                self.transport.close()
            return
        if self.timer is not None:
            self.timer.cancel()
        if not buf.startswith(PREFIX):
            self._give(self.http_class(config=self.config,  # type: ignore[call-arg]
                                       server_state=self.server_state,
                                       app_state=self.app_state, _loop=self.loop))
            return
        head = bytes(buf[:end]).decode("latin-1")
        del buf[: end + 4]
        sock = RoomSocket(type(self).handler, self.server_state)
        self._give(sock, head)

    def _give(self, protocol: asyncio.Protocol, head: str | None = None) -> None:
        transport = self.transport
        assert transport is not None
        protocol.ticket = self.ticket  # type: ignore[attr-defined]
        self.ticket = None  # the new protocol releases it
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        rest, self.buf = bytes(self.buf), bytearray()
        if isinstance(protocol, RoomSocket):
            assert head is not None
            protocol.start(head, rest)
        elif rest:
            protocol.data_received(rest)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.ticket is not None:
            self.ticket.release()


class HttpGuard(asyncio.Protocol):
    """Mixed into uvicorn's HTTP protocol: the connection's count is given back when
    it closes, and each later request head on a kept-alive connection must come in
    time too (uvicorn times the wait before a request, not its head). The hooks are
    httptools' parser callbacks; with h11 only the first head is timed."""

    ticket: Ticket | None = None
    head_timer: asyncio.TimerHandle | None = None
    transport: asyncio.Transport
    defences: ClassVar[Defences]
    front_class: ClassVar[type[FrontProtocol]]
    config: Any
    server_state: Any
    app_state: dict[str, Any]

    def on_message_begin(self) -> None:
        super().on_message_begin()  # type: ignore[misc]
        if self.head_timer is None:
            self.head_timer = asyncio.get_running_loop().call_later(
                self.defences.head_seconds, self.transport.close)

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        super().on_headers_complete()  # type: ignore[misc]

    def _stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        if self.ticket is not None:
            self.ticket.release()
            self.ticket = None
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, *event: Any) -> None:
        """An upgrade on a kept-alive connection (a proxy reuses its connections to
        the server): the connection starts again at the front, as a new one would,
        so the room socket's own transport takes it; its count goes with it.
        uvicorn calls this with the h11 request event, or with none (httptools)."""
        self._stop_head_timer()
        self.server_state.connections.discard(self)
        if event:
            method, target, headers = event[0].method, event[0].target, event[0].headers
        else:
            method = self.scope["method"].encode()  # type: ignore[attr-defined]
            target, headers = self.url, self.scope["headers"]  # type: ignore[attr-defined]
        head = b"".join([method, b" ", target, b" HTTP/1.1\r\n",
                         *(name + b": " + value + b"\r\n" for name, value in headers), b"\r\n"])
        if self.ticket is not None:
            self.ticket.release()
            self.ticket = None
        front = self.front_class(config=self.config, server_state=self.server_state,
                                 app_state=self.app_state)
        self.transport.set_protocol(front)
        front.connection_made(self.transport)
        front.data_received(head)
