"""Ink to send as a player would: encoded pen strokes."""

from __future__ import annotations

from atelier.ink.codec import Begin, End, Points, encode_batch


def stroke(x: int = 100, y: int = 200, t: int = 0, *, tool: str = "pen", width: int = 12,
           step: tuple[int, int] = (5, 3), points: int = 8) -> bytes:
    """One stroke from (``x``, ``y``) starting at ``t`` ms: ``points`` moves of
    ``step``, 16 ms apart."""
    dx, dy = step
    return encode_batch([Begin(tool, width, x, y, t, None), Points((dx, dy, 16, 0) * points),
                         End()])


def line_across(y: int, t: int) -> bytes:
    """A long pen stroke across the canvas at height ``y``, starting at ``t`` ms."""
    return stroke(400, y, t, width=28, step=(30, 5), points=40)
