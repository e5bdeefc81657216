"""What a session needs of its socket's transport besides receiving and sending:
a way to write a message at once, and a way to take ink before it is queued.

The room socket's own transport (``wire.roomsocket.RoomSocket``) does both and hands
itself to the session; uvicorn's WebSocket (``--ws-transport uvicorn``) does
neither, and its sessions get ``QUEUED``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


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


class Queued:
    """A transport with neither shortcut: every message goes through the queue."""

    def write_now(self, data: bytes | str) -> bool:
        return False

    def take_ink(self, handler: Callable[[bytes], bool]) -> None:
        return None


QUEUED = Queued()
