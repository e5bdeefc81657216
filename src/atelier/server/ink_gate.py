"""Whether an ink batch may go in: the game's rights now, then the drawing's guard
(format, bounds, tools, stroke budget: ``atelier.ink.guard``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from atelier.errors import RuleError
from atelier.ink.codec import MAX_BATCH_BYTES
from atelier.ink.guard import Checked, InkGuard
from atelier.server.model import RoomModel
from atelier.server.views import drawing_game, drawing_key


@dataclass(slots=True)
class InkRights:
    """Who may draw with what, as of logged event ``seq``: the rules answer from
    the state, which changes only by logged events, so one answer serves every
    batch until the next event (asking the game per batch was a tenth of the
    ink path at 100 rooms, docs/performance.md)."""

    seq: int
    key: str | None  # the drawing ink goes to now; None: nobody draws
    seats: dict[str, int]  # player id -> seat
    tools: dict[int, frozenset[str] | None] = field(default_factory=dict)
    """seat -> the tools it may use now, None if it may not draw (filled as asked)."""


def rights(room: RoomModel, cached: InkRights | None) -> InkRights:
    """``cached`` if it is still current, else the rights now."""
    if cached is not None and cached.seq == room.seq:
        return cached
    key = drawing_key(room) if room.phase == "playing" else None
    return InkRights(room.seq, key,
                     {p.id: p.seat for p in room.players if p.seat is not None})


def seat_tools(room: RoomModel, now: InkRights, seat: int) -> frozenset[str] | None:
    if seat in now.tools:
        return now.tools[seat]
    game = drawing_game(room)  # it has a drawing key
    tools = (frozenset(game.ink_tools(room.state, seat))
             if game.may_draw(room.state, seat) else None)
    now.tools[seat] = tools
    return tools


def check_batch(room: RoomModel, now: InkRights, player_id: str | None, data: bytes,
                guards: dict[tuple[str, int], InkGuard]) -> tuple[str, int, Checked]:
    """The drawing key the batch belongs to, the drawer's seat and the batch's
    summary, if accepted (the guard then counts it); RuleError (InkError for the
    ink itself) and no change if refused. ``now``: ``rights(room, ...)``."""
    key = now.key
    seat = None if player_id is None else now.seats.get(player_id)
    if key is None or seat is None:
        raise RuleError("cannot_draw")
    tools = seat_tools(room, now, seat)
    if tools is None:
        raise RuleError("cannot_draw")
    if len(data) > MAX_BATCH_BYTES:
        raise RuleError("message_too_large", max=MAX_BATCH_BYTES)
    guard = guards.get((key, seat))
    if guard is None:
        guard = guards[(key, seat)] = InkGuard()
    return key, seat, guard.check(data, tools)
