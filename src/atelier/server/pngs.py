"""Drawings rendered to PNG for galleries and downloads.

Rendering takes 0.2-1 s of CPU, so it runs in a worker thread (the event loop
keeps relaying ink meanwhile), and a finished round's drawings are asked for
by every player at once, so recent results are kept.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Hashable

from atelier.ink.render import render_png


class PngCache:
    def __init__(self, capacity: int = 128) -> None:
        self.capacity = capacity
        self._done: OrderedDict[Hashable, bytes] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[bytes]] = {}

    async def get(self, key: tuple[str, str, int, int, int, str], batches: list[bytes]) -> bytes:
        """The PNG of ``batches``; ``key`` must change whenever they do (it holds
        the batch count: a drawing only ever grows)."""
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        if key in self._pending:  # the same drawing asked for twice at once: render once
            return await asyncio.shield(self._pending[key])
        _, _, _, _, size, colour = key
        task = asyncio.ensure_future(asyncio.to_thread(render_png, batches, colour, size))
        self._pending[key] = task
        try:
            png = await asyncio.shield(task)
        finally:
            self._pending.pop(key, None)
        self._done[key] = png
        while len(self._done) > self.capacity:
            self._done.popitem(last=False)
        return png
