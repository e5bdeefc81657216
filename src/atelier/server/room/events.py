"""The room log's events, one model per kind.

Every change to a room is logged as ``(kind, data)``: ``data`` is the JSON
object the store keeps, and old logs must replay as they were written, so each
model's fields are exactly the keys that kind has ever had (a key an older
release did not write is optional). A ``decide_*`` function builds the model
and logs :meth:`LogEvent.as_event`; :meth:`RoomModel.apply_event` reads the
logged data back through :func:`parse` and matches on the model.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from atelier.games.core import JSON

Event = tuple[str, dict[str, JSON]]
"""An event as logged and published: its kind and its data."""

Seconds = int | float
"""A clock reading; an int stays an int, so the data dumps as it was given."""


By = Literal["self", "host"]
"""Who took a player out: they left, or the host removed them."""


class LogEvent(BaseModel):
    # Extra keys are kept rather than refused: a log written by a later release
    # still loads, and nothing logged is dropped when it is passed on.
    model_config = ConfigDict(frozen=True, extra="allow")
    kind: ClassVar[str]

    def as_event(self) -> Event:
        """``(kind, data)`` with only the keys that were given: the stored shape."""
        return self.kind, self.model_dump(exclude_unset=True)


class Created(LogEvent):
    """A room's first event: the game, its settings and seed."""

    kind: ClassVar[str] = "created"
    game: str | None = None  # the store also keeps it beside the log, as the room's game
    settings: dict[str, JSON]
    seed: int
    language: str
    host_key_hash: str | None = None


class Joined(LogEvent):
    kind: ClassVar[str] = "joined"
    player: str
    name: str
    colour: str
    token_hash: str
    # True: joined with the host key. False: the creator was in the room, about
    # to sit down, so this player is not host. Absent: host if the room has none.
    host: bool | None = None


class Left(LogEvent):
    kind: ClassVar[str] = "left"
    player: str
    by: By | None = None


class Renamed(LogEvent):
    kind: ClassVar[str] = "renamed"
    player: str
    name: str


class HostChanged(LogEvent):
    kind: ClassVar[str] = "host"
    player: str


class SettingsChanged(LogEvent):
    kind: ClassVar[str] = "settings"
    settings: dict[str, JSON]


class Started(LogEvent):
    kind: ClassVar[str] = "started"
    settings: dict[str, JSON]
    seats: list[str]
    computers: dict[str, str]
    # The first state itself; absent in logs written before it was kept.
    initial: dict[str, JSON] | None = None


class Acted(LogEvent):
    kind: ClassVar[str] = "action"
    seat: int
    action: dict[str, JSON]
    now: Seconds
    # Where a guess lands on the drawing's replay (server/marks.py).
    mark: dict[str, JSON] | None = None


class Removed(LogEvent):
    """A player taken out of a running game; the seat stays."""

    kind: ClassVar[str] = "removed"
    player: str
    seat: int
    now: Seconds
    by: By | None = None


class Again(LogEvent):
    """Back to the lobby after game over, with the room's memory of what was dealt."""

    kind: ClassVar[str] = "again"
    dealt: list[str]


class Agreed(LogEvent):
    """A player in the lobby agrees to one of the game's agreements, or takes it back."""

    kind: ClassVar[str] = "agreed"
    player: str
    name: str
    on: bool


class TransferOffered(LogEvent):
    """A player asked to move their seat to another device: the one-time
    transfer token's hash (a new offer replaces an unused one)."""

    kind: ClassVar[str] = "transfer"
    player: str
    transfer_hash: str


class SeatMoved(LogEvent):
    """The transfer token was used: the seat's token is now the new device's;
    the old one, and the transfer token, no longer work."""

    kind: ClassVar[str] = "moved"
    player: str
    token_hash: str


KINDS: dict[str, type[LogEvent]] = {
    model.kind: model
    for model in (Created, Joined, Left, Renamed, HostChanged, SettingsChanged, Started,
                  Acted, Removed, Again, Agreed, TransferOffered, SeatMoved)
}


def parse(kind: str, data: dict[str, JSON]) -> LogEvent | None:
    """The logged event as its model; None for a kind this release does not know."""
    model = KINDS.get(kind)
    return None if model is None else model.model_validate(data)
