"""A drawing's replay as an animated image (GIF or WebP) for sharing.

Frames are the drawing at evenly spaced moments of its replay (the times of
``replay.timeline``), the last held a little longer. The size is bounded on
every side: at most ``MAX_FRAMES`` frames, ``MAX_SIZE`` pixels square and
``MAX_BYTES`` bytes (fewer frames, then smaller, until it fits), and a replay
longer than ``MAX_PLAY_MS`` is sped up to fit.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageColor, ImageDraw

from atelier.ink.codec import CANVAS_SIZE
from atelier.ink.drawing import Drawing, Stroke
from atelier.ink.render import _SUPERSAMPLE, _check_colour, _paint
from atelier.ink.replay import play, timeline

MAX_FRAMES = 36
MAX_SIZE = 480
MAX_BYTES = 2_000_000
MAX_PLAY_MS = 9000
MIN_FRAME_MS = 60
HOLD_MS = 2500
FORMATS = {"gif": "GIF", "webp": "WEBP"}


class _Canvas:
    """The ink coverage, painted stroke by stroke as the replay goes on, so
    each frame costs its new strokes, not the whole drawing again. An undo
    or clear (the strokes shown are no longer those painted, plus more)
    starts again from blank."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.big = size * _SUPERSAMPLE
        self.scale = self.big / CANVAS_SIZE
        self.done: list[Stroke] = []  # strokes painted for good (ended)
        self._blank()

    def _blank(self) -> None:
        self.mask = Image.new("L", (self.big, self.big), 0)
        self.draw = ImageDraw.Draw(self.mask)
        self.done = []

    def frame(self, strokes: list[Stroke]) -> Image.Image:
        n = len(self.done)
        if len(strokes) < n or any(a is not b for a, b in zip(strokes, self.done, strict=False)):
            self._blank()
            n = 0
        # ended strokes go on the canvas for good; an open one (only the last
        # can be) on a copy, as its end still changes while it is drawn
        ended = strokes if not strokes or strokes[-1].ended else strokes[:-1]
        for stroke in ended[n:]:
            _paint(self.draw, stroke, self.scale, 0 if stroke.tool == "eraser" else 255)
        self.done = list(ended)
        mask = self.mask
        if len(ended) < len(strokes):
            mask = self.mask.copy()
            last = strokes[-1]
            _paint(ImageDraw.Draw(mask), last, self.scale, 0 if last.tool == "eraser" else 255)
        return mask.resize((self.size, self.size), Image.Resampling.BOX)


def _frames(
    batches: Sequence[bytes], frames: int, size: int
) -> tuple[list[Image.Image], int]:
    """The ink coverage at ``frames`` evenly spaced replay times (the last at
    the end) and the replay's length in ms."""
    events = timeline(batches)
    total = events[-1].vt if events else 0
    drawing = Drawing()
    canvas = _Canvas(size)
    shots: list[Image.Image] = []
    i = 0
    for f in range(1, frames + 1):
        until = total * f // frames
        while i < len(events) and events[i].vt <= until:
            play(drawing, events[i])
            i += 1
        shots.append(canvas.frame(drawing.visible()))
    return shots, total


def _encode(
    batches: Sequence[bytes], colour: str, size: int, frames: int, fmt: str, background: str
) -> bytes:
    shots, total = _frames(batches, frames, size)
    ink = Image.new("RGB", (size, size), ImageColor.getrgb(_check_colour(colour))[:3])
    paper = ImageColor.getrgb(_check_colour(background))[:3]
    images = []
    for shot in shots:
        image = Image.new("RGB", (size, size), paper)
        image.paste(ink, (0, 0), shot)
        # two colours and their blends: a small palette keeps the GIF small
        images.append(image.quantize(colors=16) if fmt == "gif" else image)
    step = max(MIN_FRAME_MS, min(total, MAX_PLAY_MS) // max(frames, 1))
    durations = [step] * (len(images) - 1) + [HOLD_MS]
    out = io.BytesIO()
    images[0].save(
        out, format=FORMATS[fmt], save_all=True, append_images=images[1:],
        duration=durations, loop=0, **({"quality": 70} if fmt == "webp" else {}),
    )
    return out.getvalue()


def render_animation(
    batches: Sequence[bytes], colour: str, size: int = 320, fmt: str = "gif",
    frames: int = 24, background: str = "#ffffff",
) -> bytes:
    """The replay as an animated GIF or WebP, within the bounds above."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {sorted(FORMATS)}")
    size = max(64, min(MAX_SIZE, size))
    frames = max(1, min(MAX_FRAMES, frames))
    while True:
        data = _encode(batches, colour, size, frames, fmt, background)
        if len(data) <= MAX_BYTES or (frames == 1 and size <= 64):
            return data
        if frames > 1:
            frames = max(1, frames // 2)
        else:
            size = max(64, size // 2)


def main() -> None:
    """``python -m atelier.ink.animate``: how long exports take and how large they are."""
    import time

    from atelier.ink.synth import DEVICES, record

    for device, strokes in ((DEVICES[0], 60), (DEVICES[3], 300)):
        batches = record(device, strokes, seed=1).batches
        for fmt in FORMATS:
            start = time.perf_counter()
            data = render_animation(batches, "#e53935", 320, fmt)
            took = time.perf_counter() - start
            print(f"{device.name:24s} {strokes:4d} strokes  {fmt:4s} 320 px: "
                  f"{len(data) / 1000:7.1f} kB in {took:.2f} s")


if __name__ == "__main__":
    main()
