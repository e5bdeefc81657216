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
    Begin,
    Clear,
    End,
    InkError,
    Op,
    Points,
    Undo,
    encode_batch,
)
from atelier.ink.guard import InkGuard, restore
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


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_the_one_pass_check_agrees_with_the_exact_one(data: st.DataObject) -> None:
    """Real drawings, some batches damaged, moved off the canvas or with a
    tool that is not allowed: the fast path (bytes) and the exact path (any
    other buffer) accept, refuse and remember the same."""
    batches = data.draw(st.sampled_from(_DRAWINGS))
    fast, exact = InkGuard(), InkGuard()
    for good in batches[: data.draw(st.integers(1, len(batches)))]:
        candidate = bytearray(good)
        how = data.draw(st.sampled_from(["as is", "as is", "flip", "cut", "shift"]))
        if how == "flip" and len(candidate) > 1:
            i = data.draw(st.integers(1, len(candidate) - 1))
            candidate[i] ^= 1 << data.draw(st.integers(0, 7))
        elif how == "cut":
            candidate = candidate[: data.draw(st.integers(1, len(candidate)))]
        elif how == "shift":  # a continued stroke far off the canvas
            far = encode_batch([Points((CANVAS_SIZE + MARGIN, 0, 5, 0))])
            candidate = bytearray(far)
        allowed = data.draw(st.sampled_from([None, PEN, ALL, frozenset({"pen", "undo"})]))
        got = _outcome(fast, bytes(candidate), allowed)
        want = _outcome(exact, candidate, allowed)
        assert got == want, (bytes(candidate).hex(), got, want)
        assert _state(fast) == _state(exact)
