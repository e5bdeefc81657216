"""Keeping a process's rooms in hand: rooms nobody is connected to leave memory
(their log brings them back), rooms an operator closed are let go, and the
correspondence games due to act on are found from the store and loaded (a
restart, an unload or a machine gone never loses a loss on time)."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from atelier.errors import RuleError
from atelier.server.ink.intake import InkIntake
from atelier.server.push.nudges import wake_at
from atelier.server.push.service import PushService
from atelier.server.room import views
from atelier.server.room.deadlines import Deadlines
from atelier.server.room.live_room import LiveRoom
from atelier.store import Store

log = logging.getLogger("atelier.server.room.rooms")  # one logger for the rooms' lines

IDLE_SECONDS = 600.0  # a room nobody is connected to leaves memory after this long
SCAN_SECONDS = 60.0
"""How often the store is asked for correspondence games due (a quarter-time
push or a loss on time) whose room is out of memory, or held by a machine that
went away."""
RELEASE_AFTER = 50  # unloading this many rooms at once is worth a collection and a trim
CLOSE_GONE = 4404  # as session.CLOSE_UNKNOWN_ROOM: the client stops reconnecting


def release_memory() -> None:
    """Collect, then hand the C heap's free pages back to the system (glibc only):
    otherwise the process keeps its peak size after many rooms leave."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)



class Upkeep:
    """The upkeep part of :class:`~atelier.server.room.rooms.Rooms`."""

    store: Store
    loaded: dict[str, LiveRoom]
    owns: Callable[[str], bool]
    deadlines: Deadlines
    push: PushService
    ink: InkIntake[LiveRoom]
    idle_seconds: float
    scan_seconds: float
    unloaded: int
    _wakes: dict[str, float | None]

    if TYPE_CHECKING:
        async def get(self, code: str) -> LiveRoom | None: ...

        def _hold(self, room: LiveRoom, held: bool, answer: bool = False) -> None: ...

    async def _scan_loop(self) -> None:
        while True:
            try:
                await self.load_due()
            except Exception:
                log.exception("looking for due rooms failed")
            await asyncio.sleep(self.scan_seconds)

    async def load_due(self) -> int:
        """Load the rooms this process owns whose next moment to act on has come
        (loading arms their push and deadline timers, which are then due); a
        restart, an unload or a machine gone never loses a loss on time."""
        found = 0
        for code in await self.store.rooms_due(time.time()):
            if code in self.loaded or not self.owns(code):
                continue
            try:
                await self.get(code)
                found += 1
            except Exception:
                log.exception("due room %s could not be loaded", code)
        return found

    async def _write_wake(self, room: LiveRoom) -> None:
        """Keep the room's next moment to act on in the store, when it changed."""
        wake = wake_at(room.model)
        if wake is None and room.code not in self._wakes:
            return  # a live game: nothing to find it by
        if self._wakes.get(room.code, -1.0) != wake:
            await self.store.set_wake(room.code, wake)
            self._wakes[room.code] = wake

    # -- unloading idle rooms -------------------------------------------------------

    async def _sweep_loop(self) -> None:
        every = min(30.0, max(0.05, self.idle_seconds / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.drop_closed()
                self.unload_idle()
            except Exception:
                log.exception("unloading idle rooms failed")

    async def drop_closed(self) -> int:
        """Let go of the loaded rooms an operator closed meanwhile (``atelier rooms
        close`` writes to the store only): their sockets are told the room is gone."""
        closed = await self.store.closed_among(sorted(self.loaded))
        for code in closed:
            self._let_go_closed(code)
        return len(closed)

    async def drop_if_closed(self, code: str) -> None:
        """An operator says they closed this room (a hub notice): the store decides."""
        if code in self.loaded and await self.store.closed_among([code]):
            self._let_go_closed(code)

    def _let_go_closed(self, code: str) -> None:
        room = self.loaded.pop(code, None)
        if room is None:
            return
        self.deadlines.unloading(room)
        self._hold(room, held=False)
        for conn in list(room.conns):
            conn.send(views.error_message(RuleError("unknown_room", room=code), conn.lang))
            conn.close(CLOSE_GONE, "room closed")
        log.info("room %s closed by an operator", code)

    def unload_idle(self, now: float | None = None) -> int:
        """Drop the rooms nobody has been connected to for ``idle_seconds``; their
        log brings them back on the next visit. A room stays while anything is
        under way in it (a commit, a computer thinking, ink not yet written).
        A room with a deadline gets a wake-up that loads it back when it is due."""
        now = time.monotonic() if now is None else now
        unwritten = self.ink.unwritten()
        gone = 0
        for code, room in list(self.loaded.items()):
            if (room.conns or now - room.active_at < self.idle_seconds or room.busy()
                    or code in unwritten or self._in_last_quarter(room)):
                continue
            self.deadlines.unloading(room)
            self.push.forget(code)
            self._wakes.pop(code, None)
            self._hold(room, held=False)
            del self.loaded[code]
            self.unloaded += 1
            gone += 1
            log.debug("room %s unloaded after %.0f s without a connection",
                      code, now - room.active_at)
        if gone:
            log.info("unloaded %d idle room%s (%d still loaded)",
                     gone, "" if gone == 1 else "s", len(self.loaded))
            if gone >= RELEASE_AFTER:
                release_memory()
        return gone

    @staticmethod
    def _in_last_quarter(room: LiveRoom) -> bool:
        """A correspondence game in its turn's last quarter stays loaded until
        its deadline (the due-room scan would only load it again)."""
        wake = wake_at(room.model)
        return wake is not None and wake <= time.time()
