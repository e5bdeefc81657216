"""How a stroke looks: its width at each point and the curve through its
points. stroke.js computes the same numbers in the same order, so a drawing
looks the same in every browser and in the PNG and SVG exports.

A stroke is drawn as pieces, one per point: quadratic curves from midpoint
to midpoint with the point as control (smooth, and each piece is final as
soon as the next point exists, so live ink never has to be redrawn), each
stroked with round caps at the width of its point.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from atelier.ink.codec import MAX_PRESSURE
from atelier.ink.drawing import Stroke

THINNEST = 0.35
"""Width at zero pressure, as a share of the stroke's width."""
SPEED_HALF = 6.0
"""Speed (units per ms) at which simulated pressure has fallen halfway."""
SIM_START = 0.85
SIM_EASE = 0.35

Piece = tuple[float, float, float, float, float, float, float]
"""ax, ay, cx, cy, bx, by, width: from a to b, bending towards c."""


def pressures(stroke: Stroke) -> list[float]:
    """0..1 per point: the pen's own, or falling as a mouse or finger speeds
    up (eased, so the line swells and thins like a felt pen)."""
    n = len(stroke)
    if stroke.pressure:
        return [p / MAX_PRESSURE for p in stroke.ps]
    xs, ys, ts = stroke.xs, stroke.ys, stroke.ts
    out: list[float] = []
    p = SIM_START
    for i in range(n):
        if i:
            dx = xs[i] - xs[i - 1]
            dy = ys[i] - ys[i - 1]
            v = math.sqrt(dx * dx + dy * dy) / max(ts[i] - ts[i - 1], 1)
            target = 1 - 0.5 * v / (v + SPEED_HALF)
            p += (target - p) * SIM_EASE
        out.append(p)
    return out


def widths(stroke: Stroke) -> list[float]:
    if stroke.tool == "eraser":
        return [float(stroke.width)] * len(stroke)
    w = stroke.width
    return [w * (THINNEST + (1 - THINNEST) * p) for p in pressures(stroke)]


def pieces(stroke: Stroke, start: int = 0) -> Iterator[Piece]:
    """Piece ``j`` runs from the midpoint before point j to the one after it
    (the first from point 0, the last, once the stroke ended, to its end).
    A lone point is one piece of length zero: a dot."""
    xs, ys = stroke.xs, stroke.ys
    n = len(xs)
    ws = widths(stroke)
    if n == 1:
        if stroke.ended and start == 0:
            x, y = float(xs[0]), float(ys[0])
            yield (x, y, x, y, x, y, ws[0])
        return
    last = n if stroke.ended else n - 1
    for j in range(start, last):
        if j == 0:
            ax, ay = float(xs[0]), float(ys[0])
        else:
            ax, ay = (xs[j - 1] + xs[j]) / 2, (ys[j - 1] + ys[j]) / 2
        if j == n - 1:
            bx, by = float(xs[j]), float(ys[j])
        else:
            bx, by = (xs[j] + xs[j + 1]) / 2, (ys[j] + ys[j + 1]) / 2
        if j == 0 or j == n - 1:
            cx, cy = (ax + bx) / 2, (ay + by) / 2
        else:
            cx, cy = float(xs[j]), float(ys[j])
        yield (ax, ay, cx, cy, bx, by, ws[j])


def flatten(piece: Piece, tolerance: float = 2.0) -> list[tuple[float, float]]:
    """Points along a piece, straight segments within ``tolerance`` units of
    the curve (for raster output). A quadratic strays from its chord by half
    the control point's distance from the chord's middle, and m segments cut
    that by m squared."""
    ax, ay, cx, cy, bx, by, _ = piece
    stray = math.hypot(cx - (ax + bx) / 2, cy - (ay + by) / 2) / 2
    m = max(1, min(16, math.ceil(math.sqrt(stray / tolerance))))
    out = [(ax, ay)]
    for i in range(1, m + 1):
        u = i / m
        a, b, c = (1 - u) * (1 - u), 2 * u * (1 - u), u * u
        out.append((a * ax + b * cx + c * bx, a * ay + b * cy + c * by))
    return out
