"""A drawing's operations in time, for replaying it as it was drawn.

replay.js computes the same times: every point at its own time, pauses
longer than ``max_gap_ms`` shortened to it (a replay shows the drawing, not
the thinking), undo and clear at the moment they were made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from atelier.ink.codec import Begin, Clear, End, InkError, Points, Undo, decode_batch
from atelier.ink.drawing import Drawing

MAX_GAP_MS = 1000


@dataclass(frozen=True, slots=True)
class Event:
    vt: int  # replay time, ms from the start of the replay
    t: int  # drawing time, ms since the drawing's first stroke
    kind: str  # begin, point, end, undo, clear
    begin: Begin | None = None
    point: tuple[int, int, int, int] = (0, 0, 0, 0)  # x, y, t, pressure


def timeline(batches: Iterable[bytes], max_gap_ms: int = MAX_GAP_MS) -> list[Event]:
    raw: list[tuple[int, str, Begin | None, tuple[int, int, int, int]]] = []
    none = (0, 0, 0, 0)
    cx = cy = ct = cp = 0
    for data in batches:
        try:
            ops = decode_batch(data).ops
        except InkError:
            continue
        for op in ops:
            if isinstance(op, Begin):
                cx, cy, ct, cp = op.x, op.y, op.t, op.pressure or 0
                raw.append((op.t, "begin", op, none))
            elif isinstance(op, Points):
                d = op.deltas
                for i in range(0, len(d), 4):
                    cx += d[i]
                    cy += d[i + 1]
                    ct += d[i + 2]
                    cp += d[i + 3]
                    raw.append((ct, "point", None, (cx, cy, ct, cp)))
            elif isinstance(op, End):
                raw.append((ct, "end", None, none))
            elif isinstance(op, Undo | Clear):
                raw.append((op.t, "undo" if isinstance(op, Undo) else "clear", None, none))
    events: list[Event] = []
    vt = 0
    prev = raw[0][0] if raw else 0
    for t, kind, begin, point in raw:
        vt += min(max(t - prev, 0), max_gap_ms)
        prev = t
        events.append(Event(vt, t, kind, begin, point))
    return events


def duration_ms(batches: Iterable[bytes], max_gap_ms: int = MAX_GAP_MS) -> int:
    """How long a replay at normal speed takes."""
    events = timeline(batches, max_gap_ms)
    return events[-1].vt if events else 0


def play(drawing: Drawing, ev: Event) -> None:
    """Apply one replay event to ``drawing``."""
    if ev.begin is not None:
        b = ev.begin
        drawing.begin(b.tool, b.width, b.x, b.y, b.t, b.pressure)
    elif ev.kind == "point":
        drawing.point(*ev.point)
    elif ev.kind == "end":
        drawing.end()
    elif ev.kind == "undo":
        drawing.undo(ev.t)
    elif ev.kind == "clear":
        drawing.clear(ev.t)


def drawing_at(batches: Iterable[bytes], vt: int, max_gap_ms: int = MAX_GAP_MS) -> Drawing:
    """The drawing as it stood ``vt`` ms into its replay (e.g. for a
    thumbnail strip or an animated export)."""
    drawing = Drawing()
    for ev in timeline(batches, max_gap_ms):
        if ev.vt > vt:
            break
        play(drawing, ev)
    return drawing
