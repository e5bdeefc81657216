"""The guard the server keeps per canvas: a batch must fit the drawing so far."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atelier.ink.codec import (
    CANVAS_SIZE,
    MARGIN,
    MAX_POINTS_PER_STROKE,
    MAX_STROKES_PER_DRAWING,
    MAX_TIME_MS,
    Begin,
    Clear,
    End,
    InkError,
    Op,
    Points,
    Undo,
    encode_batch,
)
from atelier.ink.codec.encode import write_op
from atelier.ink.guard import COMPILED, InkGuard, restore
from atelier.ink.synth import DEVICES, record

PEN = frozenset({"pen"})
ALL = frozenset({"pen", "eraser", "undo", "clear"})


def _refused(guard: InkGuard, data: bytes, allowed: frozenset[str] | None = None) -> str:
    before = (guard.open, guard.x, guard.y, guard.t, guard.count, guard.strokes)
    with pytest.raises(InkError) as err:
        guard.check(data, allowed)
    assert (guard.open, guard.x, guard.y, guard.t, guard.count, guard.strokes) == before
    return err.value.code


def test_a_whole_realistic_drawing_passes() -> None:
    for device in DEVICES:
        rec = record(device, 30)
        guard = InkGuard()
        for data in rec.batches:
            guard.check(data, PEN)
        assert guard.strokes == 30 and not guard.open


def test_points_need_an_open_stroke_from_an_earlier_batch() -> None:
    guard = InkGuard()
    more = encode_batch([Points((5, 5, 8, 0))])
    assert _refused(guard, more) == "ink_no_stroke"
    guard.check(encode_batch([Begin("pen", 20, 10, 10, 0)]))
    guard.check(more)
    assert (guard.x, guard.y, guard.count) == (15, 15, 2)
    assert _refused(guard, encode_batch([Begin("pen", 20, 10, 10, 9)])) == "ink_stroke_open"
    guard.check(encode_batch([End()]))
    assert _refused(guard, encode_batch([End()])) == "ink_no_stroke"


def test_a_stroke_continued_off_the_canvas_is_refused() -> None:
    guard = InkGuard()
    guard.check(encode_batch([Begin("pen", 20, CANVAS_SIZE - 1, 10, 0)]))
    guard.check(encode_batch([Points((MARGIN, 0, 8, 0))]))  # within the margin
    assert _refused(guard, encode_batch([Points((1, 0, 8, 0))])) == "ink_out_of_bounds"


def test_point_and_stroke_limits_count_across_batches() -> None:
    guard = InkGuard()
    guard.check(encode_batch([Begin("pen", 20, 10, 10, 0)]))
    half = (MAX_POINTS_PER_STROKE - 1) // 2
    step = encode_batch([Points((0, 1, 1, 0, 0, -1, 1, 0) * (half // 2))])
    guard.check(step)
    guard.check(step)
    assert _refused(guard, step) == "ink_too_many_points"

    guard = InkGuard()
    guard.strokes = MAX_STROKES_PER_DRAWING - 1
    guard.check(encode_batch([Begin("pen", 20, 10, 10, 0), End()]))
    code = _refused(guard, encode_batch([Begin("pen", 20, 10, 10, 0), End()]))
    assert code == "ink_too_many_strokes"
    guard.check(encode_batch([Undo(5)]))  # undo gives no stroke back: begin/undo is no loophole
    assert _refused(guard, encode_batch([Begin("pen", 20, 1, 1, 9)])) == "ink_too_many_strokes"


@pytest.mark.parametrize(
    ("ops", "code"),
    [
        ([Begin("eraser", 90, 10, 10, 0)], "ink_no_eraser"),
        ([Undo(3)], "ink_no_undo"),
        ([Clear(3)], "ink_no_clear"),
    ],
)
def test_tools_the_game_does_not_allow_are_refused(ops: list[Op], code: str) -> None:
    guard = InkGuard()
    assert _refused(guard, encode_batch(ops), PEN) == code
    guard.check(encode_batch(ops), ALL)


def test_pressure_must_match_the_stroke() -> None:
    guard = InkGuard()
    guard.check(encode_batch([Begin("pen", 20, 10, 10, 0, 30)]))
    assert _refused(guard, encode_batch([Points((1, 1, 1, 0))])) == "ink_malformed"
    guard.check(encode_batch([Points((1, 1, 1, 3), True), End()]))


def test_the_guard_is_rebuilt_from_stored_batches() -> None:
    rec = record(DEVICES[0], 5)
    open_stroke = rec.batches[:3]
    guard, _ = restore(open_stroke)
    assert guard.open
    assert _refused(guard, encode_batch([Begin("pen", 20, 10, 10, 9)])) == "ink_stroke_open"


def _state(guard: InkGuard) -> tuple[object, ...]:
    seen: tuple[object, ...] = (guard.open, guard.strokes)
    if guard.open:  # a closed stroke's last point no longer matters
        seen += (guard.x, guard.y, guard.t, guard.p, guard.count, guard.pressure)
    return seen


def _outcome(guard: InkGuard, data: bytes | bytearray, allowed: frozenset[str] | None) -> object:
    try:
        return guard.check(data, allowed)  # type: ignore[arg-type]
    except InkError as err:
        return (err.code, err.params)


_DRAWINGS = [record(d, 8, seed=i).batches for i, d in enumerate(DEVICES)]


def test_the_common_case_runs_compiled() -> None:
    """The installation builds src/atelier/ink/_scan.c (setup.py); without it
    the server still checks every batch, at about twice the CPU."""
    assert COMPILED


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@given(data=st.data())
@settings(max_examples=300, deadline=None)
def test_the_one_pass_check_agrees_with_the_exact_one(compiled: bool,
                                                       data: st.DataObject) -> None:
    """Real drawings, some batches damaged, moved off the canvas, replaced by
    noise or with a tool that is not allowed: the one-pass check (in C or in
    Python, given bytes) and the exact path (given any other buffer) accept,
    refuse and remember the same."""
    batches = data.draw(st.sampled_from(_DRAWINGS))
    fast, exact = InkGuard(), InkGuard()
    fast.compiled = compiled and COMPILED
    for good in batches[: data.draw(st.integers(1, len(batches)))]:
        candidate = bytearray(good)
        how = data.draw(st.sampled_from(["as is", "as is", "flip", "cut", "shift", "noise",
                                         "tail"]))
        if how == "flip" and len(candidate) > 1:
            i = data.draw(st.integers(1, len(candidate) - 1))
            candidate[i] ^= 1 << data.draw(st.integers(0, 7))
        elif how == "cut":
            candidate = candidate[: data.draw(st.integers(1, len(candidate)))]
        elif how == "shift":  # a continued stroke far off the canvas
            far = encode_batch([Points((CANVAS_SIZE + MARGIN, 0, 5, 0))])
            candidate = bytearray(far)
        elif how == "noise":
            candidate = bytearray([1]) + bytearray(data.draw(st.binary(min_size=1, max_size=40)))
        elif how == "tail":  # bytes after the end, zero or not
            candidate += bytes([data.draw(st.sampled_from([0, 1, 128, 255]))])
        allowed = data.draw(st.sampled_from([None, PEN, ALL, frozenset({"pen", "undo"})]))
        got = _outcome(fast, bytes(candidate), allowed)
        want = _outcome(exact, candidate, allowed)
        assert got == want, (bytes(candidate).hex(), got, want)
        assert _state(fast) == _state(exact)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@given(ops=st.lists(st.sampled_from(
    [Begin("pen", 20, 10, 10, 5), Begin("eraser", 90, 4000, 1, 9, 63), End(), Undo(7),
     Clear(8), Points((1, 2, 3, 0)), Points((-3, 0, 0, 1, 5, 5, 1, -1), True),
     Points((MARGIN, 0, 1, 0)), Points((0, 0, -1, 0)), Points((0, 0, MAX_TIME_MS, 0)),
     Begin("pen", 1, 0, CANVAS_SIZE - 1, MAX_TIME_MS)]), min_size=1, max_size=8),
       cut=st.integers(1, 4))
@settings(max_examples=300, deadline=None)
def test_every_kind_of_operation_is_checked_the_same_way(compiled: bool, ops: list[Op],
                                                         cut: int) -> None:
    """Operations in any order, sent in batches of a few (encoded without the
    encoder's checks, so that wrong orders reach the server)."""
    fast, exact = InkGuard(), InkGuard()
    fast.compiled = compiled and COMPILED
    for i in range(0, len(ops), cut):
        data = _unchecked(ops[i : i + cut])
        got = _outcome(fast, data, ALL)
        assert got == _outcome(exact, bytearray(data), ALL), (data.hex(), got)
        assert _state(fast) == _state(exact)


def _unchecked(ops: list[Op]) -> bytes:
    """The bytes of ``ops`` as a client could send them, right or wrong."""
    out: list[str] = []
    for op in ops:
        write_op(op, out)
    bits = "".join(out)
    bits += "0" * (-len(bits) % 8)
    return bytes([1]) + int(bits, 2).to_bytes(len(bits) // 8, "big")
