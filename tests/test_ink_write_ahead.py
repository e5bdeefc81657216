"""No ink reaches another screen before it is in the store's write: a server
killed at any moment comes back with every stroke anyone saw (docs/performance.md,
"What anyone saw survives"; the kill itself: tests/test_bench_crash.py).

Here the store's write is held back on purpose, and nothing may be relayed until
it is let go; what is sent after the ink still comes after it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from atelier.bench.inkpath import sketch_room
from atelier.hub.base import LocalHub
from atelier.ink.synth import DEVICES, record
from atelier.server.ink.bundles import BUNDLE_SECONDS, Bundler, bundler
from atelier.server.ink.intake import InkIntake
from atelier.server.room.connection import Connection
from atelier.server.room.live_room import LiveRoom
from atelier.store import InkRow, Store, open_store
from support.server import wait_until


class Screen:
    """A transport that keeps what it is sent, and how many batches the store had
    written when each message went out."""

    def __init__(self, intake: Callable[[], InkIntake[LiveRoom]]) -> None:
        self.intake = intake
        self.got: list[tuple[bytes | str, int]] = []

    def write_now(self, data: bytes | str) -> bool:
        self.got.append((data, self.intake().ink_written))
        return True

    def take_ink(self, handler: Callable[[bytes], bool]) -> None:
        return None

    def ink(self) -> list[bytes]:
        return [data for data, _ in self.got if isinstance(data, bytes)]


class HeldStore:
    """The real store, whose ink write waits until ``go`` is set (or fails)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.go = asyncio.Event()
        self.fail = False
        self.writes = 0

    async def append_ink(self, rows: Sequence[tuple[str, InkRow]]) -> None:
        self.writes += 1
        await self.go.wait()
        if self.fail:
            raise OSError("the disk is gone")
        await self.store.append_ink(rows)


async def _setup(tmp_path: Path) -> tuple[InkIntake[LiveRoom], HeldStore, LiveRoom,
                                          list[Screen], list[Connection]]:
    store = await open_store(str(tmp_path / "ink.sqlite3"))
    held = HeldStore(store)
    intake: InkIntake[LiveRoom] = InkIntake(held, LocalHub(), _no_commit)  # type: ignore[arg-type]
    screens: list[Screen] = []

    def screen() -> Screen:
        screens.append(Screen(lambda: intake))
        return screens[-1]

    room = sketch_room("ABCDEF", 3, screen)
    conns = [c for c in room.conns if isinstance(c, Connection)]
    by_id = {id(s): s for s in screens}
    mine = [by_id[id(getattr(c._write_now, "__self__", None))] for c in conns]
    for s in screens:
        s.got.clear()  # the states of the start
    return intake, held, room, mine, conns


async def _no_commit(room: LiveRoom, decide: object) -> None:
    raise AssertionError("the sketch game asks for no canvas reports")


async def test_no_batch_is_relayed_before_its_write_and_what_follows_waits_behind(
        tmp_path: Path) -> None:
    intake, held, room, screens, conns = await _setup(tmp_path)
    batches = record(DEVICES[0], 30).batches
    for data in batches[:5]:
        intake.take(room, conns[0], data)
    bundler().flush()  # the tick: its write starts, and waits
    await wait_until(lambda: held.writes >= 1, what="the tick's write")
    conns[1].send('{"t": "later"}')  # a message after the ink
    for _ in range(20):
        await asyncio.sleep(0)
    assert all(s.got == [] for s in screens), "ink or what follows it went out unwritten"
    held.go.set()
    await wait_until(lambda: bool(screens[1].ink() and screens[2].ink()), what="the relay")
    for screen in screens[1:]:
        first, written = screen.got[0]
        assert written >= 5, "the ink went out before the store had it"
        assert isinstance(first, bytes) and all(b in first for b in batches[:5])
    assert [d for d, _ in screens[1].got][-1] == '{"t": "later"}'  # after the ink
    assert screens[0].got == []  # the drawer is not sent their own ink
    stored = await held.store.load_ink("ABCDEF")
    assert [r.data for r in stored] == batches[:5]
    await held.store.close()


async def test_ink_taken_during_a_write_waits_for_the_next_one(tmp_path: Path) -> None:
    intake, held, room, screens, conns = await _setup(tmp_path)
    batches = record(DEVICES[1], 30).batches
    intake.take(room, conns[0], batches[0])
    bundler().flush()
    await wait_until(lambda: held.writes >= 1, what="the first write")
    intake.take(room, conns[0], batches[1])  # while the first write is under way
    conns[1].relay(len(batches[1]).to_bytes(2, "big") + b"\x00" + batches[1])
    held.go.set()
    await wait_until(lambda: len(screens[1].ink()) >= 2, what="both")
    first, second = screens[1].got[0], screens[1].got[1]
    assert batches[0] in first[0] and first[1] >= 1
    assert batches[1] in second[0] and second[1] >= 2, "sent before its own write"
    await held.store.close()


async def test_a_failed_write_keeps_the_ink_pending_and_the_room_drawing(
        tmp_path: Path) -> None:
    """A store outage does not stop the drawing: the write is retried, and what
    waited for it goes out (logged as a store error)."""
    intake, held, room, screens, conns = await _setup(tmp_path)
    data = record(DEVICES[2], 30).batches[0]
    held.fail = True
    held.go.set()
    intake.take(room, conns[0], data)
    bundler().flush()
    await wait_until(lambda: bool(screens[1].ink()), what="the relay after the failed write")
    assert [row.data for _, row in intake.pending_ink] == [data]  # to be written again
    held.fail = False
    assert await intake.flush()
    assert [r.data for r in await held.store.load_ink("ABCDEF")] == [data]
    await held.store.close()


def test_ink_after_a_quiet_spell_goes_with_the_next_turn_and_ticks_keep_their_pace() -> None:
    """A stroke in a quiet room is written and shown at once; a busy server still
    ticks at most every ``BUNDLE_SECONDS`` (each tick is a write and a send)."""
    ticks = Bundler()
    ticks.last = 100.0
    assert ticks.wait(100.0 + 5 * BUNDLE_SECONDS) == 0.0  # quiet: no wait
    assert ticks.wait(100.0 + BUNDLE_SECONDS) == 0.0
    assert ticks.wait(100.0 + BUNDLE_SECONDS / 4) == pytest.approx(BUNDLE_SECONDS * 3 / 4)  # busy
    assert ticks.wait(100.0) == pytest.approx(BUNDLE_SECONDS)


async def test_a_lone_batch_is_relayed_without_waiting_for_a_bundle(tmp_path: Path) -> None:
    intake, held, room, screens, conns = await _setup(tmp_path)
    held.go.set()
    batch = record(DEVICES[2], 30).batches[0]
    intake.take(room, conns[0], batch)
    timer = bundler().timer
    assert timer is not None and timer.when() <= asyncio.get_running_loop().time()
    await wait_until(lambda: bool(screens[1].ink()), what="the relay")
    assert batch in screens[1].ink()[0] and screens[1].got[0][1] >= 1  # written first
    await held.store.close()
