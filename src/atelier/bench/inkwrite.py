"""The store's ink write alone, as the bundle tick makes it:

    python -m atelier.bench.inkwrite [--rooms 100] [--writes 100] [--database-url URL]

Each write holds one batch from each of 5 drawers in each room (what a 40 ms
tick gathers at a batch every 50 ms), written with ``Store.append_ink`` into a
fresh SQLite file (or PostgreSQL tables of its own, dropped afterwards). Prints
the time a write takes and the CPU this process spends on it: the price of
writing ink ahead of every relay (docs/performance.md)."""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import tempfile
import time

from atelier.bench.measure import drop_tables, percentile
from atelier.ink.synth import DEVICES, record
from atelier.store import InkRow, open_store

DRAWERS = 5


async def run(rooms: int, writes: int, url: str | None) -> None:
    folder = tempfile.TemporaryDirectory()
    prefix = f"inkw{secrets.token_hex(4)}_" if url else ""
    store = await open_store(None if url else os.path.join(folder.name, "ink.sqlite3"), url,
                             prefix)
    batches = record(DEVICES[0], 200).batches
    took: list[float] = []
    cpu = 0.0
    try:
        for k in range(writes):
            rows = [(f"R{r:05d}", InkRow("sketch", seat, k, batches[k % len(batches)]))
                    for r in range(rooms) for seat in range(DRAWERS)]
            start, cpu_start = time.perf_counter(), time.process_time()
            await store.append_ink(rows)
            took.append(time.perf_counter() - start)
            cpu += time.process_time() - cpu_start
    finally:
        await store.close()
        if url:
            await drop_tables(url, prefix)
        folder.cleanup()
    ms = [1000 * t for t in took]
    print(f"ink write of {rooms * DRAWERS} batches ({rooms} rooms x {DRAWERS} drawers), "
          f"{writes} writes to {'PostgreSQL' if url else 'SQLite (WAL)'}: p50 "
          f"{percentile(ms, 50):.1f} ms, p90 {percentile(ms, 90):.1f} ms, max {max(ms):.1f} ms;"
          f" {1000 * cpu / writes:.2f} ms of this process's CPU a write "
          f"({1e6 * cpu / writes / (rooms * DRAWERS):.1f} us a batch)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atelier.bench.inkwrite",
                                 description="The store's ink write alone.")
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--writes", type=int, default=100)
    ap.add_argument("--database-url", help="postgresql+asyncpg://... (else SQLite)")
    args = ap.parse_args(argv)
    asyncio.run(run(args.rooms, args.writes, args.database_url))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
