"""A room's deadline (a round's time running out, a countdown ending) fires a
``timeout`` action through the same commit as a player's move.

Loaded rooms keep one timer each; a room unloaded while its game runs gets a
wake-up that loads it back when its deadline comes (loading it schedules the
timer, which is then due)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from atelier.errors import RuleError
from atelier.games.actions import System
from atelier.games.core import SYSTEM
from atelier.server.room.live_room import LiveRoom
from atelier.server.room.model import Commit, RoomModel, decide_action

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.05  # a timeout the rules find early (clock skew) is tried again this soon

Spawn = Callable[[Coroutine[Any, Any, None]], None]


def due(model: RoomModel) -> float | None:
    """When the running game's next deadline falls (epoch seconds), if it has one."""
    return model.game.deadline(model.state) if model.phase == "playing" else None


class Deadlines:
    def __init__(self, commit: Commit[LiveRoom], spawn: Spawn,
                 load: Callable[[str], Awaitable[object]]) -> None:
        self.commit = commit
        self.spawn = spawn
        self.load = load
        self.stopped = False
        self._wakeups: dict[str, asyncio.TimerHandle] = {}

    def schedule(self, room: LiveRoom) -> None:
        """(Re)arm the room's timer for its current deadline, if any."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        deadline = due(room.model)
        if deadline is None or self.stopped:
            return
        self._arm(room, deadline, max(0.0, deadline - time.time()))

    def _arm(self, room: LiveRoom, deadline: float, delay: float) -> None:
        room.timer = asyncio.get_running_loop().call_later(
            delay, lambda: self.spawn(self._fire(room, deadline)))

    async def _fire(self, room: LiveRoom, deadline: float) -> None:
        model = room.model
        try:
            await self.commit(
                room, lambda m: decide_action(m, SYSTEM, System(type="timeout"), time.time())
            )
        except RuleError as err:
            if err.code == "timeout_early" and due(model) == deadline and not self.stopped:
                self._arm(room, deadline, RETRY_SECONDS)
            else:
                log.debug("timeout refused in %s: %s", model.code, err.code)
        except Exception:
            log.exception("timeout failed in %s", model.code)

    # -- rooms out of memory ---------------------------------------------------------

    def unloading(self, room: LiveRoom) -> None:
        """The room leaves memory: its timer stops, and a wake-up loads it back for
        its deadline."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        deadline = due(room.model)
        if deadline is not None and not self.stopped:
            code = room.code
            self._wakeups[code] = asyncio.get_running_loop().call_later(
                max(0.0, deadline - time.time()), lambda: self.spawn(self._wake(code)))

    def loaded(self, room: LiveRoom) -> None:
        """The room is back in memory: its own timer takes over from the wake-up."""
        wakeup = self._wakeups.pop(room.code, None)
        if wakeup is not None:
            wakeup.cancel()
        self.schedule(room)

    async def _wake(self, code: str) -> None:
        self._wakeups.pop(code, None)
        if self.stopped:
            return
        try:
            await self.load(code)
        except Exception:
            log.exception("room %s could not be woken for its deadline", code)

    def stop(self, rooms: list[LiveRoom]) -> None:
        self.stopped = True
        for wakeup in self._wakeups.values():
            wakeup.cancel()
        for room in rooms:
            if room.timer is not None:
                room.timer.cancel()
