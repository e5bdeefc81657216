"""Checks each batch against the drawing so far, keeping only a few numbers.

``decode_batch`` sees one batch; a stroke continued from an earlier batch
can only be checked here: its points must stay near the canvas, a stroke may
hold at most MAX_POINTS_PER_STROKE points and a drawing MAX_STROKES_PER_DRAWING
strokes. The server keeps one guard per canvas and refuses (does not relay or
store) a batch the guard refuses; the guard is then unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from itertools import accumulate
from typing import Any, NamedTuple

from atelier.ink.codec import (
    CANVAS_SIZE,
    MARGIN,
    MAX_BATCH_BYTES,
    MAX_POINTS_PER_STROKE,
    MAX_PRESSURE,
    MAX_STROKES_PER_DRAWING,
    MAX_TIME_MS,
    VERSION,
    Begin,
    End,
    InkError,
    Points,
    Stroke,
    decode_batch,
)
from atelier.ink.codec.fast import Doubt, decode_fast
from atelier.ink.presence import InkPresence, marks_of

_LOW, _HIGH = -MARGIN, CANVAS_SIZE + MARGIN


_compiled: Callable[..., Any] | None
try:
    from atelier.ink._scan import scan as _compiled
except ImportError:  # installed without a C compiler: the Python path alone
    _compiled = None

_TOOL_SETS = [
    frozenset(t for bit, t in enumerate(("pen", "eraser", "undo", "clear")) if mask >> bit & 1)
    for mask in range(16)
]
_Found = tuple[int, int, frozenset[str], bytes, Stroke | None]


class Checked(NamedTuple):
    """What the server needs of an accepted batch (its points stay in the bytes)."""

    strokes_begun: int
    points: int
    tools: frozenset[str]
    marks: bytes
    """For InkPresence: one byte per stroke begun, clear or undo."""


COMPILED = _compiled is not None
"""Whether the common case runs in C (src/atelier/ink/_scan.c)."""


class InkGuard:
    __slots__ = ("compiled", "count", "open", "p", "pressure", "strokes", "t", "x", "y")

    def __init__(self) -> None:
        self.compiled = COMPILED  # tests turn it off to check the Python path alike
        self.open = False
        self.pressure = False
        self.x = self.y = self.t = self.p = 0
        self.count = 0  # points of the open stroke
        self.strokes = 0  # strokes begun in this drawing, undone ones included

    def _one_pass(self, data: bytes) -> _Found | None:
        """The common case in one pass (it checks the points against where the
        open stroke really is); None when unsure, and then the exact path,
        which names the error, decides."""
        if self.compiled and _compiled is not None:
            found = _compiled(data, self.open, self.x, self.y, self.t, self.p, self.count,
                              self.pressure)
            if found is None:
                return None
            begun, points, mask, marks, after = found
            return begun, points, _TOOL_SETS[mask], marks, after
        start = False if not self.open else (
            self.x, self.y, self.t, self.p, self.count, self.pressure)
        try:
            batch, after = decode_fast(data, start)
        except Doubt:
            return None
        return batch.strokes_begun, batch.points, batch.tools, marks_of(batch), after

    def check(self, data: bytes, allowed: frozenset[str] | None = None) -> Checked:
        """The batch's summary, if it fits the drawing and uses only ``allowed``
        tools (of pen, eraser, undo, clear); else InkError and no change."""
        if type(data) is bytes and 1 < len(data) <= MAX_BATCH_BYTES and data[0] == VERSION:
            found = self._one_pass(data)
            if found is not None:
                begun, points, tools, marks, after = found
                if (self.strokes + begun <= MAX_STROKES_PER_DRAWING
                        and (allowed is None or tools <= allowed)):
                    self.strokes += begun
                    if after is None:
                        self.open = False
                    else:
                        self.open = True
                        self.x, self.y, self.t, self.p, self.count, self.pressure = after
                    return Checked(begun, points, tools, marks)
        batch = decode_batch(data)
        if allowed is not None:
            for tool in ("pen", "eraser", "undo", "clear"):
                if tool in batch.tools and tool not in allowed:
                    raise InkError(f"ink_no_{tool}")
        if self.strokes + batch.strokes_begun > MAX_STROKES_PER_DRAWING:
            raise InkError("ink_too_many_strokes", max=MAX_STROKES_PER_DRAWING)
        state = (self.open, self.pressure, self.x, self.y, self.t, self.p, self.count)
        opened, pressure, x, y, t, p, count = state
        for op in batch.ops:
            if isinstance(op, Points):
                if not opened:
                    raise InkError("ink_no_stroke")
                if op.pressure != pressure:
                    raise InkError("ink_malformed")
                d = op.deltas
                # the whole run at C speed; the point-by-point loop only to
                # name the first point that breaks a rule
                xs = list(accumulate(d[0::4], initial=x))
                ys = list(accumulate(d[1::4], initial=y))
                ps = list(accumulate(d[3::4], initial=p)) if pressure else [p]
                if not (min(xs) >= _LOW and max(xs) < _HIGH and min(ys) >= _LOW
                        and max(ys) < _HIGH and min(ps) >= 0 and max(ps) <= MAX_PRESSURE):
                    _first_bad_point(d, x, y, p)
                x, y, p = xs[-1], ys[-1], ps[-1]
                t += sum(d[2::4])
                count += op.count
                if count > MAX_POINTS_PER_STROKE:
                    raise InkError("ink_too_many_points", max=MAX_POINTS_PER_STROKE)
                if t > MAX_TIME_MS:
                    raise InkError("ink_too_long")
            elif isinstance(op, Begin):
                if opened:
                    raise InkError("ink_stroke_open")
                opened, pressure = True, op.pressure is not None
                x, y, t, p, count = op.x, op.y, op.t, op.pressure or 0, 1
            elif isinstance(op, End):
                if not opened:
                    raise InkError("ink_no_stroke")
                opened = False
            elif opened:  # undo or clear in the middle of a stroke
                raise InkError("ink_stroke_open")
        self.open, self.pressure, self.x, self.y, self.t, self.p, self.count = (
            opened,
            pressure,
            x,
            y,
            t,
            p,
            count,
        )
        self.strokes += batch.strokes_begun
        return Checked(batch.strokes_begun, batch.points, batch.tools, marks_of(batch))


def _first_bad_point(d: tuple[int, ...], x: int, y: int, p: int) -> None:
    """The error of the first point (of deltas ``d`` from x, y, p) off the
    canvas and its margin, or with pressure out of range."""
    for i in range(0, len(d), 4):
        x += d[i]
        y += d[i + 1]
        p += d[i + 3]
        if not (_LOW <= x < _HIGH and _LOW <= y < _HIGH):
            raise InkError("ink_out_of_bounds")
        if not 0 <= p <= MAX_PRESSURE:
            raise InkError("ink_malformed")


def restore(batches: Iterable[bytes]) -> tuple[InkGuard, InkPresence]:
    """The guard and the ink presence after ink accepted before a restart (kept
    even if the rules of the format tightened since: the ink was accepted then)."""
    guard = InkGuard()
    presence = InkPresence()
    for data in batches:
        with contextlib.suppress(InkError):
            presence.apply(guard.check(data).marks)
    return guard, presence
