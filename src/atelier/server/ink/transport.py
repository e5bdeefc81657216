"""What a session needs of its socket's transport besides receiving and sending:
a way to write a message at once, and a way to take ink before it is queued.

The room socket's own transport (``wire.roomsocket.RoomSocket``) does both and hands
itself to the session; uvicorn's WebSocket (``--ws-transport uvicorn``) does
neither, and its sessions get ``QUEUED``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol, runtime_checkable


class SocketTransport(Protocol):
    def write_now(self, data: bytes | str) -> bool:
        """Write one message at once if the socket takes it without waiting (open,
        accepted, not pushing back); False: the caller queues it."""
        ...

    def take_ink(self, handler: Callable[[bytes], bool]) -> None:
        """From now on hand each binary message to ``handler`` while the session
        waits with nothing queued; ``handler`` returns False for a message it
        leaves to the session's ordinary receive."""
        ...


@runtime_checkable
class DirectSocket(Protocol):
    """A transport whose socket a connection may write a finished binary message
    to itself, framed, while ``ready``: the room socket's. The bundle tick sends
    hundreds of bundles a turn, and ``write_now``'s call and checks per bundle
    cost more than the framing (docs/performance.md)."""

    ready: bool
    """Open, accepted and not pushing back (then ``transport`` is set)."""
    transport: asyncio.Transport | None


class Queued:
    """A transport with neither shortcut: every message goes through the queue."""

    def write_now(self, data: bytes | str) -> bool:
        return False

    def take_ink(self, handler: Callable[[bytes], bool]) -> None:
        return None


QUEUED = Queued()
