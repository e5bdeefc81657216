"""What a room sends to this process's connections after a change: each its own
view and the ink it may newly see, and who is online (live ink goes out
through ``atelier.server.ink.relay``).

Functions of a ``LiveRoom``, with no waiting and no other process involved
(other processes hear of changes through the hub, in ``rooms``)."""

from __future__ import annotations

from atelier.server.ink.relay import sync_ink
from atelier.server.room import views
from atelier.server.room.live_room import CREATOR, LiveRoom


def push_states(room: LiveRoom) -> None:
    """Every connection its own view of the room (one message per player, spectators
    share one), then any ink it may newly see."""
    model = room.model
    online = room.online()
    spectators = sum(1 for c in room.conns if c.player_id is None)
    cache: dict[str | None, str] = {}
    for conn in room.conns:
        text = cache.get(conn.player_id)
        if text is None:
            text = views.state_message(model, conn.player_id, online, spectators)
            cache[conn.player_id] = text
        conn.send(text)
        sync_ink(room, conn)


def recount_online(room: LiveRoom) -> set[str] | None:
    """Recount the players connected here (and the unseated creator, as
    CREATOR); the new set if it changed, else None."""
    before = {pid for pid, n in room.local_online.items() if n > 0}
    counts: dict[str, int] = {}
    waiting = room.model.host_key_hash is not None
    for conn in room.conns:
        if conn.player_id is not None:
            counts[conn.player_id] = counts.get(conn.player_id, 0) + 1
        elif conn.creator and waiting:
            counts[CREATOR] = counts.get(CREATOR, 0) + 1
    room.local_online = counts
    after = set(counts)
    return None if after == before else after
