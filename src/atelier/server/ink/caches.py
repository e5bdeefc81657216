"""Everything the ink path works out once and keeps, for one room, in one place:
who may draw (``rights``), where each sender's batches go (``fans``), what each
connection has been sent (``seen``), and the rules' canvas report.

Each is kept until what it was worked out from changes: the rights until the
next logged event (they carry its number), the fans until someone comes, goes
or comes to see differently (``changed``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from atelier.games.actions import Action
from atelier.games.core import DrawingGame, Game
from atelier.server.ink.bundles import Bundle
from atelier.server.ink.rights import InkRights

CanvasAction = Callable[[Any, int, bool], Action | None]


class Watcher(Protocol):
    """A connection as the ink path sees it (``connection.Connection`` is one)."""

    @property
    def player_id(self) -> str | None: ...

    @property
    def bundle(self) -> Bundle | None:
        """Its ink waiting to go, for a connection that takes bundles."""
        ...

    def send(self, message: str | bytes) -> None: ...

    def relay(self, prefixed: bytes) -> None:
        """One ink frame after its u16 length, as bundles carry it."""
        ...

    def gatherer(self) -> list[bytes] | None:
        """The list its bundle gathers frames in, to add to without a timer
        (None: no bundles)."""
        ...


@dataclass(slots=True)
class Fan:
    """Where one drawing's batches from one sender go: made once, used for every
    batch until someone comes, goes or comes to see differently."""

    gather: list[list[bytes]]
    """Each bundling watcher's gathering list (``Watcher.gatherer``)."""
    single: list[Watcher]
    """Watchers that take a message per frame."""


@dataclass(slots=True, frozen=True)
class Seen:
    """The ink a connection has been sent: the drawing's key and the seats it sees."""

    key: str | None
    seats: frozenset[int]


NOTHING = Seen(None, frozenset())


@dataclass(eq=False)
class InkCaches:
    canvas_action: CanvasAction | None
    """The rules' ``canvas_action`` (a ``DrawingGame``'s), looked up once: it is
    asked after every batch that changes whether a canvas is blank."""
    rights: InkRights | None = None
    fans: dict[tuple[str, int, Watcher | None], Fan] = field(default_factory=dict)
    """(drawing key, seat, sender) -> where that sender's batches of that drawing go."""
    seen: dict[Watcher, Seen] = field(default_factory=dict)
    gathering: bool = False  # live ink waits in bundles for the room's flush

    @classmethod
    def of(cls, game: Game[Any]) -> InkCaches:
        return cls(game.canvas_action if isinstance(game, DrawingGame) else None)

    def changed(self) -> None:
        """Someone came, went or now sees differently: the fans are made anew."""
        self.fans.clear()

    def forget(self, conn: Watcher) -> None:
        self.seen.pop(conn, None)
        self.fans.clear()
