"""Realistic synthetic drawing, for measuring the format and for tests.

Strokes follow smooth random curves with a bell-shaped speed profile (hands
accelerate and slow down), sampled the way browsers deliver pointer events
on common devices: at the device's rate with timing jitter, with sensor
noise, in CSS pixels rounded to device pixels, then mapped to the logical
canvas as the surface does.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from atelier.ink.codec import CANVAS_SIZE, MAX_PRESSURE
from atelier.ink.record import InkRecorder


@dataclass(frozen=True)
class Device:
    name: str
    hz: float
    canvas_css: float  # side of the canvas on screen, CSS pixels
    dpr: float  # device pixels per CSS pixel (coordinates come in these steps)
    speed_css: float  # typical drawing speed, CSS pixels per second
    noise_css: float
    pen: bool = False


DEVICES = (
    Device("phone, finger, 60 Hz", 60, 360, 3, 500, 0.4),
    Device("phone, finger, 120 Hz", 120, 360, 3, 500, 0.4),
    Device("tablet, pen, 240 Hz", 240, 700, 2, 450, 0.15, pen=True),
    Device("desktop, mouse, 125 Hz", 125, 800, 1, 900, 0.0),
)


def _catmull(ps: list[tuple[float, float]], u: float) -> tuple[float, float]:
    """A point on a Catmull-Rom spline through ``ps`` at u in [0, 1]."""
    n = len(ps) - 1
    i = min(int(u * n), n - 1)
    s = u * n - i
    p0, p1, p2, p3 = ps[max(i - 1, 0)], ps[i], ps[i + 1], ps[min(i + 2, n)]
    out = []
    for a, b, c, d in zip(p0, p1, p2, p3, strict=True):
        out.append(
            0.5
            * (
                2 * b
                + (-a + c) * s
                + (2 * a - 5 * b + 4 * c - d) * s * s
                + (-a + 3 * b - 3 * c + d) * s * s * s
            )
        )
    return out[0], out[1]


def strokes(
    device: Device, count: int, rng: random.Random
) -> Iterator[list[tuple[float, float, float, float]]]:
    """Strokes as lists of (x_css, y_css, t_ms, pressure 0..1)."""
    side = device.canvas_css
    t0 = 0.0
    for _ in range(count):
        short = rng.random() < 0.2  # dots, ticks, crossbars
        size = side * (rng.uniform(0.02, 0.08) if short else rng.uniform(0.1, 0.5))
        cx, cy = rng.uniform(0.2, 0.8) * side, rng.uniform(0.2, 0.8) * side
        via = [(cx + rng.uniform(-1, 1) * size, cy + rng.uniform(-1, 1) * size)]
        for _ in range(rng.randint(1, 2) if short else rng.randint(3, 7)):
            x, y = via[-1]
            via.append((x + rng.uniform(-1, 1) * size, y + rng.uniform(-1, 1) * size))
        length = sum(math.dist(a, b) for a, b in itertools.pairwise(via))
        duration = max(0.06, length / (device.speed_css * rng.uniform(0.6, 1.4)))
        n = max(2, int(duration * device.hz))
        pressure_base = rng.uniform(0.3, 0.8)
        points = []
        t = t0
        for i in range(n):
            s = i / (n - 1)
            u = s * s * s * (10 - 15 * s + 6 * s * s)  # minimum-jerk progress
            x, y = _catmull(via, u)
            x += rng.gauss(0, device.noise_css)
            y += rng.gauss(0, device.noise_css)
            # browsers report positions in device pixels
            x = round(x * device.dpr) / device.dpr
            y = round(y * device.dpr) / device.dpr
            p = min(1.0, max(0.0, pressure_base + 0.2 * math.sin(3 * s) + rng.gauss(0, 0.01)))
            points.append((x, y, t, p))
            t += 1000 / device.hz + rng.uniform(-0.6, 0.6)
        yield points
        t0 = t + rng.uniform(150, 900)


def record(device: Device, count: int, seed: int = 1) -> InkRecorder:
    """A drawing of ``count`` strokes as the surface would send it."""
    rng = random.Random(seed)
    rec = InkRecorder()
    scale = CANVAS_SIZE / device.canvas_css
    for stroke in strokes(device, count, rng):
        for i, (x, y, t, p) in enumerate(stroke):
            lx = min(max(round(x * scale), 0), CANVAS_SIZE - 1)
            ly = min(max(round(y * scale), 0), CANVAS_SIZE - 1)
            q = round(p * MAX_PRESSURE) if device.pen else None
            if i == 0:
                rec.begin("pen", 28, lx, ly, round(t), q)
            else:
                rec.point(lx, ly, round(t), q)
        rec.end()
    return rec
