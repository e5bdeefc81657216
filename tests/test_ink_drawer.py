"""A drawing connection keeps what its batches need in one object (its
``Drawer``: rights, canvas and fan), made anew when what it was worked out
from changes: a screen that comes mid-stroke gets the next batches live, one
that goes gets no more, and a room loaded anew is drawn into, not the old one."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import cast

from starlette.websockets import WebSocket

from atelier.bench.inkpath import sketch_room
from atelier.hub.base import LocalHub
from atelier.ink.synth import DEVICES, record
from atelier.server.ink.bundles import bundler
from atelier.server.ink.intake import InkIntake
from atelier.server.ink.relay import sync_ink
from atelier.server.room.connection import Connection
from atelier.server.room.live_room import LiveRoom
from atelier.store import open_store
from support.server import wait_until


class Screen:
    """A transport that keeps the ink it is sent."""

    def __init__(self) -> None:
        self.ink: list[bytes] = []

    def write_now(self, data: bytes | str) -> bool:
        if isinstance(data, bytes):
            self.ink.append(data)
        return True

    def take_ink(self, handler: Callable[[bytes], bool]) -> None:
        return None


async def _no_commit(room: LiveRoom, decide: object) -> None:
    raise AssertionError("the sketch game asks for no canvas reports")


async def _tick(intake: InkIntake[LiveRoom]) -> None:
    before = intake.ink_written
    bundler().flush()  # the tick: the write, then the bundles go
    await wait_until(lambda: intake.ink_written > before, what="the tick's write")


async def test_a_screen_that_comes_mid_drawing_gets_the_next_batches_and_one_that_goes_none(
        tmp_path: Path) -> None:
    store = await open_store(str(tmp_path / "ink.sqlite3"))
    intake: InkIntake[LiveRoom] = InkIntake(store, LocalHub(), _no_commit)  # type: ignore[arg-type]
    screens: list[Screen] = []

    def screen() -> Screen:
        screens.append(Screen())
        return screens[-1]

    room = sketch_room("ABCDEF", 3, screen)
    by_transport = {id(s): s for s in screens}
    conns = sorted((c for c in room.conns if isinstance(c, Connection)),
                   key=lambda c: c.player_id or "")
    mine = [by_transport[id(getattr(c._write_now, "__self__", None))] for c in conns]
    drawer_conn, _, leaver = conns
    batches = record(DEVICES[0], 30).batches
    intake.take(room, drawer_conn, batches[0])
    await _tick(intake)
    made = drawer_conn.drawer
    assert made is not None
    intake.take(room, drawer_conn, batches[1])
    assert drawer_conn.drawer is made  # nothing changed: the same one, not looked up again

    # a spectator's screen comes: it is sent the drawing so far, then what follows
    tv = Screen()
    late = Connection(cast(WebSocket, None), tv, bundles=True)
    room.conns.add(late)
    room.cache.changed()
    sync_ink(room, late)
    late.flush_ink()
    await _tick(intake)
    assert b"".join(tv.ink).count(batches[0]) == 1 and batches[1] in b"".join(tv.ink)
    # the leaver goes (presence.detach: the fans are made anew)
    room.conns.discard(leaver)
    room.cache.forget(leaver)
    gone_before = len(mine[2].ink)
    intake.take(room, drawer_conn, batches[2])
    assert drawer_conn.drawer is not made  # made anew for the new watchers
    await _tick(intake)
    assert batches[2] in b"".join(tv.ink), "the screen that came gets the batch live"
    assert batches[2] in b"".join(mine[1].ink)
    assert len(mine[2].ink) == gone_before, "the screen that went is sent no more"

    # the room loaded anew (another model, canvases of its own): drawn into there
    again = LiveRoom(copy.copy(room.model))
    again.conns.update(room.conns)
    kept = len(room.ink[made.key][made.seat])
    intake.take(again, drawer_conn, batches[0])  # a stroke begun: the new guard takes it
    now = drawer_conn.drawer
    assert now is not None and now.model is again.model
    assert list(again.ink[now.key][now.seat]) == [batches[0]]
    assert len(room.ink[made.key][made.seat]) == kept
    await store.close()
