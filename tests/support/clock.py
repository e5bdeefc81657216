"""Days passing for a correspondence game, without waiting days: the test moves
the current turn's start back in the room's log (and its wake-up time with
it), as if the move that began the turn had been made ``seconds`` earlier. The
server then finds the turn due from the store, as it would after real days."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from atelier.store import Store
from support.log import _read


async def _age(store: Store, code: str, seconds: float) -> float:
    events, rooms = store.events, store.rooms
    rows = await store.load_events(code)
    turn = next(r for r in reversed(rows) if r.kind == "started" or (
        r.kind == "action" and r.data["action"].get("type") == "move"))
    data = dict(turn.data)
    if turn.kind == "started":
        initial = dict(data["initial"])
        initial["turn_started"] = float(initial["turn_started"]) - seconds
        data["initial"] = initial
        started = initial["turn_started"]
    else:
        data["now"] = float(data["now"]) - seconds
        started = data["now"]
    async with store.engine.begin() as conn:
        await conn.execute(update(events).where(events.c.room == code, events.c.seq == turn.seq)
                           .values(data=json.dumps(data)))
        wake = (await conn.execute(select(rooms.c.wake).where(rooms.c.code == code))).scalar()
        if wake is not None:
            await conn.execute(update(rooms).where(rooms.c.code == code)
                               .values(wake=float(wake) - seconds))
    return float(started)


def age_turn(db: str, code: str, seconds: float) -> float:
    """Move the current turn's start ``seconds`` back; the new start (epoch seconds)."""
    return _read(db, lambda store: _age(store, code, seconds))
