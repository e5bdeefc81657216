"""Drawings as PNG and SVG, with undo, clear and the eraser applied as in the
browser; and replays in time."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from atelier.ink.codec import Begin, Clear, End, Points, Undo, encode_batch
from atelier.ink.record import InkRecorder
from atelier.ink.render import render_png, render_svg
from atelier.ink.replay import MAX_GAP_MS, drawing_at, duration_ms, timeline
from atelier.ink.synth import DEVICES, record


def _line(x0: int, y0: int, x1: int, y1: int, t: int, tool: str = "pen", width: int = 80) -> bytes:
    steps = 20
    dx, dy = (x1 - x0) // steps, (y1 - y0) // steps
    return encode_batch([Begin(tool, width, x0, y0, t), Points((dx, dy, 10, 0) * steps), End()])


def _ink(png: bytes) -> int:
    """Pixels that are mostly ink (the colour is pure red on white)."""
    data = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    return sum(
        1 for i in range(0, len(data), 3) if data[i] > 200 and data[i + 1] < 80 and data[i + 2] < 80
    )


HORIZONTAL = _line(400, 2000, 3600, 2000, 0)
VERTICAL = _line(2000, 400, 2000, 3600, 500)


def test_png_has_the_asked_size_and_shows_the_ink() -> None:
    png = render_png([HORIZONTAL], "#ff0000", size=256)
    image = Image.open(io.BytesIO(png))
    assert image.size == (256, 256) and image.format == "PNG"
    # a line 80/4096 of the width thick and 3200/4096 long: about 4 x 200 pixels
    assert 400 < _ink(png) < 1600
    assert _ink(render_png([], "#ff0000", size=256)) == 0
    transparent = Image.open(io.BytesIO(render_png([HORIZONTAL], "#f00", 64, background=None)))
    corner = transparent.getpixel((0, 0))
    assert transparent.mode == "RGBA" and isinstance(corner, tuple) and corner[3] == 0


def test_undo_and_clear_are_applied() -> None:
    both = render_png([HORIZONTAL, VERTICAL], "#ff0000", size=200)
    one = render_png([HORIZONTAL], "#ff0000", size=200)
    assert _ink(both) > _ink(one)
    assert render_png([HORIZONTAL, VERTICAL, encode_batch([Undo(900)])], "#ff0000", 200) == one
    cleared = [HORIZONTAL, VERTICAL, encode_batch([Clear(900)])]
    assert _ink(render_png(cleared, "#ff0000", 200)) == 0
    restored = [*cleared, encode_batch([Undo(950)])]
    assert render_png(restored, "#ff0000", 200) == both


def test_the_eraser_takes_ink_away_and_later_ink_shows_again() -> None:
    before = _ink(render_png([HORIZONTAL], "#ff0000", 200))
    rubbed = [HORIZONTAL, _line(2000, 400, 2000, 3600, 500, "eraser", 400)]
    after = _ink(render_png(rubbed, "#ff0000", 200))
    assert after < before - 10
    redrawn = _ink(render_png([*rubbed, _line(400, 2000, 3600, 2000, 900)], "#ff0000", 200))
    assert redrawn == pytest.approx(before, rel=0.03)


def test_svg_has_the_strokes_and_masks_the_eraser() -> None:
    svg = render_svg([HORIZONTAL, _line(2000, 400, 2000, 3600, 500, "eraser", 400)], "#ff0000")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('<mask id="e0"') == 1 and 'mask="url(#e0)"' in svg
    assert 'stroke="#ff0000"' in svg
    assert render_svg([HORIZONTAL, encode_batch([Undo(900)])], "#ff0000").count("<path") == 0
    with pytest.raises(ValueError):
        render_svg([HORIZONTAL], '"/><script>')


def test_a_realistic_drawing_renders_to_both_formats() -> None:
    rec = record(DEVICES[1], 25)
    png = render_png(rec.batches, "#1f6feb", size=512)
    assert 2000 < len(png) < 200_000
    assert "<path" in render_svg(rec.batches, "#1f6feb")


def test_replay_keeps_the_timing_and_shortens_long_pauses() -> None:
    rec = InkRecorder()
    rec.begin("pen", 20, 100, 100, 0)
    for i in range(1, 11):
        rec.point(100 + 10 * i, 100, 8 * i)
    rec.end()
    rec.begin("pen", 20, 500, 500, 60_000)  # a minute of thinking
    rec.point(520, 500, 60_016)
    rec.end()
    events = timeline(rec.batches)
    assert [e.t for e in events[:11]] == [8 * i for i in range(11)]
    assert events[-1].t == 60_016
    assert duration_ms(rec.batches) == 80 + MAX_GAP_MS + 16
    halfway = drawing_at(rec.batches, 40)
    assert len(halfway.visible()) == 1 and len(halfway.visible()[0]) == 6
    assert len(drawing_at(rec.batches, 10**9).visible()) == 2
