"""A bare WebSocket client (RFC 6455) for the load generator.

The benchmark must be cheaper than the server it loads: a general client
library spends more per message than the server does. This one is an asyncio
protocol that sends frames built in advance (masked once, at start-up) with
one ``transport.write`` and parses what the server sends without copying more
than each message. It speaks only what the server does: unfragmented text and
binary messages, ping (answered), close.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
from collections.abc import Callable
from typing import cast

from atelier.server.wire.wsframe import BINARY, CLOSE, GUID, PING, PONG, TEXT, payload_length


def client_frame(opcode: int, payload: bytes, key: bytes | None = None) -> bytes:
    """A masked client frame (clients must mask; the key may be reused for
    frames built in advance, which the server cannot tell apart)."""
    key = key or os.urandom(4)
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    mask = int.from_bytes((key * (n // 4 + 1))[:n], "big")
    return head + key + (int.from_bytes(payload, "big") ^ mask).to_bytes(n, "big")


def frame_overhead(payload: int, masked: bool) -> int:
    """Header bytes of one WebSocket frame on the wire."""
    return 2 + (2 if 126 <= payload < 65536 else 8 if payload >= 65536 else 0) + (
        4 if masked else 0
    )


class WsClient(asyncio.Protocol):
    """One connection; ``on_message(opcode, payload, wire_bytes)`` gets every
    text or binary message."""

    def __init__(self, host: str, path: str,
                 on_message: Callable[[int, bytes, int], None],
                 on_lost: Callable[[], None]) -> None:
        self.host = host
        self.path = path
        self.on_message = on_message
        self.on_lost = on_lost
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.key = base64.b64encode(os.urandom(16))
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport = cast(asyncio.Transport, transport)
        transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("closed during the handshake"))
        if not self.closed:
            self.closed = True
            self.on_lost()

    def write(self, frame: bytes) -> None:
        if self.transport is not None and not self.closed:
            self.transport.write(frame)

    def send_text(self, text: str) -> None:
        self.write(client_frame(TEXT, text.encode()))

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.opened.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end]).decode("latin-1")
            del buf[: end + 4]
            accept = base64.b64encode(hashlib.sha1(self.key + GUID).digest()).decode()
            if not head.startswith("HTTP/1.1 101") or accept not in head:
                self.opened.set_exception(ConnectionError(head.split("\r\n", 1)[0]))
                self.close()
                return
            self.opened.set_result(None)
        i, n = 0, len(buf)
        while (found := payload_length(buf, i)) is not None:
            length, h = found
            if n - i < h + length:
                break
            opcode = buf[i] & 15
            payload = bytes(buf[i + h : i + h + length])
            i += h + length
            if opcode in (TEXT, BINARY):
                self.on_message(opcode, payload, h + length)
            elif opcode == PING:
                self.write(client_frame(PONG, payload))
            elif opcode == CLOSE:
                self.write(client_frame(CLOSE, payload[:2]))
                self.close()
                self.on_lost()
                break
        del buf[:i]
