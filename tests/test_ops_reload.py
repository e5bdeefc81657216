"""``atelier serve --workers N`` replaces its processes one at a time on SIGHUP:
every room's players reconnect to a new process and find every acknowledged
action and every stroke where it was."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path

import websockets

from atelier.server.workers import owner
from support.client import Client, open_client, seated_room
from support.ink import stroke
from support.server import ServerProcess, wait_until


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(x) for x in text}
    return found


async def closed_by_server(client: Client) -> int | None:
    """Read until the server closes the socket; its close code."""
    try:
        while True:
            await client.recv(60)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


async def test_sighup_replaces_every_worker_and_loses_no_acked_action_or_ink(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    srv = server_factory("--workers", "2")
    proc = srv.proc
    assert proc is not None
    await wait_until(lambda: len(children(proc.pid)) == 2, 60, "two workers")
    before = children(proc.pid)
    rooms: list[tuple[str, list[Client]]] = []
    while {owner(code, 2) for code, _ in rooms} != {0, 1} or len(rooms) < 3:
        rooms.append(await seated_room(clients, srv, n=2))
    words: dict[tuple[str, int], str] = {}
    drawn: dict[tuple[str, int], list[bytes]] = {}
    for code, players in rooms:
        for seat, p in enumerate(players):
            seen = [m for m in p.log if isinstance(m, dict) and m["t"] == "state" and m["game"]]
            words[(code, seat)] = seen[-1]["game"]["my_word"]
            drawn[(code, seat)] = [stroke(x=50 + i, t=i * 100) for i in range(4)]
            for batch in drawn[(code, seat)]:
                await p.send(batch)
            assert (await p.act(type="note", text=f"n{seat}"))["t"] == "ack"

    proc.send_signal(signal.SIGHUP)
    codes = await asyncio.gather(*(closed_by_server(p) for _, ps in rooms for p in ps))
    assert set(codes) == {1012}, codes  # "server restarting": clients reconnect
    await wait_until(lambda: len(children(proc.pid)) == 2
                     and not children(proc.pid) & before, 120, "both workers replaced")
    assert proc.poll() is None

    for code, players in rooms:
        for seat, p in enumerate(players):
            again = await open_client(clients, srv, code, token=p.token)
            state = await again.state(lambda m: m["game"] is not None)
            assert state["you"]["seat"] == seat
            assert state["game"]["my_word"] == words[(code, seat)]
            assert state["game"]["notes"] == 2  # both acknowledged notes are there
            await again.sync()
            frames = [m[1:] for m in again.log if isinstance(m, bytes) and m[0] == seat]
            assert frames == drawn[(code, seat)]
    assert "worker 1 replaced" in srv.log()
