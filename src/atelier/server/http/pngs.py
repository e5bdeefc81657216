"""Drawings rendered to PNG for galleries and downloads.

Rendering takes 0.2-1 s of CPU, so it runs in a worker thread (the event loop
keeps relaying ink meanwhile), and a finished round's drawings are asked for
by every player at once, so recent results are kept.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence

from atelier.ink.render import render_png


class RenderCache:
    """Renders off the event loop, the most recent ``capacity`` kept, one
    render for the same request made twice at once."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._done: OrderedDict[Hashable, bytes] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[bytes]] = {}
        self.renders = 0  # pictures actually drawn (not served from the cache)

    async def _cached(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        if key in self._pending:  # the same drawing asked for twice at once: render once
            return await asyncio.shield(self._pending[key])
        self.renders += 1
        task = asyncio.ensure_future(asyncio.to_thread(render))
        self._pending[key] = task
        try:
            data = await asyncio.shield(task)
        finally:
            self._pending.pop(key, None)
        self._done[key] = data
        while len(self._done) > self.capacity:
            self._done.popitem(last=False)
        return data


class PngCache(RenderCache):
    def __init__(self, capacity: int = 128) -> None:
        super().__init__(capacity)

    async def get(self, key: tuple[str, str, int, int, int, str],
                  batches: Sequence[bytes]) -> bytes:
        """The PNG of ``batches``; ``key`` must change whenever they do (it holds
        the batch count: a drawing only ever grows)."""
        _, _, _, _, size, colour = key
        return await self._cached(key, lambda: render_png(batches, colour, size))
