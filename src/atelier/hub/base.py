"""What a hub does: carry room notices to the *other* server processes.

A process fans out to its own connections directly (it has just applied the
change); the hub only tells the others, who then update their copy of the room
and push views to their connections. With one process there is nobody to tell.

Notices are small binary messages: ``origin (16 bytes) + kind (1 byte) + body``
so a process can skip its own and nothing needs a JSON round trip for ink.
"""

from __future__ import annotations

import json
import secrets
import struct
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

ORIGIN_BYTES = 16


@dataclass(frozen=True)
class HubMessage:
    """``kind``: "event" (``meta`` = the logged event), "ink" (``meta`` = key, seat, n;
    ``data`` = the batch), "presence" (``meta`` = online player ids), "hold"
    (``meta`` = held: this process has the room loaded, or no longer; answer: a
    reply to another's hold, which is not answered again) or "closed" (an
    operator closed the room in the store: look now, not at the next sweep)."""

    room: str
    kind: str
    origin: bytes
    meta: dict[str, Any]
    data: bytes = b""


Receiver = Callable[[HubMessage], Awaitable[None]]

_KINDS = {"event": b"E", "ink": b"I", "presence": b"P", "hold": b"H", "closed": b"C"}
_NAMES = {v: k for k, v in _KINDS.items()}


def encode(message: HubMessage) -> bytes:
    head = json.dumps({"room": message.room, **message.meta}).encode()
    return (
        message.origin
        + _KINDS[message.kind]
        + struct.pack(">I", len(head))
        + head
        + message.data
    )


def decode(raw: bytes) -> HubMessage:
    origin = raw[:ORIGIN_BYTES]
    kind = _NAMES[raw[ORIGIN_BYTES : ORIGIN_BYTES + 1]]
    (size,) = struct.unpack(">I", raw[ORIGIN_BYTES + 1 : ORIGIN_BYTES + 5])
    start = ORIGIN_BYTES + 5
    meta = json.loads(raw[start : start + size])
    room = meta.pop("room")
    return HubMessage(room, kind, origin, meta, raw[start + size :])


class Hub(Protocol):
    origin: bytes
    published: Counter[str]
    """Notices published so far, by kind."""

    def set_receiver(self, receiver: Receiver) -> None: ...

    async def publish(self, message: HubMessage) -> None: ...

    async def close(self) -> None: ...

    @property
    def shared(self) -> bool:
        """Whether other processes may hold the same rooms."""
        ...


class LocalHub:
    """A single process: nothing to tell anyone."""

    def __init__(self) -> None:
        self.origin = secrets.token_bytes(ORIGIN_BYTES)
        self.published: Counter[str] = Counter()  # stays empty

    def set_receiver(self, receiver: Receiver) -> None:
        pass

    async def publish(self, message: HubMessage) -> None:
        pass

    async def close(self) -> None:
        pass

    @property
    def shared(self) -> bool:
        return False
