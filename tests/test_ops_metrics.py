"""``atelier serve --metrics-listen``: a real Prometheus (Debian's package) scrapes
a running server, and its query API returns the rooms and connections the test
opened; ``promtool check metrics`` accepts the exposition."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from atelier.metrics import LoopHistogram
from support.client import Client, open_client, seated_room
from support.ink import stroke
from support.server import ServerProcess, create_room, free_port, wait_until


def _binary(name: str) -> str:
    found = shutil.which(name) or f"/usr/bin/{name}"
    assert os.path.exists(found), f"{name} is missing: ./run test installs Debian's prometheus"
    return found


def scrape(port: int) -> str:
    return httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text


def sample(text: str, name: str, labels: str = "") -> float | None:
    """The value of one series in an exposition (``labels``: ``{a="b"}`` as printed)."""
    for line in text.splitlines():
        if line.startswith(name + labels + " "):
            return float(line.rsplit(" ", 1)[1])
    return None


@pytest.fixture
def prometheus(tmp_path: Path) -> Iterator[Callable[[list[int]], str]]:
    """A Prometheus scraping the given ports every second; yields its HTTP address."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(ports: list[int]) -> str:
        web = free_port()
        targets = ", ".join(f'"127.0.0.1:{p}"' for p in ports)
        (tmp_path / "prometheus.yml").write_text(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
            "scrape_configs:\n  - job_name: atelier\n"
            f"    static_configs:\n      - targets: [{targets}]\n")
        log = open(tmp_path / "prometheus.log", "wb")  # noqa: SIM115 (closed with the process)
        procs.append(subprocess.Popen(
            [_binary("prometheus"), f"--config.file={tmp_path / 'prometheus.yml'}",
             f"--storage.tsdb.path={tmp_path / 'tsdb'}",
             f"--web.listen-address=127.0.0.1:{web}"], stdout=log, stderr=log))
        return f"http://127.0.0.1:{web}"

    yield start
    for proc in procs:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def query(base: str, promql: str) -> list[dict[str, object]]:
    try:
        reply = httpx.get(base + "/api/v1/query", params={"query": promql}, timeout=5)
    except httpx.HTTPError:
        return []
    if reply.status_code != 200:
        return []
    result: list[dict[str, object]] = reply.json()["data"]["result"]
    return result


def value(base: str, promql: str) -> float | None:
    found = query(base, promql)
    return float(found[0]["value"][1]) if found else None  # type: ignore[index]


async def test_prometheus_scrapes_rooms_and_connections(
        server_factory: Callable[..., ServerProcess], clients: list[Client],
        prometheus: Callable[[list[int]], str]) -> None:
    port = free_port()
    srv = server_factory("--metrics-listen", f"127.0.0.1:{port}")
    # the public port serves no metrics
    assert httpx.get(srv.http + "/metrics").status_code == 404
    code, players = await seated_room(clients, srv, n=3)
    watcher = await open_client(clients, srv, code)  # a spectator
    lobby = create_room(srv.http)
    await open_client(clients, srv, lobby)  # someone looking at a lobby
    await players[0].send(stroke())  # ink in (seen by nobody else yet: the words are hidden)
    await players[0].sync()
    bad = await players[1].request({"t": "act", "action": {"type": "nonsense"}})
    assert bad["t"] == "error"

    base = prometheus([port])
    await wait_until(lambda: value(base, 'up{job="atelier"}') == 1.0, 60, "target up")
    await wait_until(lambda: value(base, "atelier_connections") == 5.0, 30, "5 connections")
    assert value(base, "atelier_spectators") == 2.0
    await wait_until(lambda: value(base, 'atelier_rooms_loaded{game="secrets",phase="playing"}')
                     == 1.0, 30, "the playing room")
    assert value(base, 'atelier_rooms_loaded{game="secrets",phase="lobby"}') == 1.0
    assert value(base, "atelier_hellos_total") == 5.0
    assert value(base, 'atelier_messages_in_total{type="join"}') == 3.0
    assert (value(base, 'atelier_refusals_total{code="bad_action"}') or 0) >= 1.0
    assert value(base, "atelier_ink_frames_in_total") == 1.0
    assert (value(base, "atelier_commit_seconds_count") or 0) >= 4  # 3 joins and a start
    await wait_until(lambda: (value(base, "atelier_event_loop_lag_seconds_count") or 0) > 0,
                     30, "loop lag sampled")

    # a spectator leaves: the next scrapes say so
    await watcher.close()
    await wait_until(lambda: value(base, "atelier_spectators") == 1.0, 30, "a spectator left")


async def test_exposition_passes_promtool_and_counts_ink_out(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    port = free_port()
    srv = server_factory("--metrics-listen", f"127.0.0.1:{port}")
    _, players = await seated_room(clients, srv, n=2)
    for p in players:  # both done: the reveal, where everyone sees every drawing
        await p.send(stroke())
        await p.sync()
    before = sample(scrape(port), "atelier_ink_frames_out_total") or 0.0
    for p in players:
        assert (await p.act(type="done"))["t"] == "ack"
    await players[0].state(lambda m: m["game"]["phase"] == "reveal")
    text = scrape(port)
    checked = subprocess.run([_binary("promtool"), "check", "metrics"], input=text.encode(),
                             capture_output=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert (sample(text, "atelier_ink_frames_in_total") or 0) == 2.0
    assert (sample(text, "atelier_ink_bytes_in_total") or 0) == 2 * len(stroke())
    # at the reveal each player is sent the other's drawing (one batch each)
    assert sample(text, "atelier_ink_frames_out_total") == before + 2
    for name in ("atelier_engine_jobs_queued", "atelier_engine_jobs_running",
                 "atelier_engine_job_seconds_count", "atelier_pushes_sent_total",
                 "atelier_ink_relay_delay_seconds_count", "atelier_store_errors_total",
                 "atelier_hub_errors_total", "process_cpu_seconds_total"):
        assert name in text or f"# TYPE {name.removesuffix('_total')}" in text, name


async def test_each_worker_serves_its_own_metrics(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    """--workers 2: worker k on PORT+k; together they hold every room and connection."""
    port = free_port()
    while True:  # PORT+1 must be free too
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
            break
        except OSError:
            port = free_port()
    srv = server_factory("--workers", "2", "--metrics-listen", f"127.0.0.1:{port}")
    codes = [create_room(srv.http) for _ in range(6)]
    for code in codes:
        await open_client(clients, srv, code)

    def total(name: str) -> float:
        found = 0.0
        for k in (0, 1):
            try:
                found += sample(scrape(port + k), name) or 0.0
            except httpx.HTTPError:
                return -1.0
        return found

    await wait_until(lambda: total("atelier_connections") == 6.0, 60, "6 connections")
    assert total("atelier_hellos_total") == 6.0


def test_the_lock_free_histogram_reads_as_a_prometheus_histogram() -> None:
    h = LoopHistogram("atelier_test_seconds", "a test", (0.01, 0.1))
    for v in (0.005, 0.05, 0.05, 3.0):
        h.observe(v)
    class One(Collector):
        def collect(self) -> Iterator[Metric]:
            yield h.metric()

    registry = CollectorRegistry()
    registry.register(One())
    text = generate_latest(registry).decode()
    assert sample(text, "atelier_test_seconds_bucket", '{le="0.01"}') == 1.0
    assert sample(text, "atelier_test_seconds_bucket", '{le="0.1"}') == 3.0
    assert sample(text, "atelier_test_seconds_bucket", '{le="+Inf"}') == 4.0
    assert sample(text, "atelier_test_seconds_count") == 4.0
    assert sample(text, "atelier_test_seconds_sum") == 3.105
    checked = subprocess.run([_binary("promtool"), "check", "metrics"], input=text.encode(),
                             capture_output=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
