"""A game replayed from its seed and accepted actions the way a restarted
server does it: as a room log through ``atelier.server.model.replay_log``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from atelier.games.core import JSON, Game
from atelier.server.model import COLOURS, replay_log
from atelier.store import EventRow

S = TypeVar("S")


@dataclass(frozen=True)
class LoggedAction:
    seat: int
    action: dict[str, JSON]
    now: float


@dataclass
class Replay:
    """The room log of one game: created, a join per seat, started (without the
    first state, so the game is dealt again from ``seed``), then the actions."""

    settings: dict[str, JSON]
    seats: list[str]
    seed: int
    log: list[LoggedAction] = field(default_factory=list)

    def run(self, game: Game[S]) -> S:
        created = {"game": game.name, "settings": self.settings, "seed": self.seed,
                   "language": "en"}
        events = [EventRow(1, "created", created, 0.0)]
        ids = [f"p{i}" for i in range(len(self.seats))]
        for i, (pid, name) in enumerate(zip(ids, self.seats, strict=True)):
            joined = {"player": pid, "name": name, "colour": COLOURS[i % len(COLOURS)],
                      "token_hash": ""}
            events.append(EventRow(len(events) + 1, "joined", joined, 0.0))
        started = {"settings": self.settings, "seats": ids, "computers": {}}
        events.append(EventRow(len(events) + 1, "started", started, 0.0))
        for entry in self.log:
            data = {"seat": entry.seat, "action": entry.action, "now": entry.now}
            events.append(EventRow(len(events) + 1, "action", data, entry.now))
        state: S = replay_log("REPLAY", game, events).state
        return state
