"""Draws the app's icons (web/icons/*.png) for the web app manifest.

    python -m atelier.tools.app_icons

The PNGs are committed rather than drawn at server start: they are part of the
client's files the service worker keeps and the version hashes
(server/pwa.py), so they must be the same bytes on every machine and every
start, and a server should not need a drawing library's fonts or time to
start. Run this again after changing the drawing.

The picture is index.html's favicon at full size: an orange disc (the palette)
with a dark brush stroke. The maskable icons keep it inside the centre 80 %
circle that every launcher's mask leaves visible, on the app's paper colour.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from PIL import Image, ImageDraw

PAPER = (253, 246, 233)  # the manifest's background and theme colour, #fdf6e9
ORANGE = (244, 162, 97)  # #f4a261
INK = (38, 70, 83)  # #264653
SUPERSAMPLE = 4  # drawn large, then scaled down: smooth edges without antialiasing support


def draw(size: int, maskable: bool) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (*PAPER, 255) if maskable else (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    # the favicon's 32-unit box: disc r=14 at (16, 16); a maskable icon's safe zone
    # is the centre circle of radius 0.4 * size, so the picture shrinks to fit it
    unit = big / 32 * (0.78 if maskable else 1.0)
    offset = (big - 32 * unit) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return offset + x * unit, offset + y * unit

    pen.ellipse([*at(2, 2), *at(30, 30)], fill=ORANGE)
    # the stroke: M9 22 c4-9 9-12 14-12, a cubic Bézier, drawn as a dense row of
    # discs (a round brush): a wide polyline shows notches at its joints
    p0, p1, p2, p3 = (9, 22), (13, 13), (18, 10), (23, 10)
    points = []
    for i in range(401):
        t = i / 400
        x = ((1 - t) ** 3 * p0[0] + 3 * (1 - t) ** 2 * t * p1[0]
             + 3 * (1 - t) * t ** 2 * p2[0] + t ** 3 * p3[0])
        y = ((1 - t) ** 3 * p0[1] + 3 * (1 - t) ** 2 * t * p1[1]
             + 3 * (1 - t) * t ** 2 * p2[1] + t ** 3 * p3[1])
        points.append(at(x, y))
    width = 3 * unit
    for x, y in points:
        pen.ellipse([x - width / 2, y - width / 2, x + width / 2, y + width / 2], fill=INK)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    folder = Path(str(resources.files("atelier") / "web" / "icons"))
    folder.mkdir(exist_ok=True)
    for size in (192, 512):
        draw(size, False).save(folder / f"icon-{size}.png", optimize=True)
        draw(size, True).save(folder / f"icon-maskable-{size}.png", optimize=True)
        print(f"icons at {size} px written to {folder}")


if __name__ == "__main__":
    main()
