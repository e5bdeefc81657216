"""The room socket's compiled framing (src/atelier/server/wire/_frames.c) agrees
with the Python it replaces, on any bytes a client may send: the same payloads
and the same stop, whatever is cut where."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atelier.server.wire import wsframe

pytestmark = pytest.mark.skipif(not wsframe.COMPILED, reason="built without a C compiler")


def client_frame(payload: bytes, opcode: int = 2, final: bool = True, masked: bool = True,
                 key: bytes = b"\x01\x02\x03\x04", long_form: int = 0) -> bytes:
    n = len(payload)
    b0 = (0x80 if final else 0) | opcode
    if n < 126 and not long_form:
        head = bytes((b0, (0x80 if masked else 0) | n))
    elif n < 65536 and long_form != 127:
        head = bytes((b0, (0x80 if masked else 0) | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((b0, (0x80 if masked else 0) | 127)) + n.to_bytes(8, "big")
    if not masked:
        return head + payload
    return head + key + wsframe.unmask_py(key, payload)


frames = st.builds(
    client_frame,
    payload=st.binary(max_size=300),
    opcode=st.sampled_from([2, 2, 2, 1, 0, 8, 9, 10, 3]),
    final=st.booleans() | st.just(True),
    masked=st.just(True) | st.booleans(),
    key=st.binary(min_size=4, max_size=4),
    long_form=st.sampled_from([0, 0, 126, 127]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(frames, max_size=6), st.integers(0, 40), st.integers(0, 400),
       st.sampled_from([64 * 1024, 100, 0]))
def test_compiled_and_python_agree(parts: list[bytes], start: int, cut: int,
                                   max_message: int) -> None:
    whole = b"".join(parts)
    buf = bytearray(whole[: max(0, len(whole) - cut)])  # the last bytes not read yet
    start = min(start, len(buf))
    assert wsframe.binaries(buf, start, max_message) == wsframe.binaries_py(
        buf, start, max_message)


def test_a_batch_a_frame_comes_out_whole_and_unmasked() -> None:
    batches = [os.urandom(n) for n in (0, 5, 125, 126, 300, 65535, 70000)]
    buf = bytearray(b"".join(client_frame(b, key=os.urandom(4)) for b in batches))
    found, end = wsframe.binaries(buf, 0, 1 << 20)
    assert found == batches and end == len(buf)
    # a text frame stops it, for the general path; a frame not all here too
    buf = bytearray(client_frame(b"ab") + client_frame(b"hi", opcode=1) + client_frame(b"cd"))
    assert wsframe.binaries(buf, 0, 100) == ([b"ab"], 8)
    assert wsframe.binaries(bytearray(client_frame(b"abcdef")[:-1]), 0, 100) == ([], 0)


@given(st.binary(min_size=4, max_size=4), st.binary(max_size=200))
def test_unmask_agrees(key: bytes, data: bytes) -> None:
    assert wsframe.unmask(key, data) == wsframe.unmask_py(key, data)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([0, 1, 2, 8, 9, 10]),
       st.sampled_from([0, 1, 125, 126, 127, 65535, 65536, 70_000]), st.binary(max_size=64))
def test_the_compiled_server_frame_is_the_python_one(opcode: int, length: int,
                                                     seed: bytes) -> None:
    payload = (seed or b"\x00") * (length // max(1, len(seed)) + 1)
    payload = payload[:length]
    assert wsframe.frame(opcode, payload) == wsframe.frame_py(opcode, payload)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 255), st.binary(max_size=2000), st.integers(0, 7))
def test_the_compiled_spread_gives_every_watcher_the_python_entry(seat: int, batch: bytes,
                                                                  watchers: int) -> None:
    from atelier.server.ink import bundles

    assert bundles.spread is not bundles.spread_py
    ours: list[list[bytes]] = [[b"before"] for _ in range(watchers)]
    theirs: list[list[bytes]] = [[b"before"] for _ in range(watchers)]
    counted, counted_py = bundles.spread_totals(), bundles.spread_totals_py()
    entry = bundles.spread(seat, batch, ours)
    assert entry == bundles.spread_py(seat, batch, theirs)
    assert ours == theirs
    assert all(frames[-1] is entry for frames in ours)  # one entry for all, not a copy each
    # both count what they appended, for the metrics: a frame and its seat and batch each
    more = (watchers, watchers * (len(batch) + 1))
    assert bundles.spread_totals() == (counted[0] + more[0], counted[1] + more[1])
    assert bundles.spread_totals_py() == (counted_py[0] + more[0], counted_py[1] + more[1])


def test_the_compiled_spread_refuses_what_is_not_an_entry() -> None:
    from atelier.server.ink import bundles

    with pytest.raises(ValueError):
        bundles.spread(256, b"x", [])
    with pytest.raises(ValueError):
        bundles.spread(1, bytes(65535), [])
    with pytest.raises(TypeError):
        bundles.spread(1, b"x", [b"not a list"])  # type: ignore[list-item]
