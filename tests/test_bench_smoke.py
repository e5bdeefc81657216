"""The ink benchmark runs end to end on a tiny load and prints its figures."""

from __future__ import annotations

import re
import subprocess
import sys


def test_bench_ink_prints_figures() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "atelier", "bench", "ink", "--rooms", "2", "--players", "2",
         "--seconds", "2"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert re.search(r"latency ms: p50 [\d.]+ +p95 [\d.]+ +p99 [\d.]+", out), out
    assert "errors 0, connections lost 0" in out
    payload = float(re.search(r"bytes per point: payload ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    assert 0 < payload <= 4
    assert re.search(r"server CPU: \d+% .* RSS \d+ MiB", out)
