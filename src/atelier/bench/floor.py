"""The floor for ``atelier bench ink --floor``: a lean relay doing only the work
the ink path cannot skip, to measure Atelier against.

It speaks just enough of the protocol for the load generator (``hello``,
``join``, ``start``, binary ink, ``?ink=bundles``) and per batch does what a
room server must: decode and check it with the project's :class:`InkGuard`,
keep it durably with the project's :class:`Store`, and relay it to the room's
other players in the same 40 ms bundles, each bundle sent only once the ink in
it is in the store's write (as the server does: what anyone saw survives a
kill). Nothing else: no rules, no views, no presence, no limits, no ASGI, and
each batch is prefixed once for all its watchers and a room's bundles are sent
together, the leanest way Python does it.

Its WebSocket framing is plain Python on an asyncio protocol (RFC 6455:
unfragmented messages, masked from clients), with wsframe's Python functions
(``unmask_py`` and ``frame_py``, never the compiled ``binaries``, ``unmask`` or
``frame``): the floor is a
fixed yardstick of what a Python relay costs, so whatever the server moves into
compiled code (``atelier.server.wire._frames``) shows in the comparison rather
than in both.

Run on its own with ``python -m atelier.bench.floor --port P (--db FILE | --database-url URL)``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import json
import secrets
import struct
import sys
import time
from typing import cast

from atelier.errors import RuleError
from atelier.ink.guard import InkGuard
from atelier.server.wire.wsframe import BINARY, CLOSE, GUID, TEXT, payload_length
from atelier.server.wire.wsframe import frame_py as frame
from atelier.server.wire.wsframe import unmask_py as unmask
from atelier.store import InkRow, Store, open_store

BUNDLE_SECONDS = 0.04
FLUSH_SECONDS = 0.25  # ink nobody watches is written this often
ALL_TOOLS = frozenset({"pen", "eraser", "undo", "clear"})
_HEAD = struct.Struct(">HB").pack  # a bundle entry's u16 length, then the seat


class Room:
    def __init__(self, code: str) -> None:
        self.code = code
        self.peers: list[Peer] = []
        self.gathering = False  # ink waits in its peers' bundles for the tick


class Relay:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.pending: list[tuple[str, InkRow]] = []
        self.ticking: list[Room] = []
        self.bundle_timer: asyncio.TimerHandle | None = None
        self.last_tick = -BUNDLE_SECONDS  # ticks BUNDLE_SECONDS apart, at once after a lull
        self.lock = asyncio.Lock()  # one write at a time, in order
        self.sending: set[asyncio.Task[None]] = set()  # the loop keeps only weak ones

    def gather(self, room: Room) -> None:
        room.gathering = True
        self.ticking.append(room)
        if self.bundle_timer is None:
            wait = self.last_tick + BUNDLE_SECONDS - time.monotonic()
            self.bundle_timer = asyncio.get_running_loop().call_later(max(wait, 0.0), self.tick)

    def tick(self) -> None:
        """Every room's bundles, sent once the ink in them is stored."""
        self.bundle_timer = None
        self.last_tick = time.monotonic()
        rooms, self.ticking = self.ticking, []
        out: list[tuple[asyncio.Transport, bytes]] = []
        for room in rooms:
            room.gathering = False
            for peer in room.peers:
                bundle = peer.bundle
                if bundle and peer.transport is not None:
                    if peer.bundles:
                        out.append((peer.transport, frame(BINARY, b"".join(bundle))))
                    else:  # a message per frame (bench ink --single-frames)
                        out.extend((peer.transport, frame(BINARY, e[2:])) for e in bundle)
                    bundle.clear()
        task = asyncio.get_running_loop().create_task(self.send_after_write(out))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def send_after_write(self, out: list[tuple[asyncio.Transport, bytes]]) -> None:
        await self.flush()
        for transport, data in out:
            if not transport.is_closing():
                transport.write(data)

    async def flush_loop(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            await self.flush()

    async def flush(self) -> None:
        async with self.lock:
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
        self.guard = InkGuard()
        self.count = 0  # batches kept
        self.bundles = False
        self.bundle: list[bytes] = []  # entries as bundles carry them (u16 length first)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.room is not None and self in self.room.peers:
            self.room.peers.remove(self)

    def send_text(self, obj: object) -> None:
        assert self.transport is not None
        self.transport.write(frame(TEXT, json.dumps(obj).encode()))

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
        try:
            self.guard.check(data, ALL_TOOLS)
        except RuleError:
            self.send_text({"t": "error", "code": "bad_ink"})
            return
        relay = self.relay
        relay.pending.append((room.code, InkRow("sketch", self.seat, self.count, data)))
        self.count += 1
        prefixed = _HEAD(len(data) + 1, self.seat) + data
        for peer in room.peers:
            if peer is not self:
                peer.bundle.append(prefixed)
        if not room.gathering:
            relay.gather(room)


async def serve(port: int, db: str | None, url: str | None = None, prefix: str = "") -> None:
    store = await open_store(db, url, prefix)
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
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", help="a SQLite file")
    where.add_argument("--database-url", help="postgresql+asyncpg://...")
    ap.add_argument("--table-prefix", default="", help="for the tables in a shared database")
    args = ap.parse_args(argv)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, args.db, args.database_url, args.table_prefix))
    return 0


if __name__ == "__main__":
    sys.exit(main())
