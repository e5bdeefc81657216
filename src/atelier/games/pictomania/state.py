"""The Pictomania game state and its JSON form.

The engine copies a state before changing it, so a state handed out is never
modified afterwards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from atelier.content.decks import Card
from atelier.games.core import RngState, rng_from_json, rng_to_json


@dataclass
class Seat:
    """One player's part of the current round."""

    letter: int | None  # index of their card on display; None in the kids variant
    number: int
    stack: list[tuple[int, int]] = field(default_factory=list)  # (guesser, number), in order
    finished: bool = False  # took a black token, declared done, or stopped at round end
    black: int | None = None
    locked: bool = False  # second edition: guessed, so the drawing is final
    drawn: bool = False  # pen ink shows on the canvas, as the server last reported
    void_admitted: bool = False
    void_votes: list[int] = field(default_factory=list)
    confirmed: bool = False
    out: bool = False  # the drawer was removed before this round: nothing to guess

    def clone(self) -> Seat:
        return replace(self, stack=list(self.stack), void_votes=list(self.void_votes))


@dataclass
class State:
    settings: dict[str, Any]
    names: list[str]
    rng: RngState
    phase: str
    round: int
    display: list[dict[str, Any]]  # cards: id, level, words
    used: list[str]  # ids of every card shown this game, never shown again
    ready: list[bool]
    swaps_used: list[int]
    player_tokens: list[int]
    black_table: list[int]
    black_left: list[int] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    started: float | None = None
    ended_by: str | None = None  # "finished", "last_token", "time", "host"
    history: list[dict[str, Any]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    # Every card this game may show, fixed when it starts: the built-in decks
    # may change between releases, and a game must replay the same after one.
    pool: tuple[Card, ...] = ()
    # The room's memory of cards its games dealt (ids): none is drawn again
    # until its level has no other card left; this game's draws join it.
    memory: list[str] = field(default_factory=list)
    # Per seat: removed by the host; plays no further part (see engine._remove).
    removed: list[bool] = field(default_factory=list)

    def is_removed(self, seat: int) -> bool:
        return 0 <= seat < len(self.removed) and self.removed[seat]

    @property
    def players(self) -> int:
        return len(self.names)

    def clone(self) -> State:
        """A copy the engine may change. Settings, cards, the generator state and
        past rounds are never changed in place, so they are shared."""
        return replace(
            self,
            display=list(self.display),
            used=list(self.used),
            memory=list(self.memory),
            removed=list(self.removed),
            ready=list(self.ready),
            swaps_used=list(self.swaps_used),
            player_tokens=list(self.player_tokens),
            black_table=list(self.black_table),
            black_left=list(self.black_left),
            seats=[s.clone() for s in self.seats],
            history=list(self.history),
            totals=list(self.totals),
        )


def dump(state: State) -> dict[str, Any]:
    # Through JSON: a deep copy (callers may change it freely) that is sure to be JSON.
    data: dict[str, Any] = json.loads(json.dumps({
        "settings": state.settings,
        "names": state.names,
        "rng": rng_to_json(state.rng),
        "phase": state.phase,
        "round": state.round,
        "display": state.display,
        "used": state.used,
        "ready": state.ready,
        "swaps_used": state.swaps_used,
        "player_tokens": state.player_tokens,
        "black_table": state.black_table,
        "black_left": state.black_left,
        "seats": [
            {
                "letter": s.letter,
                "number": s.number,
                "stack": [list(g) for g in s.stack],
                "finished": s.finished,
                "black": s.black,
                "locked": s.locked,
                "drawn": s.drawn,
                "void_admitted": s.void_admitted,
                "void_votes": s.void_votes,
                "confirmed": s.confirmed,
                "out": s.out,
            }
            for s in state.seats
        ],
        "started": state.started,
        "ended_by": state.ended_by,
        "history": state.history,
        "totals": state.totals,
        "pool": [[c.id, c.level, list(c.words)] for c in state.pool],
        "memory": state.memory,
        "removed": state.removed,
    }))
    return data


def load(data: dict[str, Any]) -> State:
    data = json.loads(json.dumps(data))
    return State(
        settings=dict(data["settings"]),
        names=list(data["names"]),
        rng=rng_from_json(data["rng"]),
        phase=data["phase"],
        round=data["round"],
        display=[dict(c) for c in data["display"]],
        used=list(data["used"]),
        ready=list(data["ready"]),
        swaps_used=list(data["swaps_used"]),
        player_tokens=list(data["player_tokens"]),
        black_table=list(data["black_table"]),
        black_left=list(data["black_left"]),
        seats=[
            Seat(
                letter=s["letter"],
                number=s["number"],
                stack=[(g[0], g[1]) for g in s["stack"]],
                finished=s["finished"],
                black=s["black"],
                locked=s["locked"],
                drawn=s.get("drawn", False),
                void_admitted=s["void_admitted"],
                void_votes=list(s["void_votes"]),
                confirmed=s["confirmed"],
                out=s.get("out", False),
            )
            for s in data["seats"]
        ],
        started=data["started"],
        ended_by=data["ended_by"],
        history=list(data["history"]),
        totals=list(data["totals"]),
        pool=tuple(Card(str(i), int(level), tuple(words)) for i, level, words in data["pool"]),
        memory=list(data.get("memory", [])),
        removed=list(data.get("removed") or [False] * len(data["names"])),
    )
