"""A drawing as its strokes, built from batches exactly as the browser does
(drawing.js mirrors this): the server, the gallery and replays agree.

Forgiving by design, since it only ever sees batches the server accepted:
a new stroke ends an open one, points without a stroke are dropped, points
are clamped to the canvas and its margin. Undo takes back the last stroke
or clear; a clear hides every stroke before it until it is undone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from atelier.ink.codec import (
    CANVAS_SIZE,
    MARGIN,
    MAX_PRESSURE,
    Begin,
    Clear,
    End,
    InkBatch,
    Op,
    Points,
    Undo,
    decode_batch,
)

_LOW, _HIGH = -MARGIN, CANVAS_SIZE + MARGIN - 1


def _clamp(v: int, lo: int = _LOW, hi: int = _HIGH) -> int:
    return lo if v < lo else hi if v > hi else v


@dataclass
class Stroke:
    tool: str
    width: int
    pressure: bool  # real pressure in ps; else simulated from speed
    xs: list[int] = field(default_factory=list)
    ys: list[int] = field(default_factory=list)
    ts: list[int] = field(default_factory=list)
    ps: list[int] = field(default_factory=list)
    ended: bool = False

    def __len__(self) -> int:
        return len(self.xs)


@dataclass(frozen=True)
class ClearMark:
    t: int


class Drawing:
    def __init__(self) -> None:
        self.history: list[Stroke | ClearMark] = []
        self.open: Stroke | None = None
        self.last_t = 0
        # where the open stroke's next deltas start (before clamping)
        self._cursor: tuple[int, int, int, int] = (0, 0, 0, 0)

    @classmethod
    def from_batches(cls, batches: Iterable[bytes]) -> Drawing:
        drawing = cls()
        for data in batches:
            drawing.apply(data)
        return drawing

    def visible(self) -> list[Stroke]:
        """The strokes on the canvas now, oldest first (erasers included)."""
        shown: list[Stroke] = []
        for item in self.history:
            if isinstance(item, ClearMark):
                shown.clear()
            else:
                shown.append(item)
        return shown

    # primitives (a replay calls these one point at a time)

    def begin(self, tool: str, width: int, x: int, y: int, t: int, p: int | None) -> None:
        self.end()
        stroke = Stroke(tool, width, p is not None)
        self.history.append(stroke)
        self.open = stroke
        self.point(x, y, t, p or 0)

    def point(self, x: int, y: int, t: int, p: int) -> None:
        s = self.open
        if s is None:
            return
        s.xs.append(_clamp(x))
        s.ys.append(_clamp(y))
        s.ts.append(t)
        s.ps.append(_clamp(p, 0, MAX_PRESSURE) if s.pressure else 0)
        self.last_t = max(self.last_t, t)

    def end(self) -> None:
        if self.open is not None:
            self.open.ended = True
            self.open = None

    def undo(self, t: int) -> None:
        self.end()
        if self.history:
            self.history.pop()
        self.last_t = max(self.last_t, t)

    def clear(self, t: int) -> None:
        self.end()
        self.history.append(ClearMark(t))
        self.last_t = max(self.last_t, t)

    # batches

    def apply(self, batch: bytes | InkBatch) -> None:
        if not isinstance(batch, InkBatch):
            batch = decode_batch(batch)
        for op in batch.ops:
            self.apply_op(op)

    def apply_op(self, op: Op) -> None:
        if isinstance(op, Points):
            s = self.open
            if s is None:
                return
            # Deltas continue from the unclamped path, as they were encoded.
            x, y, t, p = self._cursor
            d = op.deltas
            for i in range(0, len(d), 4):
                x += d[i]
                y += d[i + 1]
                t += d[i + 2]
                p += d[i + 3]
                self.point(x, y, t, p)
            self._cursor = (x, y, t, p)
        elif isinstance(op, Begin):
            self.begin(op.tool, op.width, op.x, op.y, op.t, op.pressure)
            self._cursor = (op.x, op.y, op.t, op.pressure or 0)
        elif isinstance(op, End):
            self.end()
        elif isinstance(op, Undo):
            self.undo(op.t)
        elif isinstance(op, Clear):
            self.clear(op.t)
