"""The ink wire format: what goes in comes out, anything else is an InkError."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atelier.ink.codec import (
    CANVAS_SIZE,
    MARGIN,
    MAX_BATCH_BYTES,
    MAX_POINTS_PER_STROKE,
    MAX_PRESSURE,
    Begin,
    Clear,
    End,
    InkBatch,
    InkError,
    Op,
    Points,
    Undo,
    decode_batch,
    encode_batch,
    exact,
    fast,
)
from atelier.ink.synth import DEVICES, record

coord = st.integers(-MARGIN, CANVAS_SIZE + MARGIN - 1)


@st.composite
def points_op(draw: st.DrawFn, start: tuple[int, int, int, int], pressure: bool) -> Points:
    """Points from ``start`` that stay within the canvas and its margin."""
    n = draw(st.integers(1, 40))
    x0, y0, t0, p0 = start
    deltas: list[int] = []
    for _ in range(n):
        x, y = draw(coord), draw(coord)
        if draw(st.booleans()):  # mostly small steps, like a real stroke
            x = min(max(x0 + draw(st.integers(-60, 60)), -MARGIN), CANVAS_SIZE + MARGIN - 1)
            y = min(max(y0 + draw(st.integers(-60, 60)), -MARGIN), CANVAS_SIZE + MARGIN - 1)
        dt = draw(st.integers(0, 2000))
        p = draw(st.integers(0, MAX_PRESSURE)) if pressure else p0
        deltas += (x - x0, y - y0, dt, p - p0)
        x0, y0, t0, p0 = x, y, t0 + dt, p
    return Points(tuple(deltas), pressure)


@st.composite
def batches(draw: st.DrawFn) -> list[Op]:
    """A valid batch: maybe continuing a stroke, then strokes, undos, clears."""
    ops: list[Op] = []
    if draw(st.booleans()):
        ops.append(draw(points_op((0, 0, 0, 0), draw(st.booleans()))))
        if draw(st.booleans()):
            ops.append(End())
    for _ in range(draw(st.integers(0 if ops else 1, 4))):
        kind = draw(st.sampled_from(["stroke", "stroke", "undo", "clear"]))
        if ops and isinstance(ops[-1], Points | Begin) and kind != "stroke":
            ops.append(End())
        if kind == "undo":
            ops.append(Undo(draw(st.integers(0, 10**7))))
        elif kind == "clear":
            ops.append(Clear(draw(st.integers(0, 10**7))))
        else:
            if ops and isinstance(ops[-1], Points | Begin):
                ops.append(End())
            p = draw(st.none() | st.integers(0, MAX_PRESSURE))
            begin = Begin(
                draw(st.sampled_from(["pen", "eraser"])),
                draw(st.integers(1, 1023)),
                draw(st.integers(0, CANVAS_SIZE - 1)),
                draw(st.integers(0, CANVAS_SIZE - 1)),
                draw(st.integers(0, 10**7)),
                p,
            )
            ops.append(begin)
            if draw(st.booleans()):
                start = (begin.x, begin.y, begin.t, p or 0)
                ops.append(draw(points_op(start, p is not None)))
    return ops


@given(batches())
@settings(max_examples=300, deadline=None)
def test_every_valid_batch_decodes_to_what_was_encoded(ops: list[Op]) -> None:
    data = encode_batch(ops)
    batch = decode_batch(data)
    assert batch.ops == tuple(ops)
    assert batch.strokes_begun == sum(isinstance(op, Begin) for op in ops)
    assert batch.points == sum(
        1 if isinstance(op, Begin) else op.count if isinstance(op, Points) else 0 for op in ops
    )
    tools = {op.tool for op in ops if isinstance(op, Begin)}
    tools |= {"undo" for op in ops if isinstance(op, Undo)}
    tools |= {"clear" for op in ops if isinstance(op, Clear)}
    assert batch.tools == tools
    assert encode_batch(batch.ops) == data


@given(st.binary(max_size=300))
@settings(max_examples=1000, deadline=None)
def test_random_bytes_never_raise_anything_but_ink_error(data: bytes) -> None:
    for candidate in (data, b"\x01" + data):
        try:
            decode_batch(candidate)
        except InkError as err:
            assert err.code.startswith("ink_")
            assert "{" not in err.message("de")  # every code is translated, params filled


@given(batches(), st.data())
@settings(max_examples=300, deadline=None)
def test_damaged_batches_never_raise_anything_but_ink_error(
    ops: list[Op], data: st.DataObject
) -> None:
    good = bytearray(encode_batch(ops))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(1, len(good) - 1)) if len(good) > 1 else 0
        good[i] ^= 1 << data.draw(st.integers(0, 7))
    cut = data.draw(st.integers(1, len(good)))
    for candidate in (bytes(good), bytes(good[:cut])):
        with contextlib.suppress(InkError):
            decode_batch(candidate)


def test_the_documented_example_is_byte_exact() -> None:
    ops: list[Op] = [Begin("pen", 24, 1000, 2000, 0), Points((8, 6, 8, 0, 10, 6, 9, 0)), End()]
    data = encode_batch(ops)
    assert data.hex(" ") == "01 80 60 fa 1f 42 00 08 89 1c 11 69 e0"  # docs/ink.md
    assert decode_batch(data).ops == tuple(ops)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "ink_empty"),
        (b"\x01", "ink_empty"),
        (b"\x01\x00", "ink_malformed"),  # eight zero bits are not padding
        (b"\x02\x80", "ink_version"),
        (b"\x01" + b"\xff" * MAX_BATCH_BYTES, "ink_too_large"),
        (b"\x01\xc0", None),  # one end: it ends a stroke begun in an earlier batch
        (b"\x01\xd8", "ink_no_stroke"),  # end, then a second end
        (b"\x01\x80", "ink_malformed"),  # a begin cut short
    ],
)
def test_bad_batches_are_refused_with_a_stable_code(data: bytes, code: str | None) -> None:
    if code is None:
        assert decode_batch(data).ops == (End(),)
        return
    with pytest.raises(InkError) as err:
        decode_batch(data)
    assert err.value.code == code


@pytest.mark.parametrize(
    ("ops", "code"),
    [
        ([Begin("pen", 0, 10, 10, 0)], "ink_bad_width"),
        ([Begin("pen", 24, CANVAS_SIZE, 10, 0)], "ink_out_of_bounds"),
        ([Begin("pen", 24, 10, 10, 0), Points((-MARGIN - 11, 0, 5, 0))], "ink_out_of_bounds"),
        ([Begin("pen", 24, 10, 10, 0), Begin("pen", 24, 10, 10, 0)], "ink_stroke_open"),
        ([Begin("pen", 24, 10, 10, 0), Undo(5)], "ink_stroke_open"),
        ([End(), Points((1, 1, 1, 0))], "ink_no_stroke"),
        ([Begin("pen", 24, 10, 10, 0), Points((1, 1, -1, 0))], "ink_malformed"),
        ([Begin("pen", 24, 10, 10, 0, 60), Points((1, 1, 1, 9), True)], "ink_malformed"),
        (
            [Begin("pen", 24, 10, 10, 0), Points((0, 1, 1, 0) * MAX_POINTS_PER_STROKE)],
            "ink_too_many_points",
        ),
    ],
)
def test_the_encoder_refuses_what_the_decoder_would(ops: list[Op], code: str) -> None:
    with pytest.raises(InkError) as err:
        encode_batch(ops)
    assert err.value.code == code


def test_errors_read_naturally_in_three_languages() -> None:
    err = InkError("ink_too_many_points", max=MAX_POINTS_PER_STROKE)
    messages = err.messages()
    assert messages["en"] == f"A stroke may have at most {MAX_POINTS_PER_STROKE} points."
    assert all(str(MAX_POINTS_PER_STROKE) in m for m in messages.values())
    assert len(set(messages.values())) == 3


def test_realistic_drawing_costs_at_most_four_bytes_per_point() -> None:
    for device in DEVICES:
        rec = record(device, 40, seed=7)
        points = sum(decode_batch(b).points for b in rec.batches)
        size = sum(len(b) for b in rec.batches)
        assert size / points <= 4, device.name


def test_a_stroke_spans_batches_and_each_batch_is_small() -> None:
    rec = record(DEVICES[2], 10, seed=3)
    decoded = [decode_batch(b) for b in rec.batches]
    continued = [b for b in decoded if isinstance(b.ops[0], Points)]
    assert continued  # later batches carry on the open stroke
    assert max(len(b) for b in rec.batches) < 200


def test_a_continuation_is_checked_against_its_unknown_start() -> None:
    """A batch that continues a stroke is checked relative to its unknown
    start: a wild excursion is refused even without the earlier batches."""
    rng = random.Random(5)
    far = CANVAS_SIZE + 2 * MARGIN
    with pytest.raises(InkError) as err:
        encode_batch([Points((far, 0, 1, 0))])
    assert err.value.code == "ink_out_of_bounds"
    ok = Points(tuple(v for _ in range(50) for v in (rng.randint(-9, 9), 3, 8, 0)))
    assert decode_batch(encode_batch([ok])).ops == (ok,)


def _outcome(data: bytes, decode: Callable[[bytes], InkBatch]) -> object:
    try:
        return decode(data)
    except InkError as err:
        return (err.code, err.params)


def _exact(data: bytes) -> InkBatch:
    return exact.decode_exact(data)


@given(batches(), st.data())
@settings(max_examples=400, deadline=None)
def test_the_fast_decoder_agrees_with_the_exact_one(ops: list[Op], data: st.DataObject) -> None:
    """Valid, bit-flipped, cut and lengthened batches: the same ops or the same
    error, whichever path decode_batch takes."""
    good = encode_batch(ops)
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(1, len(damaged) - 1)) if len(damaged) > 1 else 0
        damaged[i] ^= 1 << data.draw(st.integers(0, 7))
    cut = data.draw(st.integers(1, len(good)))
    extra = data.draw(st.binary(max_size=3))
    for candidate in (good, bytes(damaged), good[:cut], good + extra):
        assert _outcome(candidate, decode_batch) == _outcome(candidate, _exact)


@given(st.binary(min_size=1, max_size=60))
@settings(max_examples=1000, deadline=None)
def test_the_fast_decoder_agrees_on_random_bytes(body: bytes) -> None:
    data = b"\x01" + body
    assert _outcome(data, decode_batch) == _outcome(data, _exact)


def test_the_fast_decoder_takes_nearly_every_real_batch() -> None:
    """A speed property without a clock: the exact path is only for the odd
    long code (and errors)."""
    real = [b for i, d in enumerate(DEVICES) for b in record(d, 30, seed=i).batches]
    doubted = 0
    for data in real:
        try:
            quick = fast.decode_fast(data)[0]
        except fast.Doubt:
            doubted += 1
        else:
            assert quick == _exact(data)
    assert doubted < len(real) / 20
