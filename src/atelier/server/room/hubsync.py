"""Other processes' notices about a room this process holds: its events (applied
in order, or the log's tail read when one was missed), its ink, who is online
there, and which processes hold it (so ink is published only while another
process holds the room too)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from atelier.hub import Hub, HubMessage
from atelier.server.ink.intake import InkIntake
from atelier.server.room import events, fanout
from atelier.server.room.events import LogEvent
from atelier.server.room.live_room import HOLD_RENEW, LiveRoom
from atelier.store import Store

log = logging.getLogger("atelier.server.room.rooms")  # one logger for the rooms' lines


class HubSync:
    """The other-processes part of :class:`~atelier.server.room.rooms.Rooms`."""

    hub: Hub
    store: Store
    loaded: dict[str, LiveRoom]
    ink: InkIntake[LiveRoom]

    if TYPE_CHECKING:
        def after_change(self, room: LiveRoom, local: bool,
                         event: LogEvent | None = None) -> None: ...

        def _spawn(self, coro: Coroutine[Any, Any, None]) -> None: ...

        async def drop_if_closed(self, code: str) -> None: ...

    # Routing by room code (workers.py, docs/deploy.md) gives a room one process,
    # so its ink need not cross to any other. Processes say which rooms they
    # hold ("hold" notices, renewed); a room's ink is published only while
    # another process holds it too (a room moving machine with players on it).

    def _hold(self, room: LiveRoom, held: bool, answer: bool = False) -> None:
        if self.hub.shared:
            self._spawn(self.hub.publish(HubMessage(
                room.code, "hold", self.hub.origin, {"held": held, "answer": answer})))

    async def _hold_loop(self) -> None:
        while True:
            await asyncio.sleep(HOLD_RENEW)
            for room in list(self.loaded.values()):
                self._hold(room, held=True, answer=True)

    async def on_hub(self, msg: HubMessage) -> None:
        room = self.loaded.get(msg.room)
        if room is None:
            return
        if msg.kind == "closed":  # from `atelier rooms close`, not from a process holding it
            await self.drop_if_closed(msg.room)
            return
        if msg.kind == "hold" and not msg.meta["held"]:
            room.holders.pop(msg.origin, None)
            return
        # any notice about the room says its sender holds it
        known = msg.origin in room.holders
        room.holders[msg.origin] = time.monotonic()
        if msg.kind == "hold":
            if not known and not msg.meta.get("answer"):
                self._hold(room, held=True, answer=True)  # so the newcomer knows of us
            return
        if msg.kind == "event":
            async with room.lock:
                seq = int(msg.meta["seq"])
                if seq == room.model.seq + 1:  # parsed once: applied, then announced
                    event = room.model.apply_event(seq, msg.meta["kind"], msg.meta["data"])
                elif seq > room.model.seq:
                    await self._catch_up(room)
                    event = events.parse(msg.meta["kind"], msg.meta["data"])
                else:
                    return
            self.after_change(room, local=False, event=event)
        elif msg.kind == "ink":
            self.ink.from_hub(room, msg.meta["key"], int(msg.meta["seat"]),
                              int(msg.meta["n"]), msg.data)
        elif msg.kind == "presence":
            room.remote_online[msg.origin] = set(msg.meta["online"])
            fanout.push_states(room)

    async def _catch_up(self, room: LiveRoom) -> bool:
        """Apply events other processes appended; True if there were any."""
        rows = await self.store.load_events(room.code, after=room.model.seq)
        for row in rows:
            room.model.apply_event(row.seq, row.kind, row.data)
        return bool(rows)
