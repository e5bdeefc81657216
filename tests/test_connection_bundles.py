"""A connection's ink bundles: what is gathered for it goes out whole, in order,
and no bundle is larger than BUNDLE_MAX_BYTES (docs/protocol.md)."""

from __future__ import annotations

import asyncio

from atelier.server.ink.bundles import BUNDLE_MAX_BYTES
from atelier.server.room.connection import Connection


def queued_bundles(conn: Connection) -> list[bytes]:
    """What the connection has queued to send, all bytes (test_ink_js uses it too)."""
    out = []
    while conn.queue:
        item = conn.queue.popleft()
        assert isinstance(item, bytes)
        out.append(item)
    return out


def _entries(bundle: bytes) -> list[bytes]:
    found, i = [], 0
    while i < len(bundle):
        size = int.from_bytes(bundle[i : i + 2], "big")
        found.append(bundle[i + 2 : i + 2 + size])
        i += 2 + size
    assert i == len(bundle)
    return found


def test_gathered_live_ink_larger_than_a_bundle_goes_as_several_in_order() -> None:
    async def run() -> None:
        conn = Connection(None, bundles=True)  # type: ignore[arg-type]
        gathering = conn.gatherer()
        assert gathering is not None
        add = gathering.append
        frames = [bytes([k % 6]) + bytes([k % 251]) * 1500 for k in range(60)]  # ~90 KiB
        for frame in frames:
            add(len(frame).to_bytes(2, "big") + frame)
        conn.flush_ink()
        bundles = queued_bundles(conn)
        assert len(bundles) >= 3
        assert all(len(b) <= BUNDLE_MAX_BYTES for b in bundles)
        assert [e for b in bundles for e in _entries(b)] == frames
        conn.flush_ink()  # nothing left: nothing more sent
        assert queued_bundles(conn) == []
        add(b"\x00\x02\x01\x02")  # the gatherer still adds to the same bundle after a flush
        conn.flush_ink()
        assert queued_bundles(conn) == [b"\x00\x02\x01\x02"]

    asyncio.run(run())


def test_a_connection_without_bundles_has_no_gatherer() -> None:
    async def run() -> None:
        conn = Connection(None)  # type: ignore[arg-type]
        assert conn.gatherer() is None
        conn.relay(b"\x00\x02\x01\x02")
        assert queued_bundles(conn) == [b"\x01\x02"]  # a message per frame, without the length

    asyncio.run(run())
