"""One object per event loop, made on first use: the shared timers of the room
sockets (``roomsocket.Keepalive``) and of ink bundles (``ink.bundles.bundler``).
Tests run several event loops in one process, one after another, so an object
made for a finished loop is dropped rather than reused."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._loop: asyncio.AbstractEventLoop | None = None
        self._made: T | None = None

    def __call__(self) -> T:
        """The running loop's object."""
        loop = asyncio.get_running_loop()
        if self._made is None or self._loop is not loop:
            self._loop, self._made = loop, self._make()
        return self._made
