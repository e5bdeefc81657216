"""The drawing surface in a real browser: draw with the mouse on the ink demo
page and check that the read-only echo surface got the same ink, that undo
and the eraser work, and that the canvas really shows it."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from atelier.ink.synth import DEVICES, record

pytestmark = pytest.mark.browser

# the package: the ink demo page (bench/ink_demo) loads the app's ink modules (web/ink)
ROOT = Path(__file__).resolve().parents[1] / "src" / "atelier"
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("ATELIER_ARTIFACTS", "/tmp/atelier-artifacts"))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, device_scale_factor=2)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{base_url}/bench/ink_demo/demo.html")
    pg.wait_for_function("window.demo !== undefined")
    yield pg
    context.close()
    assert not errors, errors


def _draw(page: Any, points: list[tuple[float, float]]) -> None:
    box = page.locator("#drawer .ink-surface").bounding_box()
    x0, y0, w = box["x"], box["y"], box["width"]
    page.mouse.move(x0 + points[0][0] * w, y0 + points[0][1] * w)
    page.mouse.down()
    for x, y in points[1:]:
        page.mouse.move(x0 + x * w, y0 + y * w, steps=4)
    page.mouse.up()


def _summary(page: Any, which: str) -> Any:
    return page.evaluate(
        f"""() => {{
        const d = window.demo.{which}.drawing;
        return d.visible().map(s => ({{tool: s.tool, xs: s.xs, ys: s.ys, ts: s.ts,
                                        ended: s.ended}}));
    }}"""
    )


def _inked_pixels(page: Any, which: str) -> int:
    """Pixels with ink on the surface's committed layer."""
    return int(
        page.evaluate(
            f"""() => {{
            const c = window.demo.{which}.base;
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 128) n++;
            return n;
        }}"""
        )
    )


def _settle(page: Any) -> None:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def test_drawing_reaches_the_echo_and_undo_takes_it_back(page: Any) -> None:
    zigzag = [(0.1 + 0.08 * i, 0.3 + (0.1 if i % 2 else -0.1)) for i in range(10)]
    _draw(page, zigzag)
    _draw(page, [(0.2, 0.8), (0.5, 0.7), (0.8, 0.8)])
    _settle(page)
    mine, echoed = _summary(page, "drawer"), _summary(page, "echo")
    assert len(mine) == 2 and all(s["ended"] for s in mine)
    assert mine == echoed  # the same points, times and tools, decoded from the bytes
    assert len(mine[0]["xs"]) >= 20  # every mouse move became a point
    stats = page.evaluate("window.demo.stats")
    assert stats["points"] == sum(len(s["xs"]) for s in mine)
    inked = _inked_pixels(page, "echo")
    assert inked > 1000
    assert abs(_inked_pixels(page, "drawer") - inked) < inked * 0.05

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ink-demo.png"))

    page.click("#undo")
    _settle(page)
    assert len(_summary(page, "echo")) == 1
    assert _summary(page, "drawer") == _summary(page, "echo")
    assert _inked_pixels(page, "echo") < inked

    page.click("#clear")
    _settle(page)
    assert _summary(page, "echo") == [] and _inked_pixels(page, "echo") == 0
    page.click("#undo")  # undoing the clear brings the ink back
    _settle(page)
    assert len(_summary(page, "echo")) == 1 and _inked_pixels(page, "echo") > 0


def test_the_eraser_removes_ink_on_both_sides(page: Any) -> None:
    _draw(page, [(0.1, 0.5), (0.9, 0.5)])
    _settle(page)
    before = _inked_pixels(page, "echo")
    page.click("#eraser")
    _draw(page, [(0.5, 0.2), (0.5, 0.8)])
    _settle(page)
    after = _inked_pixels(page, "echo")
    assert 0 < after < before
    assert abs(_inked_pixels(page, "drawer") - after) < before * 0.05
    assert [s["tool"] for s in _summary(page, "echo")] == ["pen", "eraser"]


def test_ink_survives_a_resize_and_exports_a_png(page: Any) -> None:
    _draw(page, [(0.2, 0.2), (0.8, 0.8)])
    _settle(page)
    page.set_viewport_size({"width": 500, "height": 800})
    _settle(page)
    _settle(page)
    assert _inked_pixels(page, "echo") > 100
    size = page.evaluate(
        "async () => { const b = await window.demo.drawer.toPNG(256); return b.size; }"
    )
    assert size > 500


def test_replay_redraws_the_same_drawing(page: Any) -> None:
    _draw(page, [(0.1, 0.1), (0.4, 0.3), (0.2, 0.6)])
    _draw(page, [(0.6, 0.6), (0.9, 0.9)])
    page.click("#undo")
    _settle(page)
    expected = _summary(page, "echo")
    done = page.evaluate("() => window.demo.echo.replay(window.demo.sent, 50)")
    assert done is True
    assert _summary(page, "echo") == expected
    _settle(page)
    assert _inked_pixels(page, "echo") > 0


def test_undo_in_a_long_drawing_redraws_exactly(page: Any) -> None:
    """Undo redraws from a snapshot of the older strokes: the picture must be
    the same as drawing the remaining strokes from scratch."""
    batches = [b.hex() for b in record(DEVICES[3], 60, seed=4).batches]
    page.evaluate(
        """(hexes) => {
        const bytes = hexes.map(h => Uint8Array.from(h.match(/../g), b => parseInt(b, 16)));
        window.demo.drawer.load(bytes);
        window.loaded = bytes;
    }""",
        batches,
    )
    _settle(page)
    for _ in range(3):
        page.click("#undo")
        _settle(page)
    page.evaluate(
        """async () => {
        const { InkViewer } = await import('../../web/ink/surface.js');
        const host = document.createElement('div');
        host.style.width = document.querySelector('#drawer').clientWidth + 'px';
        document.body.appendChild(host);
        window.fresh = new InkViewer(host, { colour: window.demo.drawer.opts.colour, maxDpr: 3 });
        window.fresh.load([...window.loaded, ...window.demo.sent]);
    }"""
    )
    _settle(page)
    assert page.evaluate("window.demo.drawer.drawing.visible().length") == 57
    differing, total = page.evaluate(
        """() => {
        const a = window.demo.drawer.base, b = window.fresh.base;
        if (a.width !== b.width) return [-1, 0];
        const da = a.getContext('2d').getImageData(0, 0, a.width, a.height).data;
        const db = b.getContext('2d').getImageData(0, 0, b.width, b.height).data;
        let n = 0;
        for (let i = 3; i < da.length; i += 4) if (Math.abs(da[i] - db[i]) > 8) n++;
        return [n, da.length / 4];
    }"""
    )
    assert 0 <= differing < total * 0.001


def test_a_second_finger_and_a_resting_palm_do_not_draw(browser: Any, base_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 400, "height": 700}, has_touch=True, is_mobile=True
    )
    pg = context.new_page()
    pg.goto(f"{base_url}/bench/ink_demo/demo.html")
    pg.wait_for_function("window.demo !== undefined")
    box = pg.locator("#drawer .ink-surface").bounding_box()
    touch_action = pg.evaluate(
        "getComputedStyle(document.querySelector('#drawer .ink-surface')).touchAction"
    )
    assert touch_action == "none"
    echo_touch = pg.evaluate(
        "getComputedStyle(document.querySelector('#echo .ink-surface')).touchAction"
    )
    assert echo_touch == "manipulation"  # read-only drawings let the page scroll
    # two pointers at once through the surface's own handlers
    pg.evaluate(
        """([x, y]) => {
        const el = document.querySelector('#drawer .ink-surface');
        const ev = (type, id, dx, dy) => new PointerEvent(type, {pointerId: id,
            pointerType: 'touch', clientX: x + dx, clientY: y + dy, isPrimary: id === 1,
            bubbles: true, cancelable: true,
            pressure: 0.5, buttons: 1});
        el.dispatchEvent(ev('pointerdown', 1, 20, 20));
        el.dispatchEvent(ev('pointerdown', 2, 200, 200));
        el.dispatchEvent(ev('pointermove', 2, 220, 220));
        el.dispatchEvent(ev('pointermove', 1, 60, 40));
        el.dispatchEvent(ev('pointerup', 2, 220, 220));
        el.dispatchEvent(ev('pointerup', 1, 60, 40));
    }""",
        [box["x"], box["y"]],
    )
    strokes = pg.evaluate("window.demo.drawer.drawing.visible().map(s => s.xs.length)")
    assert strokes == [2]  # the first finger's down and move (its up repeats the move)

    # once a pen is in use, a touch is the palm resting on the screen
    pg.evaluate(
        """([x, y]) => {
        const el = document.querySelector('#drawer .ink-surface');
        const ev = (type, id, kind, dx) => new PointerEvent(type, {pointerId: id, pointerType: kind,
            clientX: x + dx, clientY: y + 100, bubbles: true, cancelable: true, pressure: 0.7,
            buttons: 1});
        el.dispatchEvent(ev('pointerdown', 7, 'pen', 10));
        el.dispatchEvent(ev('pointermove', 7, 'pen', 90));
        el.dispatchEvent(ev('pointerup', 7, 'pen', 90));
        el.dispatchEvent(ev('pointerdown', 8, 'touch', 150));
        el.dispatchEvent(ev('pointermove', 8, 'touch', 190));
        el.dispatchEvent(ev('pointerup', 8, 'touch', 190));
    }""",
        [box["x"], box["y"]],
    )
    kinds = pg.evaluate("window.demo.drawer.drawing.visible().map(s => s.pressure)")
    assert kinds == [False, True]  # the pen's stroke, with its pressure; no palm stroke
    context.close()


ALPHA_JS = """([x0, x1]) => {
  const out = [];
  for (const c of document.querySelectorAll('#drawer .ink-surface canvas')) {
    if (!c.width) continue;
    const ctx = c.getContext('2d');
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const alpha = [];
    for (let y = 0; y < c.height; y++) {
      for (let x = Math.floor(x0 * c.width); x < Math.floor(x1 * c.width); x++) {
        alpha.push(data[(y * c.width + x) * 4 + 3]);
      }
    }
    out.push(alpha);
  }
  return out;
}"""


def test_a_live_line_has_no_seams(page: Any) -> None:
    """A straight line drawn slowly arrives in many frames; while the pen is
    still down it must look exactly as it does once finished (painted in
    pieces, the anti-aliased edges where two paints met were covered twice:
    faint seams and blobs along the line)."""
    box = page.locator("#drawer .ink-surface").bounding_box()
    x0, y0, w = box["x"], box["y"], box["width"]
    page.mouse.move(x0 + 0.1 * w, y0 + 0.5 * w + 0.3)
    page.mouse.down()
    for i in range(1, 80):
        page.mouse.move(x0 + (0.1 + 0.8 * i / 80) * w, y0 + 0.5 * w + 0.3 + 0.01 * (i % 3))
        if i % 2 == 0:  # a frame between batches, as on a real device
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))")
    region = [0.15, 0.6]  # well behind the pen: these pieces are final
    live = [a for a in page.evaluate(ALPHA_JS, region) if any(a)]
    page.mouse.up()
    page.wait_for_function(
        """() => [...document.querySelectorAll('#drawer .ink-surface canvas')]
             .filter((c) => c.width && c.getContext('2d').getImageData(0, 0, c.width, c.height)
             .data.some((v, i) => i % 4 === 3 && v > 0)).length === 1""")
    done = [a for a in page.evaluate(ALPHA_JS, region) if any(a)]
    assert len(live) == 1 and len(done) == 1
    differ = sum(1 for a, b in zip(live[0], done[0], strict=True) if abs(a - b) > 2)
    assert differ == 0, f"{differ} pixels differ between the live and the finished line"
