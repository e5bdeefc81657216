"""Turns strokes as they are drawn into batches, as the browser surface does:
points are held back until the next flush (about every 50 ms while drawing,
and at each stroke's end), and each flush becomes one batch."""

from __future__ import annotations

from atelier.ink.codec import (
    MAX_POINTS_PER_STROKE,
    Begin,
    Clear,
    End,
    Op,
    Points,
    Undo,
    encode_batch,
)

FLUSH_MS = 50
_MAX_PENDING_POINTS = 1000  # keeps a batch far below MAX_BATCH_BYTES


class InkRecorder:
    def __init__(self) -> None:
        self.batches: list[bytes] = []
        self._ops: list[Op] = []
        self._deltas: list[int] = []
        self._pressure = False
        self._last = (0, 0, 0, 0)
        self._open = False
        self._count = 0
        self._stroke: tuple[str, int] = ("pen", 1)
        self._flushed_at = 0

    def begin(self, tool: str, width: int, x: int, y: int, t: int, p: int | None = None) -> None:
        if self._open:
            self.end()
        self._ops.append(Begin(tool, width, x, y, t, p))
        self._open, self._pressure, self._count = True, p is not None, 1
        self._stroke = (tool, width)
        self._last = (x, y, t, p or 0)
        self._flushed_at = t

    def point(self, x: int, y: int, t: int, p: int | None = None) -> None:
        if not self._open:
            return
        lx, ly, lt, lp = self._last
        q = (p or 0) if self._pressure else 0
        if (x, y, q) == (lx, ly, lp):
            return  # nothing new to draw; its time passes to the next point
        t = max(t, lt)
        if self._count >= MAX_POINTS_PER_STROKE:
            # one stroke too long to check cheaply: carry on as a new one
            tool, width = self._stroke
            self.end()
            self.begin(tool, width, lx, ly, lt, lp if self._pressure else None)
        self._deltas += (x - lx, y - ly, t - lt, q - lp)
        self._last = (x, y, t, q)
        self._count += 1
        if t - self._flushed_at >= FLUSH_MS or len(self._deltas) >= 4 * _MAX_PENDING_POINTS:
            self.flush()
            self._flushed_at = t

    def end(self) -> None:
        if self._open:
            self._take_points()
            self._ops.append(End())
            self._open = False
            self.flush()

    def undo(self, t: int) -> None:
        self.end()
        self._ops.append(Undo(t))
        self.flush()

    def clear(self, t: int) -> None:
        self.end()
        self._ops.append(Clear(t))
        self.flush()

    def _take_points(self) -> None:
        if self._deltas:
            self._ops.append(Points(tuple(self._deltas), self._pressure))
            self._deltas = []

    def flush(self) -> bytes | None:
        self._take_points()
        if not self._ops:
            return None
        data = encode_batch(self._ops)
        self._ops = []
        self.batches.append(data)
        return data
