"""The pushes of the rooms this process commits (docs/deploy.md, "Turn nudges").

A committed event's pushes (``nudges.after_event``) and a turn's quarter-time
push (``nudges.quarter_due``, a timer per loaded room) each go out once: the
push is claimed in the store under its key first, and only the process whose
claim is inserted sends it, so ``--workers N`` and several machines send one
push per moment. A room's pushes per minute are bounded by the same claim."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from py_vapid import Vapid

from atelier.i18n import translate
from atelier.jsonvalue import JSON
from atelier.server.push import nudges, sender
from atelier.server.room.model import RoomModel
from atelier.store.push import PushStore

log = logging.getLogger(__name__)

PUSHES_PER_MINUTE = 12
"""Per room: a game's turns come minutes apart at the quickest; this bounds a
room whose players make the server push to each other in a loop."""
SUBSCRIPTIONS_PER_ADDRESS = 40
"""Per client address: a household plays a few games, each on a few devices."""
CONTACT = "mailto:atelier@localhost"


@dataclass
class PushConfig:
    contact: str = CONTACT
    """The VAPID ``sub`` claim: how a push service reaches the operator."""
    services: tuple[str, ...] = ()
    """Endpoint prefixes allowed besides the browsers' push services."""
    per_minute: int = PUSHES_PER_MINUTE
    per_address: int = SUBSCRIPTIONS_PER_ADDRESS


@dataclass
class PushStats:
    sent: int = 0
    gone: int = 0
    failed: int = 0
    last_seconds: list[float] = field(default_factory=list)
    """From the commit to the push service's answer, the latest pushes."""


class PushService:
    def __init__(self, store: PushStore, config: PushConfig | None = None) -> None:
        self.store = store
        self.config = config or PushConfig()
        self.vapid: Vapid | None = None
        self.public_key = ""
        self.stats = PushStats()
        self._session: aiohttp.ClientSession | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopped = False

    async def start(self) -> None:
        from atelier.server.push.vapid import server_key
        self.vapid, self.public_key = await server_key(self.store)

    async def close(self) -> None:
        self.stopped = True
        for timer in self._timers.values():
            timer.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=2.0)
        if self._session is not None:
            await self._session.close()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- when --------------------------------------------------------------------

    def committed(self, model: RoomModel, seq: int, kind: str, data: dict[str, JSON]) -> None:
        """An event this process committed: its pushes go out."""
        if self.stopped:
            return
        at = time.monotonic()
        for nudge in nudges.after_event(model, seq, kind, data):
            self._spawn(self.deliver(model.code, nudge, at))

    def schedule(self, model: RoomModel) -> None:
        """(Re)arm the room's quarter-time push; a loaded room calls this on every change."""
        timer = self._timers.pop(model.code, None)
        if timer is not None:
            timer.cancel()
        found = nudges.quarter_due(model)
        if found is None or self.stopped:
            return
        when, nudge = found
        deadline = model.game.deadline(model.state)
        if deadline is not None and deadline <= time.time():
            return  # the turn is over already: its loss on time says enough
        code = model.code
        delay = max(0.0, when - time.time())
        self._timers[code] = asyncio.get_running_loop().call_later(
            delay, lambda: self._spawn(self._quarter(code, nudge)))

    async def _quarter(self, code: str, nudge: nudges.Nudge) -> None:
        self._timers.pop(code, None)
        await self.deliver(code, nudge, time.monotonic())

    def forget(self, code: str) -> None:
        """The room left memory: the due-room scan finds it again (docs/deploy.md)."""
        timer = self._timers.pop(code, None)
        if timer is not None:
            timer.cancel()

    # -- sending -----------------------------------------------------------------

    async def deliver(self, code: str, nudge: nudges.Nudge, since: float) -> None:
        try:
            if not await self.store.claim(nudge.key, code, self.config.per_minute):
                return  # sent by another process, or the room's pushes are used up
            for sub in await self.store.subscriptions(code, nudge.player):
                data = sender.payload(code, translate(nudge.text, sub.lang, room=code))
                status = await sender.send(self.session(), self.key(), self.config.contact,
                                           sub, data)
                log.debug("push %s to %s: %s", nudge.key, sub.endpoint[:40], status)
                if status in sender.GONE:
                    self.stats.gone += 1
                    await self.store.forget_endpoint(sub.endpoint)
                elif 200 <= status < 300:
                    self.stats.sent += 1
                    self.stats.last_seconds = [*self.stats.last_seconds[-99:],
                                               time.monotonic() - since]
                else:
                    self.stats.failed += 1
                    log.info("push for room %s answered %s", code, status)
        except Exception:
            self.stats.failed += 1
            log.exception("push %s failed", nudge.key)

    def key(self) -> Vapid:
        assert self.vapid is not None, "PushService.start() loads the key"
        return self.vapid

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        return self._session
