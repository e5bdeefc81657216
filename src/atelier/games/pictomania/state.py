"""The Pictomania game state and its JSON form.

The engine copies a state before changing it, so a state handed out is never
modified afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated

from atelier.content.decks import Card
from atelier.games.codec import SavedRng, StateCodec, saved_as
from atelier.games.core import JSON

SavedCard = Annotated[Card, *saved_as(
    lambda card: [card.id, card.level, list(card.words)],
    lambda data: Card(str(data[0]), int(data[1]), tuple(data[2])))]
"""A card in a save: ``[id, level, words]`` (its theme is not needed to play)."""


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
    settings: dict[str, JSON]
    names: list[str]
    rng: SavedRng
    phase: str
    round: int
    display: list[dict[str, JSON]]  # cards: id, level, words
    used: list[str]  # ids of every card shown this game, never shown again
    ready: list[bool]
    swaps_used: list[int]
    player_tokens: list[int]
    black_table: list[int]
    black_left: list[int] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    started: float | None = None
    ended_by: str | None = None  # "finished", "last_token", "time", "host"
    history: list[dict[str, JSON]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    # Every card this game may show, fixed when it starts: the built-in decks
    # may change between releases, and a game must replay the same after one.
    pool: tuple[SavedCard, ...] = ()
    # The room's memory of cards its games dealt (ids): none is drawn again
    # until its level has no other card left; this game's draws join it.
    memory: list[str] = field(default_factory=list)
    # Per seat: removed by the host; plays no further part (see engine._remove).
    removed: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.removed:  # a save from before seats could be removed
            self.removed = [False] * len(self.names)

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


CODEC = StateCodec(State)
"""The state's JSON form, from the field types above (games/codec.py)."""


def dump(state: State) -> dict[str, JSON]:
    return CODEC.dump(state)


def load(data: Mapping[str, JSON]) -> State:
    return CODEC.load(data)
