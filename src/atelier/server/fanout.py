"""What a room sends to this process's connections: each its own view, the ink
it may newly see, every new batch, and who is online.

Functions of a ``LiveRoom``, with no waiting and no other process involved
(other processes hear of changes through the hub, in ``rooms``)."""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass

from atelier.server import views
from atelier.server.connection import Connection, bundler
from atelier.server.live_room import CREATOR, LiveRoom


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


def sync_ink(room: LiveRoom, conn: Connection, force: bool = False) -> None:
    """Send the ink a connection may newly see (all of it on a new key or on connect)."""
    model = room.model
    key = views.drawing_key(model)
    if key is None:
        if conn.ink_key is not None or conn.visible:
            room.fans.clear()
        conn.ink_key, conn.visible = None, frozenset()
        return
    visible = views.visible_drawers(model, model.seat_of(conn.player_id))
    fresh = force or key != conn.ink_key
    new = visible if fresh else visible - conn.visible
    if key != conn.ink_key or visible != conn.visible:
        room.fans.clear()
    conn.ink_key, conn.visible = key, visible
    if not (fresh or new):
        return
    conn.send(views.simple("ink_sync", key=key, seats=sorted(new)))
    drawings = room.ink.get(key, {})
    for seat in sorted(new):
        prefix = bytes([seat])
        for batch in drawings.get(seat, ()):
            conn.send(prefix + batch)


_HEAD = struct.Struct(">HB").pack


@dataclass(slots=True)
class Fan:
    """Where one drawing's batches from one sender go: made once, used for every
    batch until someone comes, goes or comes to see differently."""

    gather: list[Callable[[bytes], None]]
    """Each bundling watcher's gatherer (``Connection.gatherer``)."""
    single: list[Connection]
    """Watchers that take a message per frame."""


def _fan(room: LiveRoom, key: str, seat: int, sender: Connection | None) -> Fan:
    gather, single = [], []
    for conn in room.conns:
        if conn is sender or conn.ink_key != key or seat not in conn.visible:
            continue
        add = conn.gatherer()
        if add is None:
            single.append(conn)
        else:
            gather.append(add)
    return Fan(gather, single)


def relay_ink(room: LiveRoom, key: str, seat: int, data: bytes,
              sender: Connection | None) -> None:
    """One batch to every other connection that sees that drawing now: gathered
    into their bundles (flushed together on the shared timer) with one call
    each, this being the busiest loop of the server."""
    fan = room.fans.get((key, seat, sender))
    if fan is None:
        fan = room.fans[(key, seat, sender)] = _fan(room, key, seat, sender)
    prefixed = _HEAD(len(data) + 1, seat) + data  # bundles' length, then the frame
    for add in fan.gather:
        add(prefixed)
    for conn in fan.single:
        conn.relay(prefixed)
    if fan.gather and not room.gathering:
        room.gathering = True
        bundler().add_group(room.flush_ink)


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
