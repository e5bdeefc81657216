"""The WebSocket endpoint: hello, then a loop of validated messages and ink frames."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from atelier.errors import RuleError
from atelier.i18n import pick_language
from atelier.logs import tag_connection
from atelier.metrics import HELLOS, MESSAGES_IN, REFUSALS
from atelier.server.edge.addresses import AddressLimits
from atelier.server.edge.forwarded import Proxies
from atelier.server.ink.transport import QUEUED, SocketTransport
from atelier.server.room import model as m
from atelier.server.room import views
from atelier.server.room.connection import Connection
from atelier.server.room.events import Joined, LogEvent
from atelier.server.room.marks import mark_for
from atelier.server.room.rooms import LiveRoom, Rooms
from atelier.server.wire import protocol as p

log = logging.getLogger(__name__)

LOCAL = Proxies("127.0.0.1")
HELLO_SECONDS = 10.0
"""How long an upgraded socket may take to say hello (``--hello-timeout``)."""
CLOSE_PROTOCOL = 4400
CLOSE_UNKNOWN_ROOM = 4404
CLOSE_POLICY = 1008
CLOSE_TOO_MANY = 4429  # too many connections (or unfinished hellos) from this address


def origin_allowed(ws: WebSocket, allowed: frozenset[str], proxies: Proxies | None = None) -> bool:
    """Browsers always send Origin: it must be this server, scheme and host (a
    page on http://host must not drive the app served on https://host), or a
    configured one (``--allow-origin``). Clients that send none (bots, the
    benchmark) cannot be driven by a web page. Behind a TLS-terminating proxy the
    scheme comes from X-Forwarded-Proto, trusted from ``--forwarded-allow-ips``
    (docs/deploy.md)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    if origin.rstrip("/").lower() in allowed:
        return True
    parts = urlsplit(origin)
    client = ws.client.host if ws.client else None
    scheme = (proxies or LOCAL).scheme(ws.url.scheme, dict(ws.headers), client)
    return (parts.scheme.lower() == scheme
            and parts.netloc.lower() == ws.headers.get("host", "").lower())


class Session:
    __slots__ = ("code", "conn", "hello_seconds", "inflight", "lookups", "on_hello", "room",
                 "rooms", "transport", "ws")  # read on every batch, as Connection's

    def __init__(self, rooms: Rooms, ws: WebSocket, code: str, transport: SocketTransport,
                 on_hello: Callable[[], None] = lambda: None,
                 hello_seconds: float = HELLO_SECONDS,
                 lookups: tuple[AddressLimits, str] | None = None) -> None:
        self.rooms = rooms
        self.hello_seconds = hello_seconds
        self.lookups = lookups  # whose room lookups a code that does not exist costs
        self.on_hello = on_hello
        self.ws = ws
        self.code = code
        self.transport = transport
        # ?ink=bundles: this client reads several ink frames per message
        self.conn = Connection(ws, transport, bundles=ws.query_params.get("ink") == "bundles")
        self.room: LiveRoom | None = None  # once it said hello
        # what a batch left to await (publishing it, a canvas report); the next
        # message waits for it, so messages take effect in the order sent
        self.inflight: asyncio.Future[None] | None = None

    def error(self, err: RuleError, msg_id: int | None = None) -> None:
        REFUSALS.labels(err.code).inc()
        self.conn.send(views.error_message(err, self.conn.lang, msg_id))

    def refuse(self, err: RuleError, msg_id: int | None = None) -> None:
        """An error, and a strike: persistent abuse closes the connection."""
        self.error(err, msg_id)
        if self.conn.limits.strikes.add():
            self.conn.close(CLOSE_POLICY, "abuse")

    async def run(self) -> None:
        tag_connection(self.code)  # this task's log lines name the room and connection
        writer = asyncio.create_task(self.conn.writer())
        try:
            if await self.handshake():
                HELLOS.inc()
                log.debug("hello from a %s", "spectator" if self.conn.player_id is None
                         else "player")
                self.on_hello()
                assert self.room is not None
                await self.rooms.settle_host(self.room)
                self.transport.take_ink(self.ink_now)
                await self.loop()
        except WebSocketDisconnect:
            pass
        finally:
            if self.room is not None:
                self.rooms.detach(self.room, self.conn)
                log.debug("socket closed")
            self.conn.close(1000)
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer, 2)
            writer.cancel()

    async def handshake(self) -> bool:
        """Wait for hello. A text frame that cannot be parsed is answered with
        its error and the wait goes on; anything else before hello closes."""
        deadline = time.monotonic() + self.hello_seconds
        while True:
            try:
                first = await asyncio.wait_for(
                    self.ws.receive(), max(0.0, deadline - time.monotonic())
                )
            except TimeoutError:
                self.error(RuleError("hello_first"))
                self.conn.close(CLOSE_PROTOCOL, "hello first")
                return False
            if first["type"] == "websocket.disconnect":
                return False
            text = first.get("text")
            if text is None:
                msg = None
                break
            try:
                msg = p.parse_client(text)
                break
            except RuleError as err:
                self.refuse(err, p.message_id(text))
                if self.conn.closing:
                    return False
        if not isinstance(msg, p.Hello):
            self.error(RuleError("hello_first"))
            self.conn.close(CLOSE_PROTOCOL, "hello first")
            return False
        self.conn.lang = pick_language(msg.lang)
        if msg.v != p.PROTOCOL_VERSION:
            self.error(RuleError("bad_version", version=p.PROTOCOL_VERSION))
            self.conn.close(CLOSE_PROTOCOL, "version")
            return False
        if self.lookups is not None:
            refusal = self.lookups[0].no_lookups(self.lookups[1])
            if refusal is not None:  # guessing codes: not even looked up
                self.error(refusal)
                self.conn.close(CLOSE_TOO_MANY, refusal.code)
                return False
        room = await self.rooms.get(self.code)
        if room is None:
            if self.lookups is not None:
                self.lookups[0].take_lookup(self.lookups[1])
            self.error(RuleError("unknown_room", room=self.code))
            self.conn.close(CLOSE_UNKNOWN_ROOM, "unknown room")
            return False
        player_id = None
        if msg.token is not None:
            player = room.model.player_by_token(msg.token)
            if player is not None:
                player_id = player.id
            elif room.model.taken_out_by_token(msg.token) is not None:
                # back after the host took them out of this game: say so (they watch)
                self.error(RuleError("kicked"))
            else:
                self.refuse(RuleError("bad_token"))
        if player_id is None and m.host_key_matches(room.model, msg.host_key):
            self.conn.creator = True
        self.room = room
        self.rooms.attach(room, self.conn, player_id)
        return True

    async def loop(self) -> None:
        while not self.conn.closing:
            message = await self.ws.receive()
            if self.inflight is not None:
                try:
                    await self.inflight
                except Exception:
                    log.exception("ink failed in room %s", self.code)
                self.inflight = None
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("bytes")
            if data is not None:
                await self.on_ink(data)
            else:
                await self.on_text(message.get("text") or "")

    def ink_now(self, data: bytes) -> bool:
        """A batch straight from the transport, while this session waits for its
        next message (so nothing sent before it is still being handled), without
        a task switch or an event object: ink is most of the server's work
        (docs/performance.md). False: the transport queues it for
        ``on_ink`` as any message (something is still under way, or the batch
        is beyond the ink allowance and must wait for it)."""
        conn = self.conn
        if self.inflight is not None or conn.closing:
            return False
        if not conn.limits.ink.take_now(len(data)):
            return False
        room = self.room
        assert room is not None
        # take_batch, written out: on this path every Python call costs its code's
        # and frame's misses in the processor's caches (docs/performance.md)
        try:
            rest = self.rooms.ink.take(room, conn, data)
        except Exception as err:
            self.ink_failed(err)
        else:
            if rest is not None:
                self.inflight = asyncio.ensure_future(rest)
        return True

    async def on_ink(self, data: bytes) -> None:
        allowance = self.conn.limits.ink
        # a message no allowance could hold goes straight on, to be refused as too large
        if allowance.holds(len(data)) and not allowance.take(len(data), time.monotonic()):
            # More ink at once than the allowance holds: wait for it to refill (the
            # transport stops reading this socket while messages pile up, so a flood
            # is slowed by TCP). Never refused: the batches may be honest ones a
            # busy server read late, and a refused batch breaks its stroke.
            self.rooms.ink_waits += 1  # /healthz
            while True:
                await asyncio.sleep(allowance.wait(len(data), time.monotonic()))
                if self.conn.closing:
                    return
                if allowance.take(len(data), time.monotonic()):
                    break
        self.take_batch(data)

    def take_batch(self, data: bytes) -> None:
        """One batch within the allowance, however it came: taken at once, and what
        it leaves to await held for the loop (``inflight``)."""
        room = self.room
        assert room is not None
        try:
            rest = self.rooms.ink.take(room, self.conn, data)
        except Exception as err:
            self.ink_failed(err)
        else:
            if rest is not None:
                self.inflight = asyncio.ensure_future(rest)

    def ink_failed(self, err: Exception) -> None:
        """A batch refused (a RuleError: said to the client), or a bug (logged)."""
        if isinstance(err, RuleError):
            self.refuse(err)
        else:
            log.error("ink failed in room %s", self.code, exc_info=err)
            self.error(RuleError("internal"))

    async def on_text(self, text: str) -> None:
        try:
            await self.on_message(text)
        except Exception:
            # A bug, not the client's fault: say so, keep the connection.
            log.exception("message failed in room %s", self.code)
            self.error(RuleError("internal"))

    async def on_message(self, text: str) -> None:
        if not self.conn.limits.messages.take():
            self.refuse(RuleError("rate_limited"), p.message_id(text))
            return
        try:
            msg = p.parse_client(text)
        except RuleError as err:
            MESSAGES_IN.labels("invalid").inc()
            self.refuse(err, p.message_id(text))
            return
        MESSAGES_IN.labels(msg.t).inc()  # one of the protocol's fixed types
        try:
            await self.dispatch(msg)
        except RuleError as err:
            self.refuse(err, msg.id)
            return
        except Exception:
            log.exception("message failed in room %s", self.code)
            self.error(RuleError("internal"), msg.id)
            return
        if msg.id is not None:
            self.conn.send(views.simple("ack", id=msg.id))

    async def dispatch(self, msg: p.ClientMessage) -> None:
        room = self.room
        assert room is not None
        rooms, conn = self.rooms, self.conn
        me = conn.player_id
        if isinstance(msg, p.Ping):
            conn.send(views.simple("pong"))
        elif isinstance(msg, p.Hello):
            raise RuleError("bad_message", detail="hello sent twice")
        elif isinstance(msg, p.Lang):
            conn.lang = pick_language(msg.lang)
        elif isinstance(msg, p.Join):
            await self.join(room, msg)
        elif isinstance(msg, p.Leave):
            await rooms.commit(room, lambda r: m.decide_leave(r, me, time.time()))
        elif isinstance(msg, p.Rename):
            await rooms.commit(room, lambda r: (m.decide_rename(r, me, msg.name), None))
        elif isinstance(msg, p.Settings):
            await rooms.commit(room, lambda r: (m.decide_settings(r, me, msg.settings), None))
        elif isinstance(msg, p.Kick):
            await rooms.commit(room, lambda r: m.decide_kick(r, me, msg.player, time.time()))
        elif isinstance(msg, p.Host):
            await rooms.commit(room, lambda r: (m.decide_host(r, me, msg.player), None))
        elif isinstance(msg, p.Agree):
            await rooms.commit(room, lambda r: (m.decide_agree(r, me, msg.name, msg.on), None))
        elif isinstance(msg, p.Start):
            await rooms.commit(room, lambda r: (m.decide_start(r, me, time.time()), None))
        elif isinstance(msg, p.Again):
            await rooms.commit(room, lambda r: (m.decide_again(r, me), None))
        elif isinstance(msg, p.GoOn):
            await rooms.commit(room, lambda r: m.decide_go_on(r, me, room.online(), time.time()))
        elif isinstance(msg, p.Next):
            await rooms.commit(room, lambda r: m.decide_next(r, me, time.time()))
        elif isinstance(msg, p.Act):
            action = room.model.game.actions.parse(msg.action)

            def decide(r: m.RoomModel) -> tuple[LogEvent, object]:
                # where a guess lands on the drawing's replay, logged with it
                mark = mark_for(r, room.ink, room.guards, action)
                return m.decide_action(r, r.seat_of(me), action, time.time(), mark)

            await rooms.commit(room, decide)

    async def join(self, room: LiveRoom, msg: p.Join) -> None:
        conn = self.conn
        if conn.player_id is not None and room.model.player(conn.player_id) is not None:
            raise RuleError("already_joined")
        token = secrets.token_urlsafe(24)
        token_hash = m.hash_token(token)
        seq, event = await self.rooms.record(
            room,
            lambda r: (m.decide_join(r, msg.name, msg.colour, token_hash, msg.host_key,
                                     room.creator_waits(self.rooms.creator_wait)), None),
        )
        # the new player learns their token and seat before the state that shows them
        assert isinstance(event, Joined)
        player = room.model.player(event.player)
        assert player is not None
        conn.player_id = player.id
        conn.send(views.joined_message(room.model, player, token))
        await self.rooms.announce(room, seq, event)


async def serve_socket(ws: WebSocket, code: str, rooms: Rooms, allowed: frozenset[str],
                       addresses: AddressLimits, address: str,
                       proxies: Proxies | None = None,
                       hello_seconds: float = HELLO_SECONDS,
                       transport: SocketTransport = QUEUED) -> None:
    if not origin_allowed(ws, allowed, proxies):
        await ws.close(code=CLOSE_POLICY)  # before accept: HTTP 403
        return
    # counted before the accept, so a client whose upgrade succeeded is already counted
    refusal = addresses.admit(address)
    if refusal is not None:
        REFUSALS.labels(refusal.code).inc()
        await ws.accept()
        lang = pick_language(ws.headers.get("accept-language"))
        await ws.send_text(views.error_message(refusal, lang))
        await ws.close(CLOSE_TOO_MANY, refusal.code)
        return
    helloed = False

    def said_hello() -> None:
        nonlocal helloed
        helloed = True
        addresses.said_hello(address)

    try:
        await ws.accept()
        await Session(rooms, ws, code.upper(), transport, said_hello, hello_seconds,
                      (addresses, address)).run()
    finally:
        addresses.release(address, helloed)
