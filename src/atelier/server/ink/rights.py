"""Who may draw now, and with what: the game's answer as of the last logged event.

The rules answer from the state, which changes only by logged events, so one
answer serves every batch until the next event rather than the game being asked
per batch (docs/performance.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from atelier.server.room.model import RoomModel
from atelier.server.room.views import drawing_game, drawing_key


@dataclass(slots=True)
class InkRights:
    """Who may draw with what, as of logged event ``seq``."""

    seq: int
    drawing: str | None  # the current drawing's key, in any phase (what watchers see)
    key: str | None  # the drawing ink goes to now; None: nobody draws
    seats: dict[str, int]  # player id -> seat
    tools: dict[int, frozenset[str] | None] = field(default_factory=dict)
    """seat -> the tools it may use now, None if it may not draw (filled as asked)."""


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
