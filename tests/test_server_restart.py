"""A server killed with SIGKILL mid-round comes back from its log: no accepted
action lost, no ink that was written, timers running again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from atelier.ink.synth import DEVICES, record
from support.client import Client, open_client, seated_room
from support.log import stored_ink
from support.server import ServerProcess, wait_until


async def test_kill_9_mid_round(server_factory: Callable[..., ServerProcess],
                                clients: list[Client]) -> None:
    srv = server_factory()
    code, (ann, bob) = await seated_room(clients, srv, settings={"seconds": 20})
    for i in range(5):
        assert (await bob.request({"t": "act", "action": {"type": "note", "text": str(i)}}))[
            "t"] == "ack"
    assert (await bob.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    # the deadline is now armed, 20 s ahead
    armed = await ann.state(lambda m: m["game"]["deadline"] is not None)
    deadline = armed["game"]["deadline"]
    batches = record(DEVICES[1], 12, seed=9).batches
    half = len(batches) // 2
    for b in batches[:half]:  # about as fast as a hand draws (within the rate limit)
        await ann.send(b)
        await asyncio.sleep(0.02)
    # the first half is on disk (seen in the database itself), the rest in flight
    db = srv.db
    assert db is not None
    await wait_until(lambda: len(stored_ink(db, code)) >= half)
    for b in batches[half:]:
        await ann.send(b)
        await asyncio.sleep(0.02)
    assert (await ann.request({"t": "ping"}))["t"] == "ack"  # all accepted, maybe not written
    assert time.time() < deadline - 1, "killed before the deadline"
    srv.kill()
    srv.start()
    back = await open_client(clients, srv, code, token=ann.token)
    st = await back.state(timeout=20)  # a loaded machine replays slowly
    assert st["you"]["seat"] == 0 and st["game"]["notes"] == 5
    assert st["game"]["done"] == [False, True] and st["game"]["deadline"] == deadline
    # "drawing", or already "reveal" if the restart took longer than the time left
    assert st["game"]["phase"] in ("drawing", "reveal")
    assert 0 in (await back.expect("ink_sync", timeout=20))["seats"]
    kept = [(await back.expect("bin", timeout=20))[1:] for _ in range(half)]
    assert (await back.request({"t": "ping"}, timeout=20))["t"] == "ack"
    kept += [m[1:] for m in back.pending if isinstance(m, bytes)]
    assert kept == batches[: len(kept)], "what came back is what was sent, in order"
    assert len(kept) >= half, (len(kept), half, len(batches))
    # the room keeps going: the deadline passes with nobody acting
    if st["game"]["phase"] == "drawing":
        st = await back.state(lambda m: m["game"]["phase"] == "reveal", timeout=60)
    assert st["game"]["words"] is not None


async def test_clean_restart_keeps_lobby_and_tokens(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory()
    from support.server import create_room

    code = create_room(srv.http, settings={"seconds": 7})
    ann = await open_client(clients, srv, code)
    await ann.join("Ann", "red")
    assert (await ann.request({"t": "rename", "name": "Annie"}))["t"] == "ack"
    srv.stop()
    srv.start()
    back = await open_client(clients, srv, code, token=ann.token)
    st = await back.state()
    assert st["you"]["host"] and st["room"]["players"][0]["name"] == "Annie"
    assert st["room"]["settings"]["seconds"] == 7
