"""What the party games (everyone draws at once: Pictomania, Incognito) share
as games the server hosts: each is a subclass that declares its name, seats,
actions and settings and gives its engine's functions; everything they do
alike is here once.

Alike: the settings' defaults come from the settings model; the state keeps
the room's memory of what was dealt and each seat's running total; the game
is over in the phase ``"over"``; a seat that may draw has every ink tool
(both games' pens wipe clean) and none otherwise; the host may take a player
out mid-game (games/absent.py does it the same way for both).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from atelier.games.actions import Action, ActionSchema
from atelier.games.core import JSON
from atelier.games.settings import SettingsModel, defaults

ALL_TOOLS = frozenset({"pen", "eraser", "undo", "clear"})


class PartyState(Protocol):
    """What the shared part reads of a party game's state."""

    phase: str
    names: list[str]
    removed: list[bool]
    totals: list[int]
    memory: list[str]


S = TypeVar("S", bound=PartyState)


class PartyGame(ABC, Generic[S]):
    """A party game as the server hosts it (a ``DrawingGame`` and a
    ``DealingGame``, games/core.py); a subclass gives what differs."""

    name: str
    actions: ActionSchema
    min_seats: int
    max_seats: int
    settings_model: type[SettingsModel]
    quick_settings: Mapping[str, JSON]
    ends_part_types: frozenset[str]
    """Action types that end a seat's part of its phase (for a driver that plays
    the game to its end)."""
    seats_removable = True  # the host may take a player out mid-game (SYSTEM "remove")

    # -- what the subclass gives: its engine ------------------------------------------

    @abstractmethod
    def new_avoiding(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int,
                     dealt: Sequence[str]) -> S: ...

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action, now: float) -> S: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, JSON]: ...

    @abstractmethod
    def deadline(self, state: S) -> float | None: ...

    @abstractmethod
    def dump(self, state: S) -> dict[str, JSON]: ...

    @abstractmethod
    def load(self, data: Mapping[str, JSON]) -> S: ...

    @abstractmethod
    def validate_settings(self, settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]: ...

    @abstractmethod
    def public_settings(self, settings: Mapping[str, JSON]) -> dict[str, JSON]: ...

    @abstractmethod
    def drawing_key(self, state: S) -> str | None: ...

    @abstractmethod
    def may_draw(self, state: S, seat: int) -> bool: ...

    @abstractmethod
    def ink_visible(self, state: S, drawer: int, viewer: int | None) -> bool: ...

    @abstractmethod
    def canvas_action(self, state: S, seat: int, blank: bool) -> Action | None: ...

    @abstractmethod
    def drawing_keys(self, state: S) -> list[str]: ...

    # -- alike in every party game ----------------------------------------------------

    def default_settings(self) -> dict[str, JSON]:
        return defaults(self.settings_model)

    def new(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int) -> S:
        return self.new_avoiding(settings, seats, seed, ())

    def dealt(self, state: S) -> list[str]:
        return list(state.memory)

    def final_scores(self, state: S) -> list[int]:
        return [int(t) for t in state.totals]

    def is_over(self, state: S) -> bool:
        return state.phase == "over"

    def ink_tools(self, state: S, seat: int) -> frozenset[str]:
        return ALL_TOOLS if self.may_draw(state, seat) else frozenset()

    def ends_part(self, action: Action) -> bool:
        return action.type in self.ends_part_types
