"""Whether a canvas shows pen ink now, followed batch by batch.

What the rules may need to know of a drawing (1st-edition Pictomania: a
player who drew nothing takes no bonus token, and their drawing is void),
without keeping its points: one byte per stroke or clear, so that an undo
takes back exactly what the browser's does (``atelier.ink.drawing``).
An eraser stroke adds no ink: a canvas whose pen strokes were all rubbed out
with the eraser still counts as drawn (undo and clear do empty it).
"""

from __future__ import annotations

from atelier.ink.codec import Begin, Clear, InkBatch, Undo

_PEN, _ERASER, _CLEAR = 1, 0, 2


class InkPresence:
    __slots__ = ("_marks",)

    def __init__(self) -> None:
        self._marks = bytearray()

    def apply(self, batch: InkBatch) -> None:
        marks = self._marks
        for op in batch.ops:
            if isinstance(op, Begin):
                marks.append(_PEN if op.tool == "pen" else _ERASER)
            elif isinstance(op, Undo):
                if marks:
                    marks.pop()
            elif isinstance(op, Clear):
                marks.append(_CLEAR)

    @property
    def blank(self) -> bool:
        """No pen stroke since the last clear still standing."""
        for mark in reversed(self._marks):
            if mark == _CLEAR:
                return True
            if mark == _PEN:
                return False
        return True
