"""The floor for ``atelier bench ink --floor``: a lean relay doing only the work
the ink path cannot skip, to measure Atelier against.

It speaks just enough of the protocol for the load generator (``hello``,
``join``, ``start``, binary ink, ``?ink=bundles``) and per batch does what a
room server must: decode and check it with the project's :class:`InkGuard`,
keep it durably with the project's :class:`Store` (a flush every 0.25 s, as the
server does), and relay it to the room's other players, bundled the same way.
Nothing else: no rules, no views, no presence, no ASGI. Its WebSocket framing
is hand-written on an asyncio protocol (RFC 6455: unfragmented messages,
masked from clients), which is the cheapest way Python can do it.

Run on its own with ``python -m atelier.bench.floor --port P --db FILE``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import json
import secrets
import sys
from typing import cast

from atelier.errors import RuleError
from atelier.ink.guard import InkGuard
from atelier.server.wire.wsframe import BINARY, CLOSE, GUID, TEXT, frame, payload_length, unmask
from atelier.store import InkRow, Store, open_store

FLUSH_SECONDS = 0.25
BUNDLE_SECONDS = 0.04
ALL_TOOLS = frozenset({"pen", "eraser", "undo", "clear"})


class Room:
    def __init__(self, code: str) -> None:
        self.code = code
        self.peers: list[Peer] = []
        self.guards: dict[int, InkGuard] = {}
        self.counts: dict[int, int] = {}


class Relay:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.pending: list[tuple[str, InkRow]] = []
        self.waiting: set[Peer] = set()
        self.bundle_timer: asyncio.TimerHandle | None = None

    def bundle_later(self, peer: Peer) -> None:
        self.waiting.add(peer)
        if self.bundle_timer is None:
            self.bundle_timer = asyncio.get_running_loop().call_later(
                BUNDLE_SECONDS, self.flush_bundles)

    def flush_bundles(self) -> None:
        self.bundle_timer = None
        waiting, self.waiting = self.waiting, set()
        for peer in waiting:
            peer.flush_bundle()

    async def flush_loop(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            await self.flush()

    async def flush(self) -> None:
        rows, self.pending = self.pending, []
        if rows:
            await self.store.append_ink(rows)


class Peer(asyncio.Protocol):
    def __init__(self, relay: Relay) -> None:
        self.relay = relay
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.upgraded = False
        self.room: Room | None = None
        self.seat = -1
        self.bundles = False
        self.bundle: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.room is not None and self in self.room.peers:
            self.room.peers.remove(self)

    def send_text(self, obj: object) -> None:
        assert self.transport is not None
        self.transport.write(frame(TEXT, json.dumps(obj).encode()))

    def flush_bundle(self) -> None:
        if self.bundle and self.transport is not None and not self.transport.is_closing():
            payload = b"".join(len(f).to_bytes(2, "big") + f for f in self.bundle)
            self.transport.write(frame(BINARY, payload))
        self.bundle = []

    # -- HTTP, then WebSocket frames ---------------------------------------------

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if not self.upgraded:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buf[:end]).decode("latin-1")
            body_start = end + 4
            length = 0
            for line in head.split("\r\n")[1:]:
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            if len(self.buf) < body_start + length:
                return
            del self.buf[: body_start + length]
            self.http(head)
            if not self.upgraded:
                return
        self.frames()

    def http(self, head: str) -> None:
        assert self.transport is not None
        method, target = head.split(" ", 2)[:2]
        if method == "GET" and target.startswith("/ws/"):
            key = ""
            for line in head.split("\r\n")[1:]:
                if line.lower().startswith("sec-websocket-key:"):
                    key = line.split(":", 1)[1].strip()
            accept = base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()
            path, _, query = target[4:].partition("?")
            self.bundles = "ink=bundles" in query
            room = self.relay.rooms.get(path.upper())
            if room is None:
                self.transport.write(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
                self.transport.close()
                return
            self.room = room
            self.upgraded = True
            self.transport.write(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept.encode() + b"\r\n\r\n")
            return
        if method == "POST" and target == "/api/rooms":
            code = secrets.token_hex(3).upper()
            self.relay.rooms[code] = Room(code)
            body = json.dumps({"code": code}).encode()
            status = b"201 Created"
        else:
            body, status = b"{}", b"200 OK"
        self.transport.write(b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
                             b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)

    def frames(self) -> None:
        buf = self.buf
        i, n = 0, len(buf)
        while (found := payload_length(buf, i)) is not None:
            length, h = found
            if n - i < h + 4 + length:
                break
            opcode = buf[i] & 15
            key = bytes(buf[i + h : i + h + 4])
            payload = unmask(key, bytes(buf[i + h + 4 : i + h + 4 + length]))
            i += h + 4 + length
            if opcode == BINARY:
                self.ink(payload)
            elif opcode == TEXT:
                self.text(json.loads(payload))
            elif opcode == CLOSE and self.transport is not None:
                self.transport.close()
                break
        del buf[:i]

    # -- the room --------------------------------------------------------------------

    def text(self, msg: dict[str, object]) -> None:
        room = self.room
        assert room is not None
        kind = msg.get("t")
        if kind == "hello":
            self.send_text({"t": "welcome"})
        elif kind == "join":
            room.peers.append(self)
            self.send_text({"t": "joined", "token": secrets.token_urlsafe(8),
                            "player": {"id": str(len(room.peers))}})
        elif kind == "start":
            for seat, peer in enumerate(room.peers):
                peer.seat = seat
                peer.send_text({"t": "state", "you": {"seat": seat}})

    def ink(self, data: bytes) -> None:
        room = self.room
        if room is None or self.seat < 0:
            return
        guard = room.guards.setdefault(self.seat, InkGuard())
        try:
            guard.check(data, ALL_TOOLS)
        except RuleError:
            self.send_text({"t": "error", "code": "bad_ink"})
            return
        n = room.counts.get(self.seat, 0)
        room.counts[self.seat] = n + 1
        self.relay.pending.append((room.code, InkRow("sketch", self.seat, n, data)))
        relayed = bytes([self.seat]) + data
        for peer in room.peers:
            if peer is self or peer.transport is None:
                continue
            if peer.bundles:
                peer.bundle.append(relayed)
                self.relay.bundle_later(peer)
            else:
                peer.transport.write(frame(BINARY, relayed))


async def serve(port: int, db: str) -> None:
    store = await open_store(db)
    relay = Relay(store)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Peer(relay), "127.0.0.1", port)
    flusher = asyncio.create_task(relay.flush_loop())
    try:
        await server.serve_forever()
    finally:
        flusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flusher
        await relay.flush()
        await store.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atelier.bench.floor")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--db", required=True)
    args = ap.parse_args(argv)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, args.db))
    return 0


if __name__ == "__main__":
    sys.exit(main())
