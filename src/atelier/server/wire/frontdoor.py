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
import json
import logging
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from uvicorn.protocols.http.flow_control import HIGH_WATER_LIMIT
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from atelier.errors import RuleError
from atelier.i18n import pick_language
from atelier.server.edge.abuse import AbuseLog
from atelier.server.edge.addresses import SocketCounts, Ticket
from atelier.server.edge.budget import (
    PENDING_MEMORY_MIB,
    BodyRules,
    Pending,
    PendingBudget,
    pending_limit,
)
from atelier.server.wire.roomsocket import RoomSocket, RoomSocketHandler

log = logging.getLogger(__name__)

MAX_HEAD = 16 * 1024
HEAD_SECONDS = 10.0
"""How long a new connection may take to send its request head (each later one
on a kept-alive connection too): a slow head holds a file descriptor."""
PREFIX = b"GET /ws/"
BUSY_RETRY_SECONDS = 5

UVICORN_INTERNALS = (
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol",
    "uvicorn.protocols.http.flow_control.HIGH_WATER_LIMIT",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.on_message_begin",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.on_headers_complete",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.on_body",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.on_message_complete",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.on_response_complete",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol._start_asgi_task",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.handle_websocket_upgrade",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.connection_lost",
    "uvicorn.protocols.http.httptools_impl.HttpToolsProtocol.data_received",
)
"""What :class:`HttpGuard` relies on in uvicorn beyond its documented ``http``
setting: the httptools protocol's parser callbacks (httptools' own documented
interface, which uvicorn implements), three of its methods, and the flow
control's high-water mark. ``tests`` pin these names against the installed uvicorn."""
UVICORN_ATTRIBUTES = (
    "HttpToolsProtocol: transport, flow, cycle, pipeline, headers, scope, url, "
    "expect_100_continue, server_state, config, app_state",
    "FlowControl: read_paused",
    "RequestResponseCycle: body, more_body, disconnected, message_event, "
    "response_started, response_complete",
    "ServerState: connections, default_headers",
)
"""The instance attributes :class:`HttpGuard` reads or sets (set in ``__init__``, so
not checkable by name on the class: the front door's tests exercise each)."""


class Pacer:
    """Connections closed for lateness, at most ``per_turn`` in one turn of the event
    loop. Connections opened in one burst are late in one burst: thousands of
    timers due at once would each write a refusal and close in a single turn,
    while every game waits; the rest wait for the next turns."""

    def __init__(self, per_turn: int = 16) -> None:
        self.per_turn = per_turn
        self.used = 0

    def take(self) -> bool:
        """Whether one more may be closed in this turn."""
        if self.used == 0:
            asyncio.get_running_loop().call_soon(self._next_turn)
        if self.used >= self.per_turn:
            return False
        self.used += 1
        return True

    def _next_turn(self) -> None:
        self.used = 0


LINGER_SECONDS = 2.0
"""After a refusal, how long what the client still sends is read and dropped before
the connection is closed (as nginx's lingering close): closing a socket with
unread data sends a reset, which can destroy the refusal before it is read."""
PACE_AGAIN = 0.005
"""Seconds until a late connection the pacer put off is looked at again."""


@dataclass
class Defences:
    """What a connection must do to stay open before a room socket's session runs:
    send its request head in time, from an address without too many connections,
    then its body in time, within the server-wide budget for unfinished requests."""

    head_seconds: float = HEAD_SECONDS
    sockets: SocketCounts = field(default_factory=SocketCounts)
    body: BodyRules = field(default_factory=BodyRules)
    budget: PendingBudget = field(default_factory=lambda: PendingBudget(
        pending_limit(1024, PENDING_MEMORY_MIB << 20), PENDING_MEMORY_MIB << 20))
    abuse: AbuseLog = field(default_factory=AbuseLog)
    pacer: Pacer = field(default_factory=Pacer)

    def __post_init__(self) -> None:
        if self.budget.on_shed is None:
            self.budget.on_shed = lambda address: self.abuse.count("shed", address)


def refusal(status: int, err: RuleError, accept_language: str | None,
            default_headers: list[tuple[bytes, bytes]],
            extra: tuple[tuple[bytes, bytes], ...] = ()) -> bytes:
    """A whole HTTP answer that closes the connection: the error in the JSON shape
    every route uses, translated for the asker."""
    lang = pick_language(accept_language)
    key = (status, err.code, lang, tuple(sorted(err.params.items())), extra)
    rest = _REFUSALS.get(key)
    if rest is None:  # an attack sends thousands of the same: translated once
        body = json.dumps({"code": err.code, "message": err.message(lang),
                           "params": err.params}).encode()
        rest = _REFUSALS[key] = b"\r\n".join([
            b"content-type: application/json", b"content-length: %d" % len(body),
            b"x-content-type-options: nosniff", b"cache-control: no-store",
            *(n + b": " + v for n, v in extra), b"connection: close"]) + b"\r\n\r\n" + body
    phrase = {408: b"Request Timeout", 503: b"Service Unavailable"}.get(status, b"")
    return b"".join([b"HTTP/1.1 %d %s\r\n" % (status, phrase),
                     *(n + b": " + v + b"\r\n" for n, v in default_headers), rest])


_REFUSALS: dict[tuple[Any, ...], bytes] = {}
"""Refusals without their status line and the server's date (a few: codes and
languages), built once."""


def close_now(transport: asyncio.Transport) -> None:
    """Close, and if what was written cannot leave (a client that reads nothing),
    drop it rather than keep the file descriptor until it does."""
    if transport.get_write_buffer_size():
        transport.abort()
    else:
        transport.close()


def front_protocol(handler: RoomSocketHandler,
                   defences: Defences | None = None) -> type[asyncio.Protocol]:
    """The class uvicorn instantiates per connection, bound to the room socket handler."""
    defences = defences or Defences()
    front = cast(type[FrontProtocol], type("BoundFront", (FrontProtocol,), {
        "handler": staticmethod(handler), "defences": defences}))
    front.http_class = cast(type[HttpGuard], type(
        "GuardedHttp", (HttpGuard,), {"defences": defences, "front_class": front}))
    return front


def peer_address(transport: asyncio.BaseTransport) -> str | None:
    peer = transport.get_extra_info("peername")
    return peer[0] if isinstance(peer, tuple) else None


class FrontProtocol(asyncio.Protocol):
    """Counts a new connection against its address and the server's budget, reads
    its request head (in time, and no larger than MAX_HEAD), then gives the
    connection away: to a RoomSocket for ``GET /ws/...``, else to uvicorn's HTTP
    protocol (with its place in the budget)."""

    handler: ClassVar[RoomSocketHandler]
    http_class: ClassVar[type[HttpGuard]]
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
        self.pending: Pending | None = None
        self.address: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.address = peer_address(transport)
        self.ticket = self.defences.sockets.take(self.address)
        if self.ticket is None:  # too many from this address: not a byte is read
            self.defences.abuse.count("socket_cap", self.address)
            transport.close()
            return
        self.pending = self.defences.budget.enter(self, self.address or "?")
        if self.pending is None:  # the budget is full and this address has its share
            self.defences.abuse.count("over_budget", self.address)
            self.ticket.release()
            self.ticket = None
            transport.close()
            return
        self.timer = asyncio.get_running_loop().call_later(self.defences.head_seconds,
                                                           self._head_late)

    def _head_late(self) -> None:
        if not self.defences.pacer.take():
            self.timer = asyncio.get_running_loop().call_later(PACE_AGAIN, self._head_late)
            return
        self.timer = None
        self.defences.abuse.count("head_timeout", self.address)
        if self.transport is not None:
            close_now(self.transport)

    def shed(self) -> None:
        self.pending = None
        if self.transport is not None:
            close_now(self.transport)

    def data_received(self, data: bytes) -> None:
        if self.ticket is None:
            return
        if self.pending is not None:
            self.pending.grow(len(data))
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
            self.timer = None
        if self.transport is None or self.transport.is_closing():
            return  # shed while its head was read
        if not buf.startswith(PREFIX):
            self._give(self.http_class(config=self.config, server_state=self.server_state,
                                       app_state=self.app_state, _loop=self.loop))
            return
        head = bytes(buf[:end]).decode("latin-1")
        del buf[: end + 4]
        if self.pending is not None:  # a room socket: its own limits hold it from here
            self.pending.leave()
            self.pending = None
        sock = RoomSocket(type(self).handler, self.server_state)
        self._give(sock, head)

    def _give(self, protocol: HttpGuard | RoomSocket, head: str | None = None) -> None:
        transport = self.transport
        assert transport is not None
        protocol.ticket = self.ticket
        self.ticket = None  # the new protocol releases it
        if isinstance(protocol, HttpGuard):
            protocol.address = self.address
            protocol.pending, self.pending = self.pending, None
            if protocol.pending is not None:
                protocol.pending.holder = protocol
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
        if self.pending is not None:
            self.pending.leave()
            self.pending = None


class HttpGuard(HttpToolsProtocol):
    """Mixed into uvicorn's httptools protocol (:data:`UVICORN_INTERNALS`).

    - The connection's count is given back when it closes.
    - Each later request head on a kept-alive connection must come in time too
      (uvicorn times the wait before a request, not its head).
    - A body must keep arriving (:class:`BodyRules`), else the answer is 408.
    - The app does not see a request until its body is whole (or past uvicorn's
      64 KiB high-water mark, or announced larger, so a route can refuse it at
      once): a pending body costs its bytes and a parser, not a running request.
    - Until its request is complete, and while it waits for the next one, the
      connection is in the server's budget, which may shed it (503 mid-body).
    """

    ticket: Ticket | None = None
    pending: Pending | None = None
    address: str | None = None
    head_timer: asyncio.TimerHandle | None = None
    body_timer: asyncio.TimerHandle | None = None
    body_due: bool = False  # the request now being read has a body still to come
    body_started = body_last = 0.0
    body_got = 0
    refused: bool = False  # answered by the guard (408, 503): the app's part is over
    linger: asyncio.TimerHandle | None = None
    deferred: tuple[Any, Any] | None = None  # (cycle, app) waiting for the body
    defences: ClassVar[Defences]
    front_class: ClassVar[type[FrontProtocol]]

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.pending is None and not self._enter():  # right behind one being answered
            return
        if self.head_timer is None:
            self.head_timer = asyncio.get_running_loop().call_later(
                self.defences.head_seconds, self._head_late)

    def _head_late(self) -> None:
        if not self.defences.pacer.take():
            self.head_timer = asyncio.get_running_loop().call_later(PACE_AGAIN,
                                                                    self._head_late)
            return
        self.head_timer = None
        self.defences.abuse.count("head_timeout", self.address)
        close_now(self.transport)

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        self.body_due = announced = False
        for name, value in self.headers:
            if name == b"content-length":
                announced = value.strip() not in (b"", b"0")
            elif name == b"transfer-encoding":
                announced = True
        if announced:
            self.body_due = True
            loop = asyncio.get_running_loop()
            self.body_started = self.body_last = loop.time()
            self.body_got = 0
            self._arm_body_timer(self.body_started + self.defences.body.seconds)
        super().on_headers_complete()

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        current: Any = getattr(self, "cycle", None)
        if (self.body_due and cycle is current and cycle.more_body
                and not getattr(self, "expect_100_continue", False)
                and not self._announced_large()):
            self.deferred = (cycle, app)
            return
        super()._start_asgi_task(cycle, app)

    def _announced_large(self) -> bool:
        for name, value in self.headers:
            if name == b"content-length":
                return not value.strip().isdigit() or int(value) > HIGH_WATER_LIMIT
        return False

    def _start_deferred(self) -> None:
        if self.deferred is not None:
            cycle, app = self.deferred
            self.deferred = None
            super()._start_asgi_task(cycle, app)

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        size = len(body)
        self.body_got += size
        self.body_last = asyncio.get_running_loop().time()
        if self.pending is not None:
            self.pending.grow(size)  # may shed this very connection
        if self.deferred is not None and len(self.deferred[0].body) > HIGH_WATER_LIMIT:
            self._start_deferred()  # uvicorn stopped reading: only the app resumes it

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.body_due = False
        self._stop_body_timer()
        if self.pending is not None:  # complete: it will be answered, never shed
            self.pending.leave()
            self.pending = None
        self._start_deferred()

    def on_response_complete(self) -> None:
        waiting = bool(getattr(self, "pipeline", None))
        super().on_response_complete()
        if (self.pending is None and not waiting and not self.transport.is_closing()):
            self._enter()  # kept alive: waiting for the next request is unfinished too

    def _enter(self) -> bool:
        """Take a place in the budget; if there is none for this address, close."""
        self.pending = self.defences.budget.enter(self, self.address or "?")
        if self.pending is None:
            self.defences.abuse.count("over_budget", self.address)
            close_now(self.transport)
            return False
        return True

    def _arm_body_timer(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        self.body_timer = loop.call_at(when, self._body_check)

    def _body_check(self) -> None:
        self.body_timer = None
        if not self.body_due or self.transport.is_closing():
            return
        now = asyncio.get_running_loop().time()
        if self.flow.read_paused:
            # uvicorn stopped reading (the app has not taken what came): not the
            # client's delay, so its clock starts again when reading does
            self.body_started = self.body_last = now
            self.body_got = 0
            self._arm_body_timer(now + self.defences.body.seconds)
            return
        due = self.defences.body.due(self.body_started, self.body_last, self.body_got)
        if now < due:
            self._arm_body_timer(due)
            return
        if not self.defences.pacer.take():
            self._arm_body_timer(now + PACE_AGAIN)
            return
        self.defences.abuse.count("body_timeout", self.address)
        rules = self.defences.body
        self._refuse(408, RuleError("body_timeout", seconds=f"{rules.seconds:g}",
                                    rate=round(rules.min_rate)))

    def shed(self) -> None:
        self.pending = None
        if self.body_due:
            self._refuse(503, RuleError("server_busy"),
                         ((b"retry-after", str(BUSY_RETRY_SECONDS).encode()),))
        else:
            close_now(self.transport)

    def _refuse(self, status: int, err: RuleError,
                extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        """Answer for the app (unless it has begun to), and close."""
        self.refused = True
        self.body_due = False
        self._stop_body_timer()
        self.deferred = None
        cycle = getattr(self, "cycle", None)
        if cycle is None or not cycle.response_started:
            if cycle is not None:  # a running app sees the client gone, and answers nobody
                cycle.disconnected = True
                cycle.message_event.set()
            language = next((v.decode("latin-1") for n, v in self.headers
                             if n == b"accept-language"), None)
            self.transport.write(refusal(status, err, language,
                                         self.server_state.default_headers, extra))
        if self.transport.can_write_eof() and not self.transport.get_write_buffer_size():
            self.transport.write_eof()  # the answer, then the end: the client closes
            self.linger = asyncio.get_running_loop().call_later(
                LINGER_SECONDS, close_now, self.transport)
        else:
            close_now(self.transport)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # lingering after a refusal: read, and dropped
        super().data_received(data)

    def _stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _stop_body_timer(self) -> None:
        if self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._stop_body_timer()
        if self.linger is not None:
            self.linger.cancel()
            self.linger = None
        if self.body_due and not self.refused:
            self.defences.abuse.count("left_mid_body", self.address)
        self.body_due = False
        self.deferred = None
        if self.pending is not None:
            self.pending.leave()
            self.pending = None
        if self.ticket is not None:
            self.ticket.release()
            self.ticket = None
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        """An upgrade on a kept-alive connection (a proxy reuses its connections to
        the server): the connection starts again at the front, as a new one would,
        so the room socket's own transport takes it; its count goes with it."""
        self._stop_head_timer()
        self._stop_body_timer()
        self.body_due = False
        if self.pending is not None:  # the front counts it again
            self.pending.leave()
            self.pending = None
        self.server_state.connections.discard(self)
        method = self.scope["method"].encode()
        target, headers = self.url, self.scope["headers"]
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
