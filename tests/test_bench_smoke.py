"""The ink benchmark runs end to end on a tiny load and prints its figures."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest


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


# Refuses the packages only the `dev` extra installs, as a plain `pip install atelier` would.
_PLAIN_INSTALL = """
import sys

import pytest
DEV_ONLY = {"httpx", "pytest", "hypothesis", "playwright", "websockets"}
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in DEV_ONLY:
            raise ImportError(f"{name} is not part of a plain install")
        return None
sys.meta_path.insert(0, Refuse())
from atelier.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_bench_needs_only_a_plain_install() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PLAIN_INSTALL, "bench", "ink", "--rooms", "1", "--players", "2",
         "--seconds", "1", "--load-processes", "1"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "connections lost 0" in done.stdout


def test_bench_floor_compares_with_the_lean_relay() -> None:
    out = subprocess.run(
        # enough ink that each server's CPU time is some clock ticks (10 ms each)
        [sys.executable, "-m", "atelier", "bench", "ink", "--floor", "--rooms", "2",
         "--players", "3", "--seconds", "2", "--load-processes", "1"],
        capture_output=True, text=True, timeout=180, check=True,
    ).stdout
    assert "== floor ==" in out and "== atelier ==" in out
    assert out.count("errors 0, connections lost 0") == 2, out
    assert re.search(r"CPU per 1,000 frames relayed: [\d.]+ ms / [\d.]+ ms = [\d.]+x", out)
    assert re.search(r"p99 delivery: [\d.]+ ms / [\d.]+ ms = [\d.]+x", out)


def test_bench_rooms_prints_memory_figures() -> None:
    out = subprocess.run(  # from a plain install too
        [sys.executable, "-c", _PLAIN_INSTALL, "bench", "rooms", "--rooms", "5",
         "--generations", "1", "--unload-idle", "0.5"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    assert re.search(r"generation 1: 5 finished rooms loaded .* RSS [\d.]+ MiB", out), out
    assert re.search(r"generation 1: all unloaded [\d.]+ s after the players left", out), out
    assert "read back from the log" in out


@pytest.mark.parametrize("where", [[], ["--socket"]], ids=["path", "socket"])
def test_bench_inkpath_takes_every_batch(where: list[str]) -> None:
    out = subprocess.run(  # a batch refused or left waiting ends it with an error
        [sys.executable, "-c", _PLAIN_INSTALL.replace("atelier.cli", "atelier.bench.inkpath"),
         "--rooms", "2", "--players", "3", "--rounds", "50", "--repeat", "2", *where],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert re.fullmatch(r"atelier: [\d.]+ us per batch \(runs: [\d.]+, [\d.]+\)\n"
                        r"floor: +[\d.]+ us per batch \(runs: [\d.]+, [\d.]+\)\n"
                        r"300 batches a run, each to 2 players; atelier / floor = [\d.]+x, "
                        r"-?[\d.]+ us a batch more\n", out), out


def test_bench_restart_prints_figures_and_loses_nothing() -> None:
    """A rolling restart under a tiny load: every line printed, nothing acked lost."""
    done = subprocess.run(
        [sys.executable, "-m", "atelier", "bench", "restart", "--rooms", "2", "--before", "1",
         "--after", "1"], capture_output=True, text=True, timeout=600)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr[-2000:]
    assert re.search(r"acked actions lost: 0 of [1-9]\d*", out), out
    assert re.search(r"ink lost: 0 of [1-9]\d* batches", out), out
    assert re.search(r"reconnects: 4; .* longest \d+ ms", out), out


def test_bench_push_prints_its_figures() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "atelier", "bench", "push", "--pushes", "20",
         "--concurrency", "4", "--moves", "3"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    assert re.search(r"send: 20 pushes in [\d.]+ s = \d+ pushes/s .* 0 failed", out), out
    assert re.search(r"latency: .* 3 moves: median [\d.]+ ms", out), out


def test_bench_mixed_prints_the_bystanders_figures() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "atelier", "bench", "mixed", "--seconds", "4", "--drawing", "1",
         "--hard", "1", "--addresses", "2", "--think", "0.5", "--rounds", "2",
         "--baseline-drawing"],
        capture_output=True, text=True, timeout=600, check=True,
    ).stdout
    for figure in ("room ping round trip", "ink round trip", "hard computer's reply"):
        assert re.search(rf"{figure} +p50 +[\d.]+ -> +[\d.]+ ms +p99", out), out
    assert re.search(r"hints: alone \d+ answered, 0 refused; under load \d+ answered, 0 refused",
                     out), out
    assert "FAILED" not in out
    assert re.search(r"the flood's answers: .*429: \d+", out), out
    # two rounds pooled, each round's p99 shown beside the others
    assert re.search(r"pings p99 by round, alone: [\d.]+, [\d.]+; under load: [\d.]+, [\d.]+ ms",
                     out), out
