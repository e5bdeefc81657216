"""Measuring a server process from outside, for every benchmark: a free port,
the per-address limits lifted (every benchmark client comes from 127.0.0.1),
the CPU and memory of a process and its children, a plain HTTP call and a
percentile. The standard library only, so the benchmarks run from a plain install."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

# every benchmark client comes from 127.0.0.1: lift the per-address limits
UNLIMITED = ["--max-rooms-per-minute", "1000000", "--max-connections", "1000000",
             "--max-lookups-per-minute", "1000000", "--max-sockets", "1000000",
             "--max-pending-hellos", "1000000"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (``atelier serve --workers N`` is N + 1 processes)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return found


def proc_cpu_seconds(pid: int) -> float:
    """CPU time of the process and its children, those it has reaped included:
    an engine worker killed and replaced mid-run (a review whose asker hung up)
    takes its CPU with it from /proc, and the parent's cutime/cstime is where
    the kernel keeps it."""
    total = 0.0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, and cutime, cstime: the reaped children's
        total += sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")
    return total


def proc_rss_mib(pid: int) -> float:
    """Resident memory of the process and its children."""
    total = 0.0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return total


def http(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """GET (or POST ``body`` as JSON): the status and the decoded answer. The
    standard library only, so the benchmark runs from a plain install."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def start_server(target: str, port: int, folder: str, extra: list[str],
                 store: list[str] | None = None,
                 own_group: bool = False, src: str | None = None) -> subprocess.Popen[bytes]:
    """A server process on ``port`` with its store in ``folder``: ``atelier`` (with
    the sketch game, per-address limits lifted) or ``floor`` (the lean relay).
    ``store``: the store arguments instead of the SQLite file in ``folder``
    (``--database-url URL --table-prefix P``; both servers take them).
    ``own_group``: in a process group of
    its own, so that one signal reaches every process it starts (``--workers``, the
    engine's) at the same instant. ``src``: run the server from that source folder
    (another version of the code, side by side)."""
    db = os.path.join(folder, f"{target}.sqlite3")
    if target == "floor":
        cmd = [sys.executable, "-m", "atelier.bench.floor", "--port", str(port),
               *(["--db", db] if store is None else store)]
    else:
        cmd = [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port",
               str(port), *(["--db", db] if store is None else store), "--quiet",
               "--extra-game", "atelier.bench.sketch:GAME", *UNLIMITED, *extra]
    env = None if src is None else {**os.environ, "PYTHONPATH": src}
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=own_group,
                            env=env)


async def drop_tables(url: str, prefix: str) -> None:
    """The run's own tables go (the store's API, as the tests clean up)."""
    from atelier.store import open_store

    store = await open_store(url=url, prefix=prefix)
    try:
        await store.drop_tables()
    finally:
        await store.close()
