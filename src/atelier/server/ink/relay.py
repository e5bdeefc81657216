"""Ink out: the ink a connection may newly see after a change, and every new
batch to the connections that see its drawing now."""

from __future__ import annotations

from functools import partial

from atelier.metrics import INK
from atelier.server.ink.bundles import bundler, spread
from atelier.server.ink.caches import NOTHING, Fan, Seen
from atelier.server.ink.rights import rights
from atelier.server.ink.room import InkRoom, Watcher
from atelier.server.room import views


def sync_ink(room: InkRoom, conn: Watcher) -> None:
    """Send the ink a connection may newly see (all of it on a new key or on connect)."""
    model, cache = room.model, room.cache
    before = cache.seen.get(conn, NOTHING)
    now = cache.rights = rights(model, cache.rights)
    key = now.drawing
    if key is None:
        if before is not NOTHING:
            cache.changed()
            cache.seen[conn] = NOTHING
        return
    visible = views.visible_drawers(model, model.seat_of(conn.player_id))
    fresh = key != before.key
    new = visible if fresh else visible - before.seats
    if key != before.key or visible != before.seats:
        cache.changed()
        cache.seen[conn] = Seen(key, visible)
    if not (fresh or new):
        return
    conn.send(views.simple("ink_sync", key=key, seats=sorted(new)))
    drawings = room.ink.get(key, {})
    tally = INK
    for seat in sorted(new):
        prefix = bytes([seat])
        for batch in drawings.get(seat, ()):
            conn.send(prefix + batch)
            tally.frames_out += 1
            tally.bytes_out += 1 + len(batch)


def fan_of(room: InkRoom, key: str, seat: int, sender: Watcher | None) -> Fan:
    """Where ``sender``'s batches of that drawing go now (kept until the watchers change)."""
    cache = room.cache
    fan = cache.fans.get((key, seat, sender))
    if fan is None:
        fan = cache.fans[(key, seat, sender)] = _fan(room, key, seat, sender)
    return fan


def _fan(room: InkRoom, key: str, seat: int, sender: Watcher | None) -> Fan:
    gather, single = [], []
    seen = room.cache.seen
    for conn in room.conns:
        sees = seen.get(conn, NOTHING)
        if conn is sender or sees.key != key or seat not in sees.seats:
            continue
        frames = conn.gatherer()
        if frames is None:
            single.append(conn)
        else:
            gather.append(frames)
    return Fan(gather, single)


def relay_ink(room: InkRoom, key: str, seat: int, data: bytes,
              sender: Watcher | None) -> None:
    """One batch to every other connection that sees that drawing now: gathered
    into their bundles (flushed together on the shared timer) by one call for
    all of them. A player's own batches take the same steps written out in
    ``InkIntake.take``, with the fan their Drawer holds."""
    fan = fan_of(room, key, seat, sender)
    prefixed = spread(seat, data, fan.gather)  # counts them for the metrics, in C
    if fan.single:
        relay_single(fan.single, prefixed)
    if fan.gather and not room.cache.gathering:
        gather(room)


def relay_single(single: list[Watcher], prefixed: bytes) -> None:
    """To connections that take a message a frame: rare (clients ask for bundles)."""
    for conn in single:
        conn.relay(prefixed)
    tally = INK
    tally.frames_out += len(single)
    tally.bytes_out += len(single) * (len(prefixed) - 2)


def gather(room: InkRoom) -> None:
    """The room's live ink waits in its connections' bundles for the tick."""
    room.cache.gathering = True
    bundler().add_group(partial(_flush, room))


def _flush(room: InkRoom) -> None:
    """Every connection of the room: the ink gathered for it into the bundle tick
    (which sends it once it is stored, and times the wait: INK_RELAY_DELAY)."""
    room.cache.gathering = False
    for conn in room.conns:
        bundle = conn.bundle
        if bundle is not None:
            bundle.flush(True)
