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

_PEN, _ERASER, _CLEAR, _UNDO = 1, 0, 2, 3
"""A batch's marks: one byte per stroke begun, clear or undo, in order (the
same bytes as the compiled guard's, src/atelier/ink/_scan.c)."""


def marks_of(batch: InkBatch) -> bytes:
    """The marks of a decoded batch."""
    out = bytearray()
    for op in batch.ops:
        if isinstance(op, Begin):
            out.append(_PEN if op.tool == "pen" else _ERASER)
        elif isinstance(op, Undo):
            out.append(_UNDO)
        elif isinstance(op, Clear):
            out.append(_CLEAR)
    return bytes(out)


class InkPresence:
    __slots__ = ("_blank", "_marks")

    def __init__(self) -> None:
        self._marks = bytearray()
        self._blank: bool | None = True  # None: to be worked out again

    def apply(self, marks: bytes) -> None:
        """Follow a batch by its marks (``marks_of``; the guard returns them)."""
        if not marks:
            return
        kept = self._marks
        for mark in marks:
            if mark == _UNDO:
                if kept:
                    kept.pop()
                    self._blank = None
            else:
                kept.append(mark)
                if mark == _PEN:
                    self._blank = False
                elif mark == _CLEAR:
                    self._blank = True
                # an eraser stroke adds no ink: blank stays as it was

    @property
    def blank(self) -> bool:
        """No pen stroke since the last clear still standing. Asked after every
        batch, and most batches only add points: kept until a stroke starts or
        goes, rather than walking the marks each time."""
        if self._blank is None:
            self._blank = self._walk()
        return self._blank

    def _walk(self) -> bool:
        for mark in reversed(self._marks):
            if mark == _CLEAR:
                return True
            if mark == _PEN:
                return False
        return True
