"""``atelier serve --workers 2``: one address, each room served by one process."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

import httpx

from atelier.server.workers import owner, room_in_request_line
from support.client import Client, seated_room
from support.server import ServerProcess, create_room, wait_until


def test_the_room_code_is_read_from_every_room_path() -> None:
    assert room_in_request_line(b"GET /ws/abcdef?ink=bundles HTTP/1.1\r\n") == "ABCDEF"
    assert room_in_request_line(b"GET /r/ABCDEF HTTP/1.1") == "ABCDEF"
    assert room_in_request_line(b"GET /r/ABCDEF/tv HTTP/1.1") == "ABCDEF"
    assert room_in_request_line(b"POST /api/rooms/ABCDEF/deck HTTP/1.1") == "ABCDEF"
    assert room_in_request_line(b"POST /api/rooms HTTP/1.1") is None
    assert room_in_request_line(b"GET /static/app.js HTTP/1.1") is None


async def test_a_room_is_served_by_its_own_worker_even_on_a_reused_connection(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    srv = server_factory("--workers", "2")
    codes = [create_room(srv.http) for _ in range(12)]
    assert {owner(c, 2) for c in codes} == {0, 1}  # both workers have rooms
    # one keep-alive connection asks about every room: each answer comes from
    # the room's worker (the other one sends the browser round on a new connection)
    with httpx.Client(follow_redirects=True) as http:
        for code in codes:
            answer = http.get(f"{srv.http}/api/rooms/{code}")
            assert answer.status_code == 200, answer.text
            assert answer.headers["x-atelier-worker"] == str(owner(code, 2))

    # players meet in one process: without it they would not see each other
    code, (ann, bob) = await seated_room(clients, srv)
    assert (await bob.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    assert (await ann.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    revealed = await bob.state(lambda m: m["game"]["phase"] == "reveal")
    assert revealed["game"]["words"] is not None


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


async def test_a_worker_that_dies_is_started_again(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--workers", "2")
    assert srv.proc is not None
    # a room worker 1 holds (codes are random: make rooms until one lands there)
    mine = next(c for c in (create_room(srv.http) for _ in range(100)) if owner(c, 2) == 1)
    proc = srv.proc
    before = children(proc.pid)
    assert len(before) == 2
    os.kill(before[1], signal.SIGKILL)  # worker 1, started second
    # its rooms are served again, from the log, by a new worker 1
    await wait_until(lambda: len(set(children(proc.pid)) - set(before)) == 1
                     and answers(f"{srv.http}/api/rooms/{mine}"), 60, "a new worker 1")
    assert httpx.get(f"{srv.http}/api/rooms/{mine}").headers["x-atelier-worker"] == "1"
