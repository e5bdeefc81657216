"""The server's Python ink path alone, without sockets or a network:

    python -m atelier.bench.inkpath --rounds 1500

Rooms of the sketch game in one process; each round every player's batch is
taken in as the transport hands it over (``Session.ink_now``: the allowance,
then ``InkIntake.take``: rights, guard, kept, relayed to the other players'
bundles), then the shared bundle timer flushes every bundle into a transport
that frames it and drops it. With ``--socket`` each batch starts as the masked
frame a client sends, read by the room socket (``RoomSocket.data_received``,
the floor's ``Peer.data_received``), and every bundle goes out through the
socket's own writing to a transport that drops the bytes: the whole of a
server's Python work per batch, as a profile of the real server shows it.

The same rounds then go through the floor's path (``atelier.bench.floor``: the
guard, the pending row, the relay into bundles, the tick's framing; with
``--socket``, its own reading and writing too), and both times per batch are
printed with their ratio: what a change to ``atelier.server.ink`` costs, apart
from the sockets and the machine's load that dominate ``atelier bench ink``
(the kernel's share, about equal for both, is not in it)."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

from starlette.websockets import WebSocket

from atelier.bench import floor
from atelier.bench.sketch import GAME
from atelier.games.core import JSON
from atelier.hub.base import LocalHub
from atelier.ink.synth import DEVICES, record
from atelier.server.edge import limits
from atelier.server.ink.bundles import bundler
from atelier.server.ink.intake import InkIntake
from atelier.server.room import fanout
from atelier.server.room import model as m
from atelier.server.room.connection import Connection
from atelier.server.room.events import LogEvent
from atelier.server.room.live_room import LiveRoom
from atelier.server.room.rooms import Rooms
from atelier.server.session import Session
from atelier.server.wire.roomsocket import RoomSocket
from atelier.server.wire.wsframe import BINARY, frame
from atelier.store import Store


def client_frame(data: bytes, key: bytes = b"\x5a\x13\xc4\x07") -> bytes:
    """``data`` as a browser sends it: one final binary frame, masked."""
    n = len(data)
    head = bytes([0x82, 0x80 | n]) if n < 126 else bytes([0x82, 0xFE]) + n.to_bytes(2, "big")
    masked = bytes(b ^ key[i & 3] for i, b in enumerate(data))
    return head + key + masked


class _Dropped:
    """A socket's transport: takes what is written and drops it."""

    def write(self, data: bytes) -> None:
        return None

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        return None

    def resume_reading(self) -> None:
        return None


def _room_socket(loop: asyncio.AbstractEventLoop) -> RoomSocket:
    """A room socket past its handshake, its session waiting for a message,
    writing to a transport that drops the bytes."""
    sock = RoomSocket(cast(Any, None), SimpleNamespace(connections=set()))
    sock.transport = cast(asyncio.Transport, _Dropped())
    sock.accepted, sock.deaf = True, False
    sock.waiter = loop.create_future()  # the session waits in receive
    return sock


class Written:
    """A transport that takes every message at once, frames it as the room
    socket does, and drops it."""

    def write_now(self, data: bytes | str) -> bool:
        frame(BINARY, data if isinstance(data, bytes) else data.encode())
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


def _session(intake: InkIntake[LiveRoom], room: LiveRoom, conn: Connection) -> Session:
    """A session as the room socket hands it a batch (``Session.ink_now``),
    without a socket or a hello."""
    session = object.__new__(Session)
    session.rooms = cast(Rooms, SimpleNamespace(ink=intake, ink_waits=0))
    session.room, session.conn, session.code, session.inflight = room, conn, room.code, None
    return session


async def run(rooms: int, players: int, rounds: int, socket: bool = False) -> float:
    """Seconds per batch (``socket``: from the client's frame, as ``--socket``)."""
    # no store: the ink is kept in memory and never flushed within a run
    intake = InkIntake(cast(Store, None), LocalHub(), _commit, 1 << 40, 1 << 40)
    # the allowance is spent as ever, with bursts no run here empties (each
    # connection's is made with the bursts of the moment)
    limits.INK_FRAMES_BURST = limits.INK_BYTES_BURST = 1 << 60
    loop = asyncio.get_running_loop()
    socks: list[RoomSocket] = []

    def transport() -> Any:
        socks.append(_room_socket(loop))
        return socks[-1]

    live = [sketch_room(f"R{r:05d}", players, transport if socket else None)
            for r in range(rooms)]
    takers: list[Callable[[bytes], object]] = [
        _session(intake, room, conn).ink_now for room in live for conn in room.conns]
    if socket:
        for sock, take in zip(socks, takers, strict=True):
            sock.take_ink(cast(Callable[[bytes], bool], take))
        takers = [sock.data_received for sock in socks]
    batches = record(DEVICES[0], 40).batches
    if socket:
        batches = [client_frame(batch) for batch in batches]
    timer = bundler()
    start = time.perf_counter()
    for k in range(rounds):
        data = batches[k % len(batches)]
        for take in takers:
            take(data)
        if len(intake.pending_ink) != len(takers):  # a batch refused or left waiting
            raise SystemExit(f"round {k}: {len(intake.pending_ink)} of {len(takers)} taken")
        intake.pending_ink.clear()  # nothing is written to a store here
        timer.flush()
        await asyncio.sleep(0)  # the tick's write (of nothing), then the bundles go
    return (time.perf_counter() - start) / (rounds * rooms * players)


async def run_floor(rooms: int, players: int, rounds: int, socket: bool = False) -> float:
    """Seconds per batch through the floor's path (``atelier.bench.floor``)."""
    relay = floor.Relay(cast(Store, None))
    peers = []
    for r in range(rooms):
        room = relay.rooms[f"R{r:05d}"] = floor.Room(f"R{r:05d}")
        for seat in range(players):
            peer = floor.Peer(relay)
            peer.transport = cast(asyncio.Transport, _Dropped())
            peer.room, peer.seat, peer.bundles = room, seat, True
            peer.upgraded = True
            room.peers.append(peer)
            peers.append(peer)
    batches = record(DEVICES[0], 40).batches
    if socket:
        batches = [client_frame(batch) for batch in batches]
    takers = [peer.data_received if socket else peer.ink for peer in peers]
    start = time.perf_counter()
    for k in range(rounds):
        data = batches[k % len(batches)]
        for take in takers:
            take(data)
        if len(relay.pending) != len(peers):  # the floor refused one
            raise SystemExit(f"round {k}: the floor took {len(relay.pending)} of {len(peers)}")
        relay.pending.clear()  # nothing is written to a store here
        if relay.bundle_timer is not None:
            relay.bundle_timer.cancel()
        relay.tick()
        await asyncio.sleep(0)  # the tick's write (of nothing), then the bundles go
    return (time.perf_counter() - start) / (rounds * rooms * players)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m atelier.bench.inkpath",
                                 description="The server's Python ink path alone.")
    ap.add_argument("--socket", action="store_true",
                    help="from the frame a client sends to the bytes the socket writes")
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--players", type=int, choices=range(2, 7), default=6)
    ap.add_argument("--rounds", type=int, default=1500)
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each, alternated (the best counts)")
    args = ap.parse_args(argv)
    ours, floors = [], []
    for _ in range(args.repeat):
        ours.append(asyncio.run(run(args.rooms, args.players, args.rounds, args.socket)))
        floors.append(asyncio.run(run_floor(args.rooms, args.players, args.rounds,
                                            args.socket)))
    batches = args.rounds * args.rooms * args.players
    print(f"atelier: {min(ours) * 1e6:.2f} us per batch (runs: "
          f"{', '.join(f'{t * 1e6:.2f}' for t in ours)})")
    print(f"floor:   {min(floors) * 1e6:.2f} us per batch (runs: "
          f"{', '.join(f'{t * 1e6:.2f}' for t in floors)})")
    print(f"{batches} batches a run, each to {args.players - 1} players; atelier / floor = "
          f"{min(ours) / min(floors):.2f}x, {(min(ours) - min(floors)) * 1e6:.2f} us a batch more")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
