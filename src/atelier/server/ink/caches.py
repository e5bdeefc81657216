"""Everything the ink path works out once and keeps, for one room, in one place:
who may draw (``rights``), where each sender's batches go (``fans``), what each
connection has been sent (``seen``), and the rules' canvas report.

Each is kept until what it was worked out from changes: the rights until the
next logged event (they carry its number), the fans until someone comes, goes
or comes to see differently (``changed``). A connection that draws keeps its
own ``Drawer``, which holds what its batches need."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from atelier.games.actions import Action
from atelier.games.core import DrawingGame, Game
from atelier.ink.batches import BatchLog
from atelier.ink.guard import InkGuard
from atelier.ink.presence import InkPresence
from atelier.server.ink.bundles import Bundle
from atelier.server.ink.rights import InkRights
from atelier.server.room.model import RoomModel

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

    drawer: Drawer | None
    """What its own batches need, kept by the ink path."""


@dataclass(slots=True)
class Fan:
    """Where one drawing's batches from one sender go: made once, used for every
    batch until someone comes, goes or comes to see differently."""

    gather: list[list[bytes]]
    """Each bundling watcher's gathering list (``Watcher.gatherer``)."""
    single: list[Watcher]
    """Watchers that take a message per frame."""
    live: bool = True
    """False once the watchers changed (``InkCaches.changed``): a drawer holding
    it is made anew."""


@dataclass(slots=True, eq=False)
class Drawer:
    """What one connection's batches need, as of one logged event and one set of
    watchers: the drawing, the seat, the tools it may use, its canvas's guard,
    presence and batches (the room's own objects) and its fan. On the busiest
    path of the server one object holds what a batch needs, checked by three
    comparisons (the model, its event number, the fan still live): looking each
    up again in the room's rights, canvases and fans cost dictionaries and a
    tuple a batch and, with hundreds of connections, misses in the processor's
    caches (docs/performance.md)."""

    model: RoomModel
    """The room's model it was made for (a room loaded anew has another)."""
    seq: int
    """The logged event it was made at: the rights it holds are good until the next."""
    key: str
    seat: int
    tools: frozenset[str]
    guard: InkGuard
    presence: InkPresence
    fan: Fan
    batches: BatchLog | None = None  # the room's, once a batch is kept
    quiet: bool | None = None
    """A canvas state (blank or not) the rules had nothing to say about
    (``DrawingGame.canvas_action``): they answer from the state, which stays
    as it is until the next event, and then the drawer is made anew."""


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
        self._drop_fans()

    def forget(self, conn: Watcher) -> None:
        self.seen.pop(conn, None)
        self._drop_fans()

    def _drop_fans(self) -> None:
        for fan in self.fans.values():
            fan.live = False  # and so every drawer that holds it
        self.fans.clear()
