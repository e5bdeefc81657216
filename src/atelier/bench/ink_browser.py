"""Prints what drawing costs in a real browser (Debian's chromium):

- six live InkViewers on a phone-sized page, the CPU slowed down 4x like a
  mid-range phone, each receiving a drawing as it is drawn (a batch every
  50 ms): the main-thread time spent drawing per animation frame;
- undo in a long drawing: the frame after an undo, from the snapshot and
  (for comparison) redrawing every stroke.

    python -m atelier.bench.ink_browser [--seconds S] [--strokes N]

Needs the dev dependency playwright and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from atelier.ink.synth import DEVICES, record

ROOT = Path(__file__).resolve().parents[1]
"""The package: the demo page (bench/ink_demo) loads the app's own ink modules (web/ink)."""
CHROMIUM = "/usr/bin/chromium"

_SETUP = """
async ({ drawings, longDrawing }) => {
  const { InkViewer, InkSurface } = await import('../../web/ink/surface.js');
  const hex = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
  document.body.innerHTML = '<div id=grid style="display:grid;grid-template-columns:1fr 1fr;' +
    'gap:4px;width:100%"></div>';
  const frameTimes = [];
  const original = InkSurface.prototype._frame;
  InkSurface.prototype._frame = function () {
    const t0 = performance.now();
    original.call(this);
    const spent = performance.now() - t0;
    const work = (window.frameWork ??= new Map());
    work.set(window.frameNo, (work.get(window.frameNo) ?? 0) + spent);
  };
  window.frameNo = 0;
  const tick = () => { window.frameNo++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.viewers = drawings.map((batches, i) => {
    const host = document.createElement('div');
    document.getElementById('grid').appendChild(host);
    return { viewer: new InkViewer(host, { colour: '#1f6feb' }), batches: batches.map(hex) };
  });
  window.longDrawing = longDrawing.map(hex);
  window.InkSurface = InkSurface;
}
"""

_LIVE = """
async (seconds) => {
  window.frameWork = new Map();
  const startFrame = window.frameNo;
  const t0 = performance.now();
  let i = 0;
  await new Promise((done) => {
    const timer = setInterval(() => {
      for (const v of window.viewers) if (i < v.batches.length) v.viewer.applyRemote(v.batches[i]);
      i++;
      if (performance.now() - t0 > seconds * 1000) { clearInterval(timer); done(); }
    }, 50);
  });
  const frames = window.frameNo - startFrame;
  const work = [...window.frameWork.values()];
  const points = window.viewers.reduce((n, v) =>
    n + v.viewer.drawing.visible().reduce((m, s) => m + s.xs.length, 0), 0);
  const batches = i * window.viewers.length;
  return { frames, elapsed: performance.now() - t0, work, batches, points };
}
"""

_UNDO = """
async () => {
  const host = document.createElement('div');
  host.style.width = '360px';
  document.body.appendChild(host);
  const s = new window.InkSurface(host, { colour: '#222', maxDpr: 3 });
  window.s = s;
  s.load(window.longDrawing);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const timeFrame = () => {
    const t0 = performance.now();
    s._frame();
    return performance.now() - t0;
  };
  const fromSnapshot = [], fromScratch = [];
  for (let i = 0; i < 5; i++) {
    s.drawing.undo(0);
    fromSnapshot.push(timeFrame());
  }
  for (let i = 0; i < 5; i++) {
    s.drawing.undo(0);
    s._snap = null;
    fromScratch.push(timeFrame());
  }
  const strokes = s.drawing.visible().length;
  const px = s.base.width;
  return { fromSnapshot, fromScratch, strokes, px };
}
"""


def _serve() -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(ROOT))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def _ms(values: Sequence[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms, max {ordered[-1]:.2f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m atelier.bench.ink_browser")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of the live part")
    parser.add_argument("--strokes", type=int, default=1000, help="strokes in the long drawing")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slow-down (phone-like)")
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("needs playwright (pip install -e '.[dev]')")
        return 2
    drawings = [
        [b.hex() for b in record(DEVICES[i % len(DEVICES)], 60, seed=i).batches] for i in range(6)
    ]
    long_drawing = [b.hex() for b in record(DEVICES[3], args.strokes, seed=9).batches]
    server, url = _serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True
            )
            page = context.new_page()
            page.goto(f"{url}/bench/ink_demo/demo.html")
            page.wait_for_function("window.demo !== undefined")
            page.evaluate(_SETUP, {"drawings": drawings, "longDrawing": long_drawing})
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            live = page.evaluate(_LIVE, args.seconds)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            undo = page.evaluate(_UNDO)
            browser.close()
    finally:
        server.shutdown()
    fps = live["frames"] / (live["elapsed"] / 1000)
    print(f"six live viewers, 390x844 CSS px at 3x, CPU slowed {args.throttle:g}x:")
    print(f"  {live['batches']} batches, {live['points']} points drawn in {args.seconds:g} s")
    print(f"  {fps:.0f} frames/s; drawing work per frame: {_ms(live['work'])}")
    print(
        f"undo in a drawing of {undo['strokes']} strokes on a {undo['px']}x{undo['px']} canvas "
        "(CPU not slowed):"
    )
    print(f"  from the snapshot: {_ms(undo['fromSnapshot'])}")
    print(f"  redrawing every stroke: {_ms(undo['fromScratch'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
