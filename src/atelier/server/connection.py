"""One WebSocket connection: who it is, what it has been sent, and its outgoing queue.

Sending never blocks the room: messages go to a bounded queue that a writer
task drains. A client too slow to keep up is closed (it reconnects and gets a
full sync) rather than holding everyone else back.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket

from atelier.server.limits import Limits

QUEUE_SIZE = 1024
CLOSE_TOO_SLOW = 1013

Outgoing = str | bytes | tuple[int, str]  # (code, reason) closes


class Connection:
    def __init__(self, ws: WebSocket, lang: str = "en") -> None:
        self.ws = ws
        self.lang = lang
        self.player_id: str | None = None
        self.room: Any = None
        self.limits = Limits()
        self.ink_key: str | None = None
        self.visible: frozenset[int] = frozenset()
        self.closing = False
        self.queue: asyncio.Queue[Outgoing] = asyncio.Queue(QUEUE_SIZE)
        self.bytes_sent = 0

    def send(self, message: Outgoing) -> None:
        if self.closing:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.closing = True
            with contextlib.suppress(asyncio.QueueFull):
                # make room for the close itself
                self.queue.get_nowait()
                self.queue.put_nowait((CLOSE_TOO_SLOW, "too slow"))

    def close(self, code: int, reason: str = "") -> None:
        if not self.closing:
            self.send((code, reason))
            self.closing = True

    async def writer(self) -> None:
        """Drain the queue to the socket until a close or a send fails."""
        ws = self.ws
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, bytes):
                    await ws.send_bytes(item)
                elif isinstance(item, str):
                    await ws.send_text(item)
                else:
                    await ws.close(code=item[0], reason=item[1])
                    return
        except Exception:
            # the peer went away; the reader notices and cleans up
            self.closing = True
