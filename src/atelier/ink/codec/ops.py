"""The operations a batch holds, the format's limits, and the checks that
both decoders and the encoder apply to a batch's operations (``Walk``)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from atelier.errors import RuleError

VERSION = 1
CANVAS_SIZE = 4096
"""Side of the logical square canvas; every screen maps it to its own pixels."""
MARGIN = CANVAS_SIZE // 2
"""How far a stroke may leave the canvas (to come back in); it starts inside."""
MAX_BATCH_BYTES = 16 * 1024
MAX_POINTS_PER_STROKE = 5000
MAX_STROKES_PER_DRAWING = 3000
MAX_WIDTH = 1023
MAX_PRESSURE = 63
"""Pressure is quantised to 0..63; a stroke without pressure is simulated
from its speed by whoever draws it (geometry.py, stroke.js)."""
MAX_TIME_MS = 24 * 3600 * 1000
TOOLS = ("pen", "eraser")

LOW = -MARGIN
HIGH = CANVAS_SIZE + MARGIN  # exclusive
SPAN = HIGH - LOW
MAX_ZEROS = 32
T_K = 10  # Exp-Golomb order for times in ms since the drawing began
KXY_BITS = 3


class InkError(RuleError):
    """Malformed, out of bounds or oversized ink. ``code`` is stable and
    translated as ``error.<code>`` (content/strings/ink.json)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, **params)


@dataclass(frozen=True, slots=True)
class Begin:
    """Start a stroke at an absolute point; ``t`` is ms since the drawing's
    first stroke; ``pressure`` is None when the device has none."""

    tool: str
    width: int
    x: int
    y: int
    t: int
    pressure: int | None = None


@dataclass(frozen=True, slots=True)
class Points:
    """More points of the open stroke: ``deltas`` holds (dx, dy, dt, dp) per
    point, each relative to the point before (dp is 0 without pressure)."""

    deltas: tuple[int, ...]
    pressure: bool = False

    @property
    def count(self) -> int:
        return len(self.deltas) // 4


@dataclass(frozen=True, slots=True)
class End:
    """End the open stroke."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last stroke or clear (at ``t`` ms)."""

    t: int


@dataclass(frozen=True, slots=True)
class Clear:
    """Wipe the canvas (at ``t`` ms); an undo brings the ink back."""

    t: int


Op = Begin | Points | End | Undo | Clear


@dataclass(frozen=True, slots=True)
class InkBatch:
    ops: tuple[Op, ...]
    strokes_begun: int
    points: int
    tools: frozenset[str]


# --- checks shared by both directions -------------------------------------------------


class Walk:
    """What one batch shows about its strokes, checked op by op.

    ``open`` is True/False when the batch itself shows whether a stroke is
    open, None before that (a batch may continue a stroke from an earlier
    one); positions are absolute when known, else relative to the batch's
    unknown starting point."""

    __slots__ = ("begun", "count", "open", "p", "points", "t", "tools", "x", "y")

    def __init__(self) -> None:
        self.open: bool | None = None
        self.x = self.y = self.t = self.p = 0
        self.count = 0  # points of the open stroke seen in this batch
        self.begun = 0
        self.points = 0
        self.tools: set[str] = set()

    def begin(self, op: Begin) -> None:
        if self.open:
            raise InkError("ink_stroke_open")
        if op.tool not in TOOLS:
            raise InkError("ink_malformed")
        if not 1 <= op.width <= MAX_WIDTH:
            raise InkError("ink_bad_width", max=MAX_WIDTH)
        if not (0 <= op.x < CANVAS_SIZE and 0 <= op.y < CANVAS_SIZE):
            raise InkError("ink_out_of_bounds")
        if not 0 <= op.t <= MAX_TIME_MS:
            raise InkError("ink_too_long")
        if op.pressure is not None and not 0 <= op.pressure <= MAX_PRESSURE:
            raise InkError("ink_malformed")
        self.open = True
        self.x, self.y, self.t, self.p = op.x, op.y, op.t, op.pressure or 0
        self.count = 1
        self.begun += 1
        self.points += 1
        self.tools.add(op.tool)

    def extend(self, op: Points) -> None:
        if self.open is False:
            raise InkError("ink_no_stroke")
        n = op.count
        d = op.deltas
        if n < 1 or len(d) != 4 * n:
            raise InkError("ink_malformed")
        known = self.open is True
        # Relative to an unknown start, a stroke may still span the whole range.
        lo, hi = (LOW, HIGH) if known else (-SPAN, SPAN)
        plo, phi = (0, MAX_PRESSURE) if known else (-MAX_PRESSURE, MAX_PRESSURE)
        # accumulate/min/max run in C: the server checks every point it relays
        xs = list(accumulate(d[0::4], initial=self.x))
        ys = list(accumulate(d[1::4], initial=self.y))
        if not (lo <= min(xs) and max(xs) < hi and lo <= min(ys) and max(ys) < hi):
            raise InkError("ink_out_of_bounds")
        if min(d[2::4]) < 0:
            raise InkError("ink_malformed")
        if op.pressure:
            ps = list(accumulate(d[3::4], initial=self.p))
            if not (plo <= min(ps) and max(ps) <= phi):
                raise InkError("ink_malformed")
        elif any(d[3::4]):
            raise InkError("ink_malformed")
        t = self.t + sum(d[2::4])
        if t > MAX_TIME_MS:
            raise InkError("ink_too_long")
        self.count += n
        if self.count > MAX_POINTS_PER_STROKE:
            raise InkError("ink_too_many_points", max=MAX_POINTS_PER_STROKE)
        self.x, self.y, self.t = xs[-1], ys[-1], t
        if op.pressure:
            self.p = ps[-1]
        self.points += n

    def close(self) -> None:
        if self.open is False:
            raise InkError("ink_no_stroke")
        self.open = False

    def timed(self, t: int, tool: str) -> None:
        if self.open:
            raise InkError("ink_stroke_open")
        if not 0 <= t <= MAX_TIME_MS:
            raise InkError("ink_too_long")
        self.open = False
        self.tools.add(tool)

    def step(self, op: Op) -> None:
        if isinstance(op, Points):
            self.extend(op)
        elif isinstance(op, Begin):
            self.begin(op)
        elif isinstance(op, End):
            self.close()
        elif isinstance(op, Undo):
            self.timed(op.t, "undo")
        elif isinstance(op, Clear):
            self.timed(op.t, "clear")
        else:
            raise InkError("ink_malformed")

    def batch(self, ops: tuple[Op, ...]) -> InkBatch:
        return InkBatch(ops, self.begun, self.points, frozenset(self.tools))
