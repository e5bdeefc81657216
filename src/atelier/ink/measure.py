"""Prints what ink costs on the wire: bytes per point, with timing and
pressure, for realistic strokes on common devices, next to a JSON segment
per move as many drawing games send it.

    python -m atelier.ink.measure [--strokes N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

from atelier.ink.codec import decode_batch
from atelier.ink.drawing import Drawing
from atelier.ink.synth import DEVICES, record


def _json_segment_bytes(drawing: Drawing) -> int:
    """A JSON message per line segment, like scribble.rs and many others
    (whole pixels on an 800-pixel canvas, to be fair to JSON)."""
    total = 0
    for s in drawing.visible():
        for i in range(1, len(s)):
            msg = {
                "type": "line",
                "data": {
                    "fromX": round(s.xs[i - 1] / 4096 * 800),
                    "fromY": round(s.ys[i - 1] / 4096 * 800),
                    "toX": round(s.xs[i] / 4096 * 800),
                    "toY": round(s.ys[i] / 4096 * 800),
                    "color": "#1f6feb",
                    "lineWidth": 8,
                },
            }
            total += len(json.dumps(msg, separators=(",", ":")))
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m atelier.ink.measure")
    parser.add_argument("--strokes", type=int, default=300, help="strokes per device")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{'device':<24} {'strokes':>7} {'points':>7} {'batches':>7} "
        f"{'bytes':>8} {'B/point':>7} {'pts/batch':>9} {'JSON B/pt':>9}"
    )
    all_bytes = all_points = 0
    decode_s = 0.0
    batches_total = 0
    for device in DEVICES:
        rec = record(device, args.strokes, args.seed)
        size = sum(len(b) for b in rec.batches)
        start = time.perf_counter()
        points = sum(decode_batch(b).points for b in rec.batches)
        decode_s += time.perf_counter() - start
        batches_total += len(rec.batches)
        drawing = Drawing.from_batches(rec.batches)
        json_bytes = _json_segment_bytes(drawing)
        all_bytes += size
        all_points += points
        print(
            f"{device.name:<24} {args.strokes:>7} {points:>7} {len(rec.batches):>7} {size:>8} "
            f"{size / points:>7.2f} {points / len(rec.batches):>9.1f} {json_bytes / points:>9.1f}"
        )
    print(
        f"{'all devices':<24} {'':>7} {all_points:>7} {batches_total:>7} {all_bytes:>8} "
        f"{all_bytes / all_points:>7.2f}"
    )
    print(
        f"decode_batch: {decode_s / batches_total * 1e6:.1f} µs per batch "
        f"({batches_total / decode_s:,.0f} batches/s on one core)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
