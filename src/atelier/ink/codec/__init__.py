"""The ink wire format: one batch of stroke operations in a few bytes.

A batch is a version byte followed by a bit stream (most significant bit
first) of operations, padded with fewer than eight zero bits. Numbers are
zigzag Exp-Golomb codes, and a stroke's points are coded as second
differences, so a smooth stroke costs about two bytes per point with its
timing and pressure. docs/ink.md describes the format bit by bit; codec.js
mirrors this module exactly (tests compare the two).

Strokes may span batches: a ``Points`` operation continues the stroke that
is open on the receiving side, relative to its last point. ``decode_batch``
checks everything one batch can show; :class:`atelier.ink.guard.InkGuard`
checks a batch against the drawing so far.

One module per job: ``ops`` (the operations, the limits and the checks every
direction shares), ``fast`` (the table-driven decoder, the common case),
``exact`` (the reference decoder, which names every error and reads what the
fast one gives up on) and ``encode``. The compiled scanner
(``atelier/ink/_scan.c``) is a third reader of the same bits, for the guard.
"""

from __future__ import annotations

from atelier.ink.codec.encode import best_k, encode_batch
from atelier.ink.codec.exact import decode_exact
from atelier.ink.codec.fast import Doubt, Stroke, decode_fast
from atelier.ink.codec.ops import (
    CANVAS_SIZE,
    MARGIN,
    MAX_BATCH_BYTES,
    MAX_POINTS_PER_STROKE,
    MAX_PRESSURE,
    MAX_STROKES_PER_DRAWING,
    MAX_TIME_MS,
    MAX_WIDTH,
    TOOLS,
    VERSION,
    Begin,
    Clear,
    End,
    InkBatch,
    InkError,
    Op,
    Points,
    Undo,
)

__all__ = [
    "CANVAS_SIZE",
    "MARGIN",
    "MAX_BATCH_BYTES",
    "MAX_POINTS_PER_STROKE",
    "MAX_PRESSURE",
    "MAX_STROKES_PER_DRAWING",
    "MAX_TIME_MS",
    "MAX_WIDTH",
    "TOOLS",
    "VERSION",
    "Begin",
    "Clear",
    "End",
    "InkBatch",
    "InkError",
    "Op",
    "Points",
    "Stroke",
    "Undo",
    "best_k",
    "decode_batch",
    "encode_batch",
]


def decode_batch(data: bytes) -> InkBatch:
    """The operations in one batch; InkError (and nothing else) if it is
    malformed, out of bounds or oversized."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InkError("ink_malformed")
    data = bytes(data)
    if not data:
        raise InkError("ink_empty")
    if len(data) > MAX_BATCH_BYTES:
        raise InkError("ink_too_large", size=len(data), max=MAX_BATCH_BYTES)
    if data[0] != VERSION:
        raise InkError("ink_version", version=data[0])
    try:
        return decode_fast(data)[0]
    except Doubt:
        return decode_exact(data)
