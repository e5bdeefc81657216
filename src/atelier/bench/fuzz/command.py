"""``atelier bench fuzz``: the long run in worker processes, its figures printed."""

from __future__ import annotations

import time

import httpx

from atelier.bench.fuzz.figures import Figures
from atelier.bench.fuzz.runner import Runner

# --- the command ------------------------------------------------------------------------


def _worker(job: tuple[str, str | None, int, int]) -> Figures:
    from atelier.games.registry import game_names, get_game

    http, db, messages, offset = job
    games = {name: get_game(name) for name in game_names()}
    runner = Runner(http, db, games)
    runner.figures.episodes = offset  # the workers start on different games
    figures = runner.run(messages)
    figures.episodes -= offset
    return figures


def main(argv: list[str]) -> int:
    """``atelier bench fuzz``: the long run; prints its figures, exits 1 on any failure."""
    import argparse
    import multiprocessing
    import os
    import subprocess
    import sys
    import tempfile

    from atelier.bench.measure import UNLIMITED, free_port

    ap = argparse.ArgumentParser(prog="atelier bench fuzz", description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    args = ap.parse_args(argv)
    tmp = tempfile.TemporaryDirectory()
    db = os.path.join(tmp.name, "fuzz.sqlite3")
    errors = os.path.join(tmp.name, "server.log")
    port = free_port()
    http = f"http://127.0.0.1:{port}"
    with open(errors, "wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", db, "--quiet", *UNLIMITED],
            stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(http + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                print("the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.1)
        started = time.monotonic()
        share = -(-args.messages // args.workers)
        jobs = [(http, db, share, i) for i in range(args.workers)]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            parts = pool.map(_worker, jobs)
        seconds = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(30)
    with open(errors, encoding="utf-8", errors="replace") as f:
        log_text = f.read()
    total = Figures()
    for part in parts:
        for name in ("messages", "text", "binary", "refused", "unanswered",
                     "server_exceptions", "state_changes", "episodes", "legal_played",
                     "legal_refused"):
            setattr(total, name, getattr(total, name) + getattr(part, name))
        total.phases |= part.phases
        total.problems += part.problems
    tracebacks = log_text.count("Traceback")
    total.server_exceptions += tracebacks
    print(f"messages sent:              {total.messages} ({total.text} text, "
          f"{total.binary} binary) in {total.episodes} rooms")
    print(f"refused (answered by error): {total.refused}")
    print(f"unanswered or not refused:  {total.unanswered}")
    print(f"server exceptions:          {total.server_exceptions} "
          f"({tracebacks} tracebacks in the server's log)")
    print(f"state changes by refusals:  {total.state_changes}")
    print(f"listed moves played:        {total.legal_played} "
          f"({total.legal_refused} refused by the rules)")
    print(f"time:                       {seconds:.1f} s ({total.messages / seconds:.0f} "
          f"messages/s, {args.workers} client processes, one server)")
    phases = sorted(total.phases)
    print(f"phases reached:             {len(phases)}: "
          + ", ".join(f"{g} {p}" for g, p in phases))
    for problem in total.problems[:10]:
        print("  problem:", problem)
    return 1 if total.failed or tracebacks else 0
