"""What a running server counts, for Prometheus (``atelier serve --metrics-listen``).

Every metric is defined here, once, so each part of the server increments a
name it imports rather than defining its own. Who increments what:

- the room socket (``server/session.py``): ``HELLOS``, ``MESSAGES_IN`` by type,
  ``REFUSALS`` by error code;
- the ink path (``server/ink/intake.py`` in, ``server/ink/relay.py`` out):
  ``INK``, plain integers added to per batch. A batch is the busiest thing the
  server does, so it takes no lock and makes no call: the totals are read when
  Prometheus scrapes (:class:`ScrapeTime`). ``INK_RELAY_DELAY`` is observed
  once per bundle tick (its wait for the write included), not per frame, into a
  lock-free :class:`LoopHistogram`;
- commits (``server/room/rooms.py``): ``COMMIT_SECONDS``; ``STORE_ERRORS`` where
  a write or a read of the log fails; ``HUB_ERRORS`` in ``hub/redis_hub.py``;
- the event loop's lag: ``LoopLag`` (a task started with the metrics server);
- engine work (hints, reviews, computer moves): ``ENGINE_QUEUED``,
  ``ENGINE_RUNNING``, ``ENGINE_SECONDS`` and ``ENGINE_JOBS`` by outcome
  (done, failed, refused), set by the engine pool (``server/engine/pool.py``)
  for every job it admits and runs;
- push notifications (issue 30): ``PUSHES_SENT`` and ``PUSHES_FAILED`` (by a
  short reason such as ``gone``, ``refused``, ``timeout``), incremented by the
  push sender once per push it hands to a push service. Defined here so that
  work only has to call ``.inc()``.

Gauges of what a process holds (rooms by game and phase, connections,
spectators) are counted at scrape time from the rooms themselves
(:class:`ScrapeTime`), so nothing has to keep them in step.

No label ever carries a room code, a player, a token or a word: labels are
drawn from small fixed sets (message types, error codes, game names, phases).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from bisect import bisect_left
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

# Seconds, from a local commit (under a millisecond) to a slow database.
_SHORT = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# Engine jobs: a computer move or a hint in milliseconds (the engine compiled), a
# review in a quarter of a second; fifty times both without the compiled parts.
_ENGINE = (0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

HELLOS = Counter("atelier_hellos", "Room sockets that said hello and joined a room")
MESSAGES_IN = Counter("atelier_messages_in", "Text messages received on room sockets, by type",
                      ["type"])
REFUSALS = Counter("atelier_refusals", "Refusals sent to clients, by error code", ["code"])
COMMIT_SECONDS = Histogram("atelier_commit_seconds",
                           "From deciding a change to it being in the log and applied",
                           buckets=_SHORT)
LOOP_LAG = Histogram("atelier_event_loop_lag_seconds",
                     "How late the event loop ran a timer (sampled twice a second)",
                     buckets=_SHORT)
STORE_ERRORS = Counter("atelier_store_errors", "Failed reads or writes of the log, by operation",
                       ["op"])
HUB_ERRORS = Counter("atelier_hub_errors", "Failures talking to Redis, by what failed", ["op"])
ENGINE_QUEUED = Gauge("atelier_engine_jobs_queued", "Engine jobs waiting for a worker")
ENGINE_RUNNING = Gauge("atelier_engine_jobs_running", "Engine jobs a worker is computing")
ENGINE_SECONDS = Histogram("atelier_engine_job_seconds",
                           "An engine job from being queued to its answer", buckets=_ENGINE)
ENGINE_JOBS = Counter("atelier_engine_jobs",
                      "Engine jobs by outcome (done, failed, refused)", ["outcome"])
PUSHES_SENT = Counter("atelier_pushes_sent", "Push notifications a push service accepted")
PUSHES_FAILED = Counter("atelier_pushes_failed", "Push notifications that failed, by reason",
                        ["reason"])


@dataclass
class InkTally:
    """Ink in and out of this process: plain integers, added to off the ink
    path's per-batch work where it can be (the batches in once they are written,
    a sync's frames), and what is counted elsewhere, read from ``sources`` when
    Prometheus scrapes: the frames the relay spread to bundles, counted in C,
    and the batches taken but not yet written."""

    frames_in: int = 0
    bytes_in: int = 0
    frames_out: int = 0
    bytes_out: int = 0
    sources: list[Callable[[], tuple[int, int, int, int]]] = field(default_factory=list)
    """Each gives (frames in, bytes in, frames out, bytes out) to add."""

    def totals(self) -> tuple[int, int, int, int]:
        counts = [self.frames_in, self.bytes_in, self.frames_out, self.bytes_out]
        for source in self.sources:
            for k, more in enumerate(source()):
                counts[k] += more
        return counts[0], counts[1], counts[2], counts[3]


INK = InkTally()


class LoopHistogram:
    """A histogram for the event loop's own thread: a bisect and two additions per
    observation, no lock (prometheus_client's takes one, several microseconds on a
    busy machine, too much for a path run 25 times a second per drawing room).
    Read at scrape time (:class:`ScrapeTime`), on the same thread."""

    def __init__(self, name: str, about: str, bounds: tuple[float, ...]) -> None:
        self.name, self.about, self.bounds = name, about, bounds
        self.counts = [0] * (len(bounds) + 1)  # the last: above every bound
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value

    def metric(self) -> HistogramMetricFamily:
        cumulative, running = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += count
            cumulative.append(("+Inf" if bound == float("inf") else repr(bound), running))
        return HistogramMetricFamily(self.name, self.about, buckets=cumulative,
                                     sum_value=self.sum)


INK_RELAY_DELAY = LoopHistogram(
    "atelier_ink_relay_delay_seconds",
    "From a bundle's first ink batch being accepted to the bundle going out", _SHORT)


class ScrapeTime(Collector):
    """What is counted when Prometheus asks: the ink totals, and the rooms and
    connections of the process's room manager (set by the app at start)."""

    def __init__(self) -> None:
        self.rooms: Any = None  # atelier.server.room.rooms.Rooms (not imported: no cycle)

    def collect(self) -> Iterator[Metric]:
        frames_in, bytes_in, frames_out, bytes_out = INK.totals()
        rooms = self.rooms
        if rooms is not None:  # taken, not yet written
            frames_in += rooms.ink.unwritten_count()
            bytes_in += rooms.ink.unwritten_bytes()
        for name, about, value in (
            ("atelier_ink_frames_in", "Ink batches accepted from drawers", frames_in),
            ("atelier_ink_bytes_in", "Bytes of ink accepted from drawers", bytes_in),
            ("atelier_ink_frames_out", "Ink frames relayed to watchers", frames_out),
            ("atelier_ink_bytes_out", "Bytes of ink relayed to watchers", bytes_out),
        ):
            yield CounterMetricFamily(name, about, value=value)
        yield INK_RELAY_DELAY.metric()
        loaded = GaugeMetricFamily("atelier_rooms_loaded", "Rooms in memory, by game and phase",
                                   labels=["game", "phase"])
        conns = GaugeMetricFamily("atelier_connections",
                                  "Room sockets that said hello (players and spectators)")
        watching = GaugeMetricFamily("atelier_spectators",
                                     "Room sockets of people not seated in the game")
        if rooms is not None:
            by_kind: Tally[tuple[str, str]] = Tally()
            players = spectators = 0
            # a copy: a scrape runs on the event loop, but list() keeps it safe anyway
            for room in list(rooms.loaded.values()):
                by_kind[(room.model.game.name, room.model.phase)] += 1
                for conn in list(room.conns):
                    if conn.player_id is None:
                        spectators += 1
                    else:
                        players += 1
            for (game, phase), count in sorted(by_kind.items()):
                loaded.add_metric([game, phase], count)
            conns.add_metric([], players + spectators)
            watching.add_metric([], spectators)
        yield loaded
        yield conns
        yield watching


SCRAPE = ScrapeTime()
REGISTRY.register(SCRAPE)


def exposition() -> bytes:
    """Every metric of this process in Prometheus's text format."""
    return generate_latest(REGISTRY)


class LoopLag:
    """Samples how late the event loop wakes a sleeper: the delay every
    callback in the process sees beyond its own work."""

    EVERY = 0.5

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(self.EVERY)
            LOOP_LAG.observe(max(0.0, time.monotonic() - asked - self.EVERY))

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


def parse_listen(spec: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9100`` for IPv6) as (host, port); ValueError if not."""
    host, sep, port = spec.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT, got {spec!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


class MetricsServer:
    """A tiny HTTP server on its own address that answers every GET with the
    exposition. It runs on the server's event loop, so a scrape reads the rooms
    between two callbacks, never while one is changing them."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._server: asyncio.Server | None = None
        self._lag = LoopLag()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._answer, self.host, self.port)
        self._lag.start()
        log.info("metrics on http://%s:%d/metrics", self.host, self.port)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            method = head.split(b" ", 1)[0]
            if method not in (b"GET", b"HEAD"):
                writer.write(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n"
                             b"Connection: close\r\n\r\n")
            else:
                body = exposition()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; "
                             b"charset=utf-8\r\nContent-Length: " + str(len(body)).encode()
                             + b"\r\nConnection: close\r\n\r\n"
                             + (body if method == b"GET" else b""))
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def close(self) -> None:
        self._lag.stop()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
