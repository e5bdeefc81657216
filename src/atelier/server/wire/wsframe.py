"""WebSocket framing (RFC 6455) shared by the room socket's transport and the
benchmark's load generator: plain functions on bytes. The room socket's common
case (whole binary frames, unmasked) is compiled when a C compiler was there at
install (``_frames.c``); these are the same in Python otherwise."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import cast

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""Appended to a client's key to make the handshake's accept value."""
TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 1, 2, 8, 9, 10, 0


def frame_py(opcode: int, payload: bytes) -> bytes:
    """A server frame: final, unmasked."""
    n = len(payload)
    if n < 126:
        return bytes((0x80 | opcode, n)) + payload
    if n < 65536:
        return bytes((0x80 | opcode, 126)) + n.to_bytes(2, "big") + payload
    return bytes((0x80 | opcode, 127)) + n.to_bytes(8, "big") + payload


def unmask_py(key: bytes, data: bytes) -> bytes:
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


def binaries_py(buf: bytes | bytearray, i: int, max_message: int) -> tuple[list[bytes], int]:
    """The whole, final, masked binary frames of at most ``max_message`` bytes
    from ``buf[i:]``, unmasked, and where they end: the room socket's common
    case (an ink batch a frame). It stops at the first frame that is anything
    else, for the general path to judge."""
    found: list[bytes] = []
    n = len(buf)
    while n - i >= 2 and buf[i] == 0x82 and buf[i + 1] & 0x80:
        header = payload_length(buf, i)
        if header is None:
            break
        length, h = header
        if length > max_message or n - i < h + 4 + length:
            break
        found.append(unmask_py(bytes(buf[i + h : i + h + 4]),
                               bytes(buf[i + h + 4 : i + h + 4 + length])))
        i += h + 4 + length
    return found, i


binaries: Callable[[bytes | bytearray, int, int], tuple[list[bytes], int]] = binaries_py
unmask: Callable[[bytes, bytes], bytes] = unmask_py
frame: Callable[[int, bytes], bytes] = frame_py
try:  # the same, compiled (src/atelier/server/wire/_frames.c)
    from atelier.server.wire._frames import binaries as _binaries
    from atelier.server.wire._frames import frame as _frame
    from atelier.server.wire._frames import unmask as _unmask
except ImportError:  # no C compiler at install: correct, a little slower
    COMPILED = False
else:
    COMPILED = True
    binaries, unmask, frame = _binaries, _unmask, _frame


# -- what a server accepts from a client (RFC 6455, sections 5 and 7) ---------------

MAX_CONTROL = 125
"""Largest payload of a ping, pong or close frame."""


class ProtocolError(Exception):
    """A frame that fails the connection: the close code to send and why."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def close_code_allowed(code: int) -> bool:
    """Whether ``code`` may be on the wire in a close frame: the registered codes
    an endpoint may send (never 1004-1006 or 1015) and those kept for libraries
    and applications."""
    return 1000 <= code <= 1003 or 1007 <= code <= 1014 or 3000 <= code <= 4999


def close_payload(code: int, reason: str = "") -> bytes:
    """Our close frame's payload: a code allowed on the wire (1000 otherwise) and
    the reason cut to fit a control frame, at a character boundary."""
    if not close_code_allowed(code):
        code = 1000
    cut = reason.encode()[: MAX_CONTROL - 2].decode(errors="ignore").encode()
    return code.to_bytes(2, "big") + cut


def read_close(payload: bytes) -> tuple[int, bytes]:
    """A client's close frame: its code (1005 when it has none) and the payload of
    the close that answers it (the same code, or nothing)."""
    if not payload:
        return 1005, b""
    if len(payload) == 1:
        raise ProtocolError(1002, "close frame of one byte")
    code = int.from_bytes(payload[:2], "big")
    if not close_code_allowed(code):
        raise ProtocolError(1002, "invalid close code")
    try:
        payload[2:].decode()
    except UnicodeDecodeError:
        raise ProtocolError(1007, "close reason is not UTF-8") from None
    return code, payload[:2]


def header_error(b0: int, b1: int, length: int, message: Message | None,
                 max_message: int) -> ProtocolError | None:
    """What is wrong with a client frame, from its header alone (so a frame to be
    refused is refused before its payload is read); None if nothing. ``message``
    is the fragmented message being assembled, if any."""
    if not b1 & 0x80:
        return ProtocolError(1002, "frames from a client must be masked")
    if b0 & 0x70:
        return ProtocolError(1002, "reserved bits set")
    opcode = b0 & 15
    if opcode >= 8:
        if opcode not in (CLOSE, PING, PONG):
            return ProtocolError(1002, "unknown opcode")
        if not b0 & 0x80:
            return ProtocolError(1002, "fragmented control frame")
        if length > MAX_CONTROL:
            return ProtocolError(1002, "control frame over 125 bytes")
        return None
    if opcode not in (TEXT, BINARY, CONTINUATION):
        return ProtocolError(1002, "unknown opcode")
    if opcode == CONTINUATION:
        if message is None:
            return ProtocolError(1002, "continuation without a start")
        if message.size + length > max_message:
            return ProtocolError(1009, "message too big")
        if message.fragments >= message.max_fragments:
            return ProtocolError(1009, "message in too many fragments")
        return None
    if message is not None:
        return ProtocolError(1002, "a new message inside a fragmented one")
    if length > max_message:
        return ProtocolError(1009, "message too big")
    return None


class Message:
    """A fragmented message being assembled. Its size is kept as a running total
    and its fragments are counted, so each frame costs the same however many came
    before; text is decoded as it comes, so bad UTF-8 fails the connection at the
    fragment that breaks it."""

    __slots__ = ("decoder", "fragments", "max_fragments", "parts", "size", "text")

    def __init__(self, opcode: int, max_fragments: int) -> None:
        self.text = opcode == TEXT
        self.decoder = codecs.getincrementaldecoder("utf-8")() if self.text else None
        self.parts: list[bytes] | list[str] = []
        self.size = 0
        self.fragments = 0
        self.max_fragments = max_fragments

    def add(self, payload: bytes, final: bool) -> bytes | str | None:
        """Add one fragment; the whole message after the last one, else None."""
        self.size += len(payload)
        self.fragments += 1
        if self.decoder is not None:
            try:
                text = self.decoder.decode(payload, final)
            except UnicodeDecodeError:
                raise ProtocolError(1007, "text is not UTF-8") from None
            texts = cast(list[str], self.parts)
            texts.append(text)
            return "".join(texts) if final else None
        chunks = cast(list[bytes], self.parts)
        chunks.append(payload)
        return b"".join(chunks) if final else None
