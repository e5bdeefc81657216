"""The room socket's own WebSocket transport.

Ink is many small messages: at 100 rooms the server relays 12,000 batches in
and 60,000 frames out a second, and the general path (uvicorn's WebSocket
protocol, then Starlette's ASGI plumbing, for every message) cost more than
the room work itself (docs/performance.md). So :class:`RoomSocket` frames
messages itself (RFC 6455, its rules in ``wsframe``) and hands the session a
real Starlette ``WebSocket`` and itself, as the session's ``SocketTransport``
(``atelier.server.ink.transport``: a message written at once, ink taken before
it is queued). The front door (``frontdoor``) gives it the connection once the
request head says ``GET /ws/...``.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, cast
from urllib.parse import unquote

from starlette.websockets import WebSocket

from atelier.errors import RuleError
from atelier.i18n import pick_language
from atelier.server.edge.addresses import Ticket
from atelier.server.edge.headers import HEADERS
from atelier.server.ink.transport import SocketTransport
from atelier.server.room.views import error_body
from atelier.server.wire.per_loop import PerLoop
from atelier.server.wire.wsframe import (
    BINARY,
    CLOSE,
    GUID,
    PING,
    PONG,
    TEXT,
    Message,
    ProtocolError,
    binaries,
    close_payload,
    frame,
    header_error,
    payload_length,
    read_close,
    unmask,
)

log = logging.getLogger(__name__)

MAX_MESSAGE = 64 * 1024
"""Largest message a client may send (as uvicorn's ``ws_max_size`` was)."""
PING_SECONDS = 2.0
"""How often a socket's silence is looked at. A client heard from since the last look
is alive and is not pinged (a drawing phone sends many times a second, and a ping and
its pong are two more socket operations each); one silent for a whole period is
pinged, and one still silent two periods after its ping is closed. So a phone that
drops off without closing shows as away within about 8 s, and an idle
one is pinged every 4 s or so (a ping is a 2-byte frame)."""
PING_PATIENCE = 2
"""Periods a ping may go unanswered."""
EVENTS_HIGH = 256
EVENTS_LOW = 64
"""Messages waiting for the session at which the socket stops being read, and at
which it is read again: a client cannot make the server hold more than a few
hundred of its messages (ink beyond the allowance waits, session.py)."""
MAX_FRAGMENTS = 256
"""Fragments one message may come in (browsers send one): each costs a few
microseconds however small, so their number is bounded as well as their bytes."""
READ_SLICE = 16 * 1024
"""Bytes one socket may have handled in a turn of the event loop before it lets the
rest of the server go first (a hundred pings, or one large message)."""
CLOSE_GRACE = 2.0
"""How long a close we started waits for the client's answer."""

RoomSocketHandler = Callable[[WebSocket, str, SocketTransport], Awaitable[None]]
"""The session for one room socket: its WebSocket, the room code from the path,
and the transport's shortcuts (the RoomSocket itself)."""


class Keepalive:
    """Looks at every room socket's silence on one timer: a timer per socket woke a
    busy process hundreds of times a second, each wake-up a system call or two."""

    def __init__(self) -> None:
        self.sockets: set[RoomSocket] = set()
        self.timer: asyncio.TimerHandle | None = None

    def add(self, sock: RoomSocket) -> None:
        self.sockets.add(sock)
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(PING_SECONDS, self.sweep)

    def sweep(self) -> None:
        self.timer = None
        done = [sock for sock in self.sockets if not sock.look()]
        self.sockets.difference_update(done)
        if self.sockets:
            self.timer = asyncio.get_running_loop().call_later(PING_SECONDS, self.sweep)


keepalive = PerLoop(Keepalive)
"""The running event loop's Keepalive."""


class RoomSocket(asyncio.Protocol):
    """One room WebSocket: frames in and out, the session as an ASGI app would see it."""

    # slots, as Connection's: every batch reads a few of these (about 1,000 fewer
    # instructions a batch than attributes in a dictionary)
    __slots__ = ("accepted", "buf", "closed", "deaf", "drained", "events", "gone", "handler",
                 "heard", "ink_now", "keepalive", "key", "lang", "loop", "message", "paused",
                 "pong_due", "reading_paused", "ready", "server_state", "task", "ticket",
                 "transport", "unanswered", "unyielded", "waiter", "yielding")

    def __init__(self, handler: RoomSocketHandler, server_state: Any) -> None:
        self.handler = handler
        self.server_state = server_state
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()
        self.buf = bytearray()
        self.events: deque[dict[str, Any]] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.drained: asyncio.Future[None] | None = None
        self.paused = False
        self.accepted = False
        self.closed = False  # we sent a close frame (or the connection is gone)
        self.gone = False
        self.ready = False
        """Accepted, open and not pushing back: a message may be written at once
        (``write_now``; ``Connection.send_out`` reads it directly, per bundle)."""
        self.deaf = True  # nothing is read: not before the session runs, nor after a failure
        self.message: Message | None = None  # a fragmented message being assembled
        self.pong_due: bytes | None = None  # a ping's payload while writing is paused
        self.heard = True  # anything read since the last look (look)
        self.unanswered = 0  # periods since a ping went unanswered; 0: none out
        self.reading_paused = False  # messages piled up faster than the session takes them
        self.unyielded = 0  # bytes read since this socket last let others go first
        self.yielding = False  # reading stopped until the loop's next turn
        self.keepalive: Keepalive | None = None  # once accepted
        self.task: asyncio.Task[None] | None = None
        self.key = ""
        self.lang = "en"
        self.ticket: Ticket | None = None  # this connection's count for its address
        # the session's direct ink path (Session.ink_now), once it has one
        self.ink_now: Callable[[bytes], bool] | None = None

    # -- the connection ----------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.server_state.connections.add(self)

    def start(self, head: str, rest: bytes) -> None:
        """The request head has been read: check it and run the session."""
        transport = self.transport
        assert transport is not None
        lines = head.split("\r\n")
        parts = lines[0].split(" ")
        headers: list[tuple[bytes, bytes]] = []
        named: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if not sep:
                continue
            name, value = name.strip().lower(), value.strip()
            headers.append((name.encode("latin-1"), value.encode("latin-1")))
            named[name] = value
        self.key = named.get("sec-websocket-key", "")
        self.lang = pick_language(named.get("accept-language"))
        if (len(parts) != 3 or "websocket" not in named.get("upgrade", "").lower()
                or named.get("sec-websocket-version") != "13" or not self.key):
            self._refuse(b"400 Bad Request", "bad_request")
            return
        target = parts[1]
        path, _, query = target.partition("?")
        code = unquote(path[len("/ws/"):])
        if not code or "/" in code:
            self._refuse(b"404 Not Found", "not_found")
            return
        peer = transport.get_extra_info("peername")
        local = transport.get_extra_info("sockname")
        scope: dict[str, Any] = {
            "type": "websocket", "asgi": {"version": "3.0"}, "scheme": "ws",
            "http_version": "1.1", "path": path, "raw_path": path.encode("latin-1"),
            "query_string": query.encode("latin-1"), "root_path": "", "headers": headers,
            "client": tuple(peer[:2]) if peer else None,
            "server": tuple(local[:2]) if local else None, "subprotocols": [],
        }
        self.events.append({"type": "websocket.connect"})
        ws = WebSocket(scope, self.receive, self.send)
        self.task = self.loop.create_task(self._run(ws, code))
        self.deaf = False
        self.server_state.tasks.add(self.task)
        self.task.add_done_callback(self.server_state.tasks.discard)
        if rest:
            self.data_received(rest)

    async def _run(self, ws: WebSocket, code: str) -> None:
        try:
            await self.handler(ws, code, self)
        except Exception:
            log.exception("room socket failed")
            self._close_frame(1011, "internal error")
        finally:
            if not self.closed:
                self._close_frame(1000)

    def _refuse(self, status: bytes, code: str) -> None:
        """An HTTP answer like the app's own: a translated JSON error, security headers."""
        if self.transport is not None:
            err = RuleError(code)
            body = json.dumps(error_body(err, self.lang)).encode()
            head = b"".join(name + b": " + value + b"\r\n" for name, value in HEADERS)
            self.transport.write(b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json"
                                 b"\r\ncontent-length: " + str(len(body)).encode()
                                 + b"\r\n" + head + b"connection: close\r\n\r\n" + body)
            self.transport.close()
        self.closed = True
        self.ready = False

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone = self.closed = True
        self.ready = False
        if self.ticket is not None:
            self.ticket.release()
        self.server_state.connections.discard(self)
        if self.keepalive is not None:
            self.keepalive.sockets.discard(self)
        self._push({"type": "websocket.disconnect", "code": 1006})
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def shutdown(self) -> None:
        """uvicorn is stopping: say so to the client, as uvicorn's own protocol does."""
        self._close_frame(1012, "server restarting")
        self._push({"type": "websocket.disconnect", "code": 1012})

    def pause_writing(self) -> None:
        self.paused = True
        self.ready = False

    def resume_writing(self) -> None:
        self.paused = False
        self._set_ready()
        due, self.pong_due = self.pong_due, None
        if due is not None and self.transport is not None and not self.closed:
            self.transport.write(frame(PONG, due))
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    # -- ASGI for the session --------------------------------------------------------

    def _push(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if len(self.events) >= EVENTS_HIGH and not self.reading_paused \
                and self.transport is not None:
            self.reading_paused = True  # the session is behind: TCP slows the client
            self.transport.pause_reading()
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def receive(self) -> dict[str, Any]:
        while not self.events:
            self.waiter = self.loop.create_future()
            await self.waiter
        event = self.events.popleft()
        if self.reading_paused and len(self.events) <= EVENTS_LOW and not self.gone:
            self.reading_paused = False
            if self.transport is not None and not self.yielding:
                self.transport.resume_reading()
        if event["type"] == "websocket.disconnect":
            self.events.appendleft(event)  # every later receive says so too
        return event

    # -- SocketTransport: the session's shortcuts ------------------------------------

    def take_ink(self, handler: Callable[[bytes], bool]) -> None:
        """Binary messages go to ``handler`` directly while the session waits in
        ``receive`` with nothing queued, so their order is kept."""
        self.ink_now = handler

    def _set_ready(self) -> None:
        self.ready = (self.transport is not None and self.accepted
                      and not (self.closed or self.gone or self.paused))

    def write_now(self, data: bytes | str) -> bool:
        """Write one message at once if the socket takes it without waiting: open,
        accepted and not pushing back. False: send it the ordinary way."""
        transport = self.transport
        if not self.ready or transport is None:
            return False
        if isinstance(data, bytes):
            transport.write(frame(BINARY, data))
        else:
            transport.write(frame(TEXT, data.encode()))
        return True

    async def send(self, message: MutableMapping[str, Any]) -> None:
        kind = message["type"]
        transport = self.transport
        if transport is None or self.gone:
            raise OSError("the connection is closed")
        if kind == "websocket.send":
            if self.closed:
                raise OSError("the connection is closing")
            data = message.get("bytes")
            if data is not None:
                transport.write(frame(BINARY, data))
            else:
                transport.write(frame(TEXT, message["text"].encode()))
            if self.paused:
                self.drained = self.loop.create_future()
                await self.drained
        elif kind == "websocket.accept":
            accept = base64.b64encode(hashlib.sha1(self.key.encode() + GUID).digest())
            transport.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                            b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept
                            + b"\r\n\r\n")
            self.accepted = True
            self._set_ready()
            self.keepalive = keepalive()
            self.keepalive.add(self)
        elif kind == "websocket.close":
            if not self.accepted:
                self._refuse(b"403 Forbidden", "origin_refused")
            else:
                self._close_frame(int(message.get("code", 1000)), message.get("reason") or "")

    def _close_frame(self, code: int, reason: str = "") -> None:
        if self.closed or self.transport is None:
            return
        self.closed = True
        self.ready = False
        self.transport.write(frame(CLOSE, close_payload(code, reason)))
        # the client answers with its own close; do not wait for it forever, nor
        # for it to read what is still buffered (a client that reads nothing would
        # hold the connection, and a server's clean stop, open)
        self.loop.call_later(CLOSE_GRACE, self.transport.abort)

    # -- keeping the line alive ------------------------------------------------------

    def look(self) -> bool:
        """The periodic look at this socket's silence (PING_SECONDS); False once
        there is nothing more to look at."""
        if self.closed or self.transport is None:
            return False
        if self.heard or self.reading_paused:  # alive, or we are the ones not listening
            self.heard = False
            self.unanswered = 0
        elif not self.unanswered:
            if not self.paused:  # a client that reads nothing gets nothing more
                self.transport.write(frame(PING, b""))
            self.unanswered = 1
        elif self.unanswered < PING_PATIENCE:
            self.unanswered += 1
        else:
            self._close_frame(1011, "keepalive ping timeout")
            self._push({"type": "websocket.disconnect", "code": 1011})
            return False
        return True

    # -- frames in ----------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self.deaf:
            return
        self.heard = True
        buf = self.buf
        buf += data
        i, n = 0, len(buf)
        while True:
            if i < n and buf[i] == 0x82 and self.message is None:
                # the common case, whole ink batches a frame each, in one call
                # (compiled); not inside a fragmented message, which it would break
                batches, i = binaries(buf, i, MAX_MESSAGE)
                for batch in batches:
                    # _binary, written out: a call per batch costs (docs/performance.md)
                    handler, waiter = self.ink_now, self.waiter
                    if (handler is None or self.events or waiter is None or waiter.done()
                            or not handler(batch)):
                        self._push({"type": "websocket.receive", "bytes": batch})
                if i == n:
                    break
            found = payload_length(buf, i)
            if found is None:
                break
            if i > READ_SLICE:  # a flood of small frames: the rest waits for the next turn
                self._let_others_go()
                break
            b0, b1 = buf[i], buf[i + 1]
            length, h = found
            error = header_error(b0, b1, length, self.message, MAX_MESSAGE)
            if error is not None:
                self._fail(error.code, error.reason)
                return
            if n - i < h + 4 + length:
                break
            key = bytes(buf[i + h : i + h + 4])
            payload = unmask(key, bytes(buf[i + h + 4 : i + h + 4 + length]))
            i += h + 4 + length
            try:
                if not self._frame(b0 & 0x80 != 0, b0 & 15, payload):
                    return
            except ProtocolError as err:
                self._fail(err.code, err.reason)
                return
        del buf[:i]
        self.unyielded += i
        if self.unyielded > READ_SLICE:
            self._let_others_go()

    def _let_others_go(self) -> None:
        """Handle nothing more from this socket until the event loop's next turn: a
        loop may read megabytes from one socket at a time, and a flood of small
        frames (pings, fragments) is seconds of work that every other connection
        would wait for. What is already read waits in the buffer."""
        self.unyielded = 0
        transport = self.transport
        if self.yielding or transport is None or transport.is_closing():
            return
        self.yielding = True
        transport.pause_reading()
        self.loop.call_soon(self._read_on)

    def _read_on(self) -> None:
        self.yielding = False
        if self.buf:
            self.data_received(b"")  # what was left for this turn (may wait again)
        transport = self.transport
        if not (self.yielding or self.reading_paused or self.deaf or self.gone
                or transport is None or transport.is_closing()):
            transport.resume_reading()

    def _frame(self, final: bool, opcode: int, payload: bytes) -> bool:
        """Handle one frame whose header passed ``header_error``; False when the
        connection is done with."""
        if opcode == TEXT and final:
            try:
                text = payload.decode()
            except UnicodeDecodeError:
                raise ProtocolError(1007, "text is not UTF-8") from None
            self._push({"type": "websocket.receive", "text": text})
        elif opcode < 8:  # a fragment
            message = self.message
            if message is None:
                message = self.message = Message(opcode, MAX_FRAGMENTS)
            whole = message.add(payload, final)
            if isinstance(whole, str):
                self.message = None
                self._push({"type": "websocket.receive", "text": whole})
            elif whole is not None:
                self.message = None
                self._binary(whole)
        elif opcode == PING:
            if self.paused:  # the client is not reading: only the latest ping is answered
                self.pong_due = payload
            elif self.transport is not None and not self.closed:
                self.transport.write(frame(PONG, payload))
        elif opcode == CLOSE:
            code, reply = read_close(payload)
            transport = self.transport
            if not self.closed and transport is not None:
                self.closed = True
                self.ready = False
                transport.write(frame(CLOSE, reply))
            if transport is not None:
                transport.close()
            self._push({"type": "websocket.disconnect", "code": code})
            return False
        return True  # a pong: heard, nothing to do

    def _binary(self, data: bytes) -> None:
        """To the session's direct ink path if it waits with nothing queued, else queued."""
        handler, waiter = self.ink_now, self.waiter
        if (handler is None or self.events or waiter is None or waiter.done()
                or not handler(data)):
            self._push({"type": "websocket.receive", "bytes": data})

    def _fail(self, code: int, reason: str) -> None:
        """Fail the connection: say why and end our side of it at once. What the
        client still sends is dropped unread (closing with unread bytes would reset
        the connection, and the client might lose the close frame), until it
        closes its side or the grace runs out."""
        self.deaf = True
        self.buf.clear()
        self.message = None
        self._close_frame(code, reason)
        transport = self.transport
        if transport is not None and not transport.is_closing():
            if transport.can_write_eof():
                transport.write_eof()
            else:
                transport.close()
        self._push({"type": "websocket.disconnect", "code": code})
