"""The server's Python ink path alone, without sockets or a network:

    python -m atelier.bench.inkpath --rounds 1500

Rooms of the sketch game in one process; each round every player's batch is
taken in (``InkIntake.take``: rights, guard, kept, relayed to the other
players' bundles), then the shared bundle timer flushes every bundle into a
transport that writes at once. Prints the time per batch: what a change to
``atelier.server.ink`` costs, apart from the sockets and the machine's load
that dominate ``atelier bench ink``."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from typing import Any, cast

from starlette.websockets import WebSocket

from atelier.bench.sketch import GAME
from atelier.games.core import JSON
from atelier.hub.base import LocalHub
from atelier.ink.synth import DEVICES, record
from atelier.server.ink.bundles import bundler
from atelier.server.ink.intake import InkIntake
from atelier.server.room import fanout
from atelier.server.room import model as m
from atelier.server.room.connection import Connection
from atelier.server.room.events import LogEvent
from atelier.server.room.live_room import LiveRoom
from atelier.store import Store


class Written:
    """A transport that takes every message at once and drops it."""

    def write_now(self, data: bytes | str) -> bool:
        return True

    def take_ink(self, handler: Callable[[bytes], bool]) -> None:
        return None


async def _commit(room: LiveRoom, decide: Any) -> LogEvent:
    raise AssertionError("the sketch game asks for no canvas reports")


def sketch_room(code: str, players: int,
                transport: Callable[[], Any] | None = None) -> LiveRoom:
    """A started room of the sketch game with a bundling connection per player
    (each on a ``transport()``, by default one that drops what it is given)."""
    created: dict[str, JSON] = {"settings": GAME.validate_settings({}, GAME.min_seats), "seed": 1,
               "language": "en"}
    model = m.new_model(code, GAME, created, 0.0)
    colours = list(m.COLOUR_HEX)
    for p in range(players):
        model.apply(model.seq + 1, m.decide_join(model, f"P{p}", colours[p], f"h{p}"))
    model.apply(model.seq + 1, m.decide_start(model, model.host))
    room = LiveRoom(model)
    for player in model.players:
        # no socket: this path writes through Written, never the WebSocket
        conn = Connection(cast(WebSocket, None), transport() if transport else Written(),
                          bundles=True)
        conn.player_id = player.id
        room.conns.add(conn)
    fanout.push_states(room)
    return room


async def run(rooms: int, players: int, rounds: int) -> float:
    """Seconds per batch."""
    # no store: the ink is kept in memory and never flushed within a run
    intake = InkIntake(cast(Store, None), LocalHub(), _commit, 1 << 40, 1 << 40)
    live = [sketch_room(f"R{r:05d}", players) for r in range(rooms)]
    batches = record(DEVICES[0], 40).batches
    timer = bundler()
    start = time.perf_counter()
    for k in range(rounds):
        data = batches[k % len(batches)]
        for room in live:
            for conn in room.conns:
                intake.take(room, conn, data)
        intake.pending_ink.clear()  # nothing is written to a store here
        timer.flush()
        await asyncio.sleep(0)  # the tick's write (of nothing), then the bundles go
    return (time.perf_counter() - start) / (rounds * rooms * players)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atelier.bench.inkpath",
                                 description="The server's Python ink path alone.")
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--players", type=int, choices=range(2, 7), default=6)
    ap.add_argument("--rounds", type=int, default=1500)
    args = ap.parse_args(argv)
    per_batch = asyncio.run(run(args.rooms, args.players, args.rounds))
    print(f"{per_batch * 1e6:.2f} us per batch ({args.rounds * args.rooms * args.players} "
          f"batches, each to {args.players - 1} players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
