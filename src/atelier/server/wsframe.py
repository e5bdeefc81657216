"""WebSocket framing (RFC 6455) shared by the room socket's transport, the
benchmark's lean relay and its load generator: plain functions on bytes."""

from __future__ import annotations

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""Appended to a client's key to make the handshake's accept value."""
TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 1, 2, 8, 9, 10, 0


def frame(opcode: int, payload: bytes) -> bytes:
    """A server frame: final, unmasked."""
    n = len(payload)
    if n < 126:
        return bytes((0x80 | opcode, n)) + payload
    if n < 65536:
        return bytes((0x80 | opcode, 126)) + n.to_bytes(2, "big") + payload
    return bytes((0x80 | opcode, 127)) + n.to_bytes(8, "big") + payload


def unmask(key: bytes, data: bytes) -> bytes:
    n = len(data)
    if not n:
        return b""
    mask = int.from_bytes((key * (n // 4 + 1))[:n], "big")
    return (int.from_bytes(data, "big") ^ mask).to_bytes(n, "big")


def payload_length(buf: bytes | bytearray, i: int) -> tuple[int, int] | None:
    """The payload length of the frame at ``buf[i:]`` and the size of its header
    before any mask key; None while the header is not all there."""
    n = len(buf) - i
    if n < 2:
        return None
    length = buf[i + 1] & 127
    if length == 126:
        return None if n < 4 else (int.from_bytes(buf[i + 2 : i + 4], "big"), 4)
    if length == 127:
        return None if n < 10 else (int.from_bytes(buf[i + 2 : i + 10], "big"), 10)
    return length, 2
