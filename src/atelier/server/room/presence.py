"""Who is connected to a room: connections attached and detached, the count
of who is online (told to other processes that hold the room), and the host
role handed on when the room's creator does not come back."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from atelier.errors import RuleError
from atelier.hub import Hub, HubMessage
from atelier.server.room import fanout, views
from atelier.server.room.connection import Connection
from atelier.server.room.events import LogEvent
from atelier.server.room.live_room import CREATOR, LiveRoom
from atelier.server.room.model import Decision, decide_unclaimed_host

log = logging.getLogger("atelier.server.room.rooms")  # one logger for the rooms' lines

CREATOR_WAIT = 90.0
"""Seconds the host role waits for a room's creator whose connection closed
before they sat down (a phone that went to another app to share the link)."""


class Presence:
    """The connections part of :class:`~atelier.server.room.rooms.Rooms`."""

    hub: Hub
    loaded: dict[str, LiveRoom]
    creator_wait: float

    if TYPE_CHECKING:
        async def commit(self, room: LiveRoom, decide: Decision) -> LogEvent: ...

        def _spawn(self, coro: Coroutine[Any, Any, None]) -> None: ...

    def attach(self, room: LiveRoom, conn: Connection, player_id: str | None) -> None:
        conn.player_id = player_id
        room.conns.add(conn)
        room.cache.changed()
        room.active_at = time.monotonic()
        conn.send(views.welcome_message(room.model, player_id))
        if conn.creator:
            room.creator_left_at = None
            if room.host_timer is not None:
                room.host_timer.cancel()
                room.host_timer = None
        self._recount_online(room)
        fanout.push_states(room)

    def detach(self, room: LiveRoom, conn: Connection) -> None:
        if conn not in room.conns:
            return
        room.conns.discard(conn)
        room.cache.forget(conn)
        room.active_at = time.monotonic()
        self._recount_online(room)
        fanout.push_states(room)
        if conn.creator and conn.player_id is None and CREATOR not in room.online():
            # the creator's last connection closed before they sat down: the host
            # role waits a while for them, then goes to the first player seated
            room.creator_left_at = time.monotonic()
            if room.host_timer is not None:
                room.host_timer.cancel()
            room.host_timer = asyncio.get_running_loop().call_later(
                self.creator_wait + 0.05, lambda: self._spawn(self.settle_host(room)))

    async def settle_host(self, room: LiveRoom) -> None:
        """A room with players and no host, whose creator it no longer waits for
        (gone a while, or not here after a restart): the first seated is host."""
        model = room.model
        if (self.loaded.get(model.code) is not room or model.host is not None
                or not model.players or room.creator_waits(self.creator_wait)):
            return
        try:
            await self.commit(room, lambda r: (decide_unclaimed_host(r), None))
        except RuleError:
            pass  # someone became host meanwhile
        except Exception:
            log.exception("handing the host role on failed in room %s", model.code)

    def _recount_online(self, room: LiveRoom) -> None:
        online = fanout.recount_online(room)
        if online is not None and self.hub.shared:
            self._spawn(self.hub.publish(
                HubMessage(room.code, "presence", self.hub.origin, {"online": sorted(online)})
            ))
