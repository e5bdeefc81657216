"""A drawing as a PNG (Pillow) or an SVG, from the batches as stored.

Strokes are painted in order on one ink layer: the pen adds ink, the eraser
takes it away (the browser's destination-out), so a pen stroke after an
eraser stroke shows again; undo and clear are applied by :class:`Drawing`
exactly as in the browser.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence

from PIL import Image, ImageColor, ImageDraw

from atelier.ink.codec import CANVAS_SIZE
from atelier.ink.drawing import Drawing, Stroke
from atelier.ink.geometry import flatten, pieces

_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
_SUPERSAMPLE = 3  # Pillow draws without anti-aliasing: draw larger, then shrink


def _check_colour(colour: str) -> str:
    if not _HEX.fullmatch(colour):
        raise ValueError(f"colour must be #rgb or #rrggbb, not {colour!r}")
    return colour


def ink_mask(strokes: Sequence[Stroke], size: int) -> Image.Image:
    """Coverage (0..255) of the ink at ``size`` pixels square."""
    big = size * _SUPERSAMPLE
    scale = big / CANVAS_SIZE
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    for stroke in strokes:
        _paint(draw, stroke, scale, 0 if stroke.tool == "eraser" else 255)
    return mask.resize((size, size), Image.Resampling.BOX)


def _paint(draw: ImageDraw.ImageDraw, stroke: Stroke, scale: float, fill: int) -> None:
    """Runs of pieces of equal width (to 1/16 of the stroke's, as stroke.js
    draws them) become one polyline with round joins and two round caps."""
    step = max(stroke.width / 16, 0.5)
    run: list[tuple[float, float]] = []
    run_w = -1.0
    for piece in pieces(stroke):
        width = max(round(piece[6] / step), 1) * step
        if width != run_w and run:
            _polyline(draw, run, run_w, scale, fill)
            run = []
        run_w = width
        # within a quarter of an output pixel of the true curve
        flat = flatten(piece, tolerance=0.25 * _SUPERSAMPLE / scale)
        run += flat if not run else flat[1:]
    if run:
        _polyline(draw, run, run_w, scale, fill)


def _polyline(
    draw: ImageDraw.ImageDraw, run: list[tuple[float, float]], width: float, scale: float, fill: int
) -> None:
    w = width * scale
    r = w / 2
    pts = [(x * scale, y * scale) for x, y in run]
    if len(pts) > 1:
        draw.line(pts, fill=fill, width=max(1, round(w)))
    # Round caps at both ends, round joins only where the line turns sharply:
    # elsewhere the wedge a plain join leaves is far below a pixel.
    caps = [pts[0], pts[-1]]
    for (ax, ay), (bx, by), (cx, cy) in zip(pts, pts[1:], pts[2:], strict=False):
        ux, uy, vx, vy = bx - ax, by - ay, cx - bx, cy - by
        if ux * vx + uy * vy < 0.94 * math.hypot(ux, uy) * math.hypot(vx, vy):  # > 20°
            caps.append((bx, by))
    for x, y in caps:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def render_png(
    batches: Sequence[bytes],
    colour: str,
    size: int = 1024,
    background: str | None = "#ffffff",
) -> bytes:
    """The drawing as PNG bytes; ``background=None`` leaves it transparent."""
    if not 16 <= size <= 4096:
        raise ValueError("size must be 16..4096 pixels")
    ink = ImageColor.getrgb(_check_colour(colour))[:3]
    mask = ink_mask(Drawing.from_batches(batches).visible(), size)
    if background is None:
        image = Image.new("RGBA", (size, size), (*ink, 0))
        image.putalpha(mask)
    else:
        image = Image.new("RGB", (size, size), ImageColor.getrgb(_check_colour(background))[:3])
        image.paste(Image.new("RGB", (size, size), ink), (0, 0), mask)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _path(stroke: Stroke, paint: str) -> str:
    """One path per run of pieces of equal (rounded) width: SVG cannot vary
    a stroke's width along a path."""
    parts: list[str] = []
    run: list[str] = []
    run_w = ""
    for ax, ay, cx, cy, bx, by, w in pieces(stroke):
        ws = _fmt(w)
        if ax == bx and ay == by and ax == cx and ay == cy:
            dot = f'cx="{_fmt(ax)}" cy="{_fmt(ay)}" r="{_fmt(w / 2)}"'
            parts.append(f'<circle {dot} fill="{paint}" stroke="none"/>')
            continue
        if ws != run_w and run:
            parts.append(f'<path d="{"".join(run)}" stroke-width="{run_w}"/>')
            run = []
        if not run:
            run.append(f"M{_fmt(ax)} {_fmt(ay)}")
        run.append(f"Q{_fmt(cx)} {_fmt(cy)} {_fmt(bx)} {_fmt(by)}")
        run_w = ws
    if run:
        parts.append(f'<path d="{"".join(run)}" stroke-width="{run_w}"/>')
    return f'<g stroke="{paint}">{"".join(parts)}</g>'


def render_svg(
    batches: Sequence[bytes],
    colour: str,
    size: int = 1024,
    background: str | None = "#ffffff",
) -> str:
    """The drawing as an SVG document; erasers become nested masks so that
    each hides only what was drawn before it."""
    paint = _check_colour(colour)
    body = ""
    masks: list[str] = []
    for stroke in Drawing.from_batches(batches).visible():
        if stroke.tool == "eraser":
            mid = f"e{len(masks)}"
            masks.append(
                f'<mask id="{mid}" maskUnits="userSpaceOnUse" x="0" y="0" '
                f'width="{CANVAS_SIZE}" height="{CANVAS_SIZE}">'
                f'<rect width="{CANVAS_SIZE}" height="{CANVAS_SIZE}" fill="#fff"/>'
                f"{_path(stroke, '#000')}</mask>"
            )
            body = f'<g mask="url(#{mid})">{body}</g>'
        else:
            body += _path(stroke, paint)
    back = ""
    if background is not None:
        fill = _check_colour(background)
        back = f'<rect width="{CANVAS_SIZE}" height="{CANVAS_SIZE}" fill="{fill}"/>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {CANVAS_SIZE} {CANVAS_SIZE}">'
        f"<defs>{''.join(masks)}</defs>{back}"
        f'<g fill="none" stroke-linecap="round" stroke-linejoin="round">{body}</g></svg>'
    )
