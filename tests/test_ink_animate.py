"""The animated replay: frames follow the drawing in time, and every bound
(frames, pixels, bytes) holds however large the drawing."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageSequence

from atelier.ink import animate
from atelier.ink.synth import DEVICES, record


def inked(frame: Image.Image) -> int:
    grey = frame.convert("L")
    return sum(grey.histogram()[:200])


def test_frames_show_the_drawing_growing() -> None:
    batches = record(DEVICES[0], 8, seed=3).batches
    data = animate.render_animation(batches, "#1e88e5", size=128, fmt="gif", frames=6)
    frames = [f.copy() for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]
    assert len(frames) == 6
    counts = [inked(f) for f in frames]
    assert counts[0] < counts[-1] and counts == sorted(counts)


@pytest.mark.parametrize("fmt", ["gif", "webp"])
def test_bounds_hold(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    batches = record(DEVICES[2], 12, seed=4).batches
    data = animate.render_animation(batches, "#e53935", size=10_000, fmt=fmt, frames=500)
    image = Image.open(io.BytesIO(data))
    assert image.size == (animate.MAX_SIZE, animate.MAX_SIZE)
    assert getattr(image, "n_frames", 1) <= animate.MAX_FRAMES and len(data) <= animate.MAX_BYTES
    # a tight byte budget: fewer frames, then fewer pixels, until it fits
    monkeypatch.setattr(animate, "MAX_BYTES", 6000)
    small = animate.render_animation(batches, "#e53935", size=256, fmt=fmt, frames=24)
    assert len(small) <= 6000


def test_unknown_format_refused() -> None:
    with pytest.raises(ValueError):
        animate.render_animation([], "#000000", fmt="bmp")


def test_each_frame_is_the_drawing_at_its_time() -> None:
    """The canvas painted stroke by stroke equals drawing every frame afresh,
    through undo and clear."""
    from atelier.ink.record import InkRecorder
    from atelier.ink.render import ink_mask
    from atelier.ink.replay import drawing_at

    rec = InkRecorder()
    t = 0
    for s in range(9):
        rec.begin("eraser" if s == 4 else "pen", 60, 300 + 300 * s, 500, t)
        for i in range(30):
            t += 17
            rec.point(300 + 300 * s + 40 * i, 500 + 90 * i, t)
        rec.end()
        t += 200
        if s == 2:
            rec.undo(t)
        if s == 6:
            rec.clear(t)
        if s == 7:
            rec.undo(t)  # the clear taken back
    batches = rec.batches
    shots, total = animate._frames(batches, 12, 96)
    for f, shot in enumerate(shots, 1):
        ref = ink_mask(drawing_at(batches, total * f // 12).visible(), 96)
        assert shot.tobytes() == ref.tobytes(), f
