"""Computer players: after every change of a running game, each computer seat is
asked for a move (in the engine pool's worker processes, as a strong search
holds the GIL for a while) and the move goes through the same commit as a
person's. A room's moves are play-lane work: they go before reviews, and rooms
take turns (``atelier.server.engine.queue``)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from atelier.errors import RuleError
from atelier.games.actions import Action
from atelier.games.core import BotGame
from atelier.server.engine.pool import Engine
from atelier.server.engine.queue import PLAY
from atelier.server.room.events import LogEvent
from atelier.server.room.live_room import LiveRoom
from atelier.server.room.model import Commit, RoomModel, decide_action

log = logging.getLogger(__name__)



class Computers:
    def __init__(self, commit: Commit[LiveRoom], engine: Engine) -> None:
        self.commit = commit
        self.engine = engine
        self.stopped = False

    def wake(self, room: LiveRoom) -> None:
        """Let the room's computers look at the game (again, if they are thinking)."""
        if room.model.phase != "playing" or not room.model.computers or self.stopped:
            return
        if room.bots is not None and not room.bots.done():
            room.bots_again = True
            return
        room.bots = asyncio.create_task(self._play(room))

    def thinking(self, rooms: list[LiveRoom]) -> list[asyncio.Task[None]]:
        return [r.bots for r in rooms if r.bots is not None and not r.bots.done()]

    async def _think(self, code: str, seq: int, game: BotGame[Any], state: Any,
                     seat: int) -> Action | None:
        """The computer's move, searched in a worker process; once more if that
        worker died under it (a replaced worker is a fresh start)."""
        for attempt in range(2):
            place = self.engine.admit(PLAY, None)
            try:
                action: Action | None = await self.engine.run(
                    place, f"bot|{code}|{seq}|{seat}", code, game.bot_action, (state, seat))
                return action
            except RuleError as err:
                if err.code != "engine_failed" or attempt:
                    raise
        return None

    async def _play(self, room: LiveRoom) -> None:
        model = room.model
        game = model.game
        if not isinstance(game, BotGame):
            return
        while True:
            room.bots_again = False
            acted = False
            for seat in sorted(model.computers):
                if model.phase != "playing" or self.stopped:
                    return
                seq, state = model.seq, model.state
                if not game.bot_to_act(state, seat):
                    continue  # nothing to think about: no worker is asked
                try:
                    action = await self._think(model.code, seq, game, state, seat)
                except RuleError as err:  # the engine stopping, or its worker died twice
                    log.warning("computer player in %s: %s", model.code, err.code)
                    return
                if action is None:
                    continue

                def decide(m: RoomModel, seat: int = seat, seq: int = seq,
                           action: Action = action) -> tuple[LogEvent, object]:
                    if m.seq != seq:
                        raise RuleError("busy")  # the game moved on while it thought
                    return decide_action(m, seat, action, time.time())

                try:
                    await self.commit(room, decide)
                    acted = True
                except RuleError as err:
                    log.debug("computer move refused in %s: %s", model.code, err.code)
                    acted = acted or err.code == "busy"
            if not acted and not room.bots_again:
                return
