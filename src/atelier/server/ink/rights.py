"""Who may draw now, and with what: the game's answer as of the last logged event.

The rules answer from the state, which changes only by logged events, so one
answer serves every batch until the next event rather than the game being asked
per batch (docs/performance.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from atelier.ink.batches import BatchLog
from atelier.ink.guard import InkGuard
from atelier.ink.presence import InkPresence
from atelier.server.room.model import RoomModel
from atelier.server.room.views import drawing_game, drawing_key


@dataclass(slots=True)
class Drawer:
    """What one player's batches need until the next event: the drawing, their
    seat, the tools they may use, and their canvas's guard, presence and batches
    (the room's own objects, looked up once rather than per batch)."""

    key: str
    seat: int
    tools: frozenset[str]
    guard: InkGuard
    presence: InkPresence
    batches: BatchLog | None = None  # the room's, once a batch is kept
    quiet: bool | None = None
    """A canvas state (blank or not) the rules had nothing to say about
    (``DrawingGame.canvas_action``): they answer from the state, which stays
    as it is until the next event, and then the drawer is made anew."""


@dataclass(slots=True)
class InkRights:
    """Who may draw with what, as of logged event ``seq``."""

    seq: int
    drawing: str | None  # the current drawing's key, in any phase (what watchers see)
    key: str | None  # the drawing ink goes to now; None: nobody draws
    seats: dict[str, int]  # player id -> seat
    tools: dict[int, frozenset[str] | None] = field(default_factory=dict)
    """seat -> the tools it may use now, None if it may not draw (filled as asked)."""
    drawers: dict[str, Drawer] = field(default_factory=dict)
    """player id -> their Drawer (filled as they draw)."""


def rights(room: RoomModel, cached: InkRights | None) -> InkRights:
    """``cached`` if it is still current, else the rights now."""
    if cached is not None and cached.seq == room.seq:
        return cached
    drawing = drawing_key(room)
    return InkRights(room.seq, drawing, drawing if room.phase == "playing" else None,
                     {p.id: p.seat for p in room.players if p.seat is not None})


def seat_tools(room: RoomModel, now: InkRights, seat: int) -> frozenset[str] | None:
    """The tools ``seat`` may draw with as of ``now``, None if it may not draw."""
    if seat in now.tools:
        return now.tools[seat]
    game = drawing_game(room)  # it has a drawing key
    tools = (frozenset(game.ink_tools(room.state, seat))
             if game.may_draw(room.state, seat) else None)
    now.tools[seat] = tools
    return tools
