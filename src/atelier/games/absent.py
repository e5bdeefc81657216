"""Going on without absent players, the same way in every game where everyone
plays at once (Pictomania, Incognito).

Each phase of such a game waits for every player (to be ready, to finish a
drawing, to vote, to confirm the scores). When only absent players hold it
up, the host may go on without them (``skip``); and the host may take a
player out for good (``remove``): the seat stays, with its drawing and its
guesses or votes so far, and counts as done in this and every later phase.
The server sends both as SYSTEM actions (games/actions.py ``Skip``,
``Remove``).

A game says only what differs, in a :class:`Waits`: whom its current phase
waits for, what "done" means there for one seat, and how the phase ends once
nobody is left to wait for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from atelier.errors import require

MIN_LEFT = 2
"""Players who must stay in a game: a drawing game needs someone to guess."""


class SeatedState(Protocol):
    """What these rules read of any drawing game's state."""

    names: list[str]
    removed: list[bool]

    @property
    def players(self) -> int: ...


S = TypeVar("S", bound=SeatedState)


@dataclass(frozen=True)
class Waits(Generic[S]):
    """One game's answer to "who holds the table up, and what then"."""

    waiting_for: Callable[[S], list[int]]
    """The seats the current phase still waits for (empty outside the phases that wait)."""
    treat_as_done: Callable[[S, int], None]
    """Marks one seat done with the current phase, by the rule for a player who
    does nothing more (a drawing stays as it is, the scores are taken as read)."""
    move_on: Callable[[S, float], None]
    """Ends the current phase if nobody is left to wait for (or does what the
    rules say happens when few are left, such as starting a countdown)."""


def skip(state: S, seats: Sequence[int], waits: Waits[S], now: float) -> None:
    """Go on without ``seats``: allowed only when they are all the phase still
    waits for, so the phase ends at once."""
    require(len(seats) > 0 and len(set(seats)) == len(seats)
            and all(0 <= p < state.players for p in seats), "bad_action")
    others = [p for p in waits.waiting_for(state) if p not in seats]
    require(not others, "still_waiting", names=", ".join(state.names[p] for p in others))
    for p in seats:
        waits.treat_as_done(state, p)
    waits.move_on(state, now)


def remove(state: S, target: int, waits: Waits[S], now: float) -> None:
    """Take ``target`` out of the game: it plays no further part, and at least
    :data:`MIN_LEFT` players stay."""
    require(0 <= target < state.players, "bad_target")
    require(not state.removed[target], "player_removed", name=state.names[target])
    require(state.removed.count(False) > MIN_LEFT, "too_few_left", min=MIN_LEFT)
    state.removed[target] = True
    waits.treat_as_done(state, target)
    waits.move_on(state, now)
