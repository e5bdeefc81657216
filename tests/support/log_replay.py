"""A game replayed from its seed and accepted actions the way a restarted
server does it: as a room log through ``atelier.server.room.model.replay_log``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from atelier.games.core import JSON, Game
from atelier.server.room.events import Acted, Created, Joined, LogEvent, Started
from atelier.server.room.model import COLOURS, replay_log
from atelier.store import EventRow

S = TypeVar("S")


@dataclass(frozen=True)
class LoggedAction:
    seat: int
    action: Mapping[str, JSON]
    now: float


@dataclass
class Replay:
    """The room log of one game: created, a join per seat, started (without the
    first state, so the game is dealt again from ``seed``), then the actions."""

    settings: Mapping[str, JSON]
    seats: list[str]
    seed: int
    log: list[LoggedAction] = field(default_factory=list)

    def run(self, game: Game[S]) -> S:
        ids = [f"p{i}" for i in range(len(self.seats))]
        logged: list[LogEvent] = [
            Created(game=game.name, settings=dict(self.settings), seed=self.seed, language="en")]
        logged += [Joined(player=pid, name=name, colour=COLOURS[i % len(COLOURS)], token_hash="")
                   for i, (pid, name) in enumerate(zip(ids, self.seats, strict=True))]
        logged.append(Started(settings=dict(self.settings), seats=ids, computers={}))
        logged += [Acted(seat=entry.seat, action=dict(entry.action), now=entry.now)
                   for entry in self.log]
        events = [EventRow(seq, *event.as_event(), 0.0)
                  for seq, event in enumerate(logged, 1)]
        state: S = replay_log("REPLAY", game, events).state
        return state
