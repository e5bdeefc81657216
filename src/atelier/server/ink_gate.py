"""Whether an ink batch may go in: the game's rights now, then the drawing's guard
(format, bounds, tools, stroke budget: ``atelier.ink.guard``)."""

from __future__ import annotations

from atelier.errors import require
from atelier.ink.codec import MAX_BATCH_BYTES, InkBatch
from atelier.ink.guard import InkGuard
from atelier.server.model import RoomModel
from atelier.server.views import drawing_game, drawing_key


def check_batch(
    room: RoomModel, seat: int | None, data: bytes, guards: dict[tuple[str, int], InkGuard]
) -> tuple[str, InkBatch]:
    """The drawing key the batch belongs to and the batch decoded, if accepted
    (the guard then counts it); RuleError (InkError for the ink itself) and no
    change if refused."""
    require(seat is not None and room.phase == "playing", "cannot_draw")
    key = drawing_key(room)
    require(key is not None, "cannot_draw")
    assert key is not None and seat is not None
    game = drawing_game(room)  # it has a drawing key
    require(bool(game.may_draw(room.state, seat)), "cannot_draw")
    require(len(data) <= MAX_BATCH_BYTES, "message_too_large", max=MAX_BATCH_BYTES)
    guard = guards.get((key, seat))
    if guard is None:
        guard = guards[(key, seat)] = InkGuard()
    batch = guard.check(data, frozenset(game.ink_tools(room.state, seat)))
    return key, batch
