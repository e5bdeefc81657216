"""A server killed with SIGKILL mid-round comes back from its log: no accepted
action lost, at most the last half second of ink, timers running again."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from atelier.ink.synth import DEVICES, record
from conftest import Client, ServerProcess, open_client, seated_room


async def test_kill_9_mid_round(server_factory: Callable[..., ServerProcess],
                                clients: list[Client]) -> None:
    srv = server_factory()
    code, (ann, bob) = await seated_room(clients, srv, settings={"seconds": 15})
    for i in range(5):
        assert (await bob.request({"t": "act", "action": {"type": "note", "text": str(i)}}))[
            "t"] == "ack"
    assert (await bob.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    # the deadline is now armed, 15 s ahead (a loaded machine restarts slowly)
    batches = record(DEVICES[1], 12, seed=9).batches
    sent_at: list[float] = []
    for b in batches:  # about as fast as a hand draws: a batch every 20 ms
        await ann.send(b)
        sent_at.append(time.monotonic())
        await asyncio.sleep(0.02)
    killed_at = time.monotonic()
    srv.kill()
    srv.start()
    back = await open_client(clients, srv, code, token=ann.token)
    st = await back.state(timeout=20)  # a loaded machine replays slowly
    assert st["you"]["seat"] == 0 and st["game"]["notes"] == 5
    assert st["game"]["done"] == [False, True] and st["game"]["phase"] == "drawing"
    assert (await back.expect("ink_sync", timeout=20))["seats"] == [0]
    got: list[bytes] = []
    try:
        while True:
            got.append(await back.expect("bin", timeout=2))
    except TimeoutError:
        pass
    kept = [frame[1:] for frame in got]
    assert kept == batches[: len(kept)], "what came back is what was sent, in order"
    must_keep = sum(1 for t in sent_at if t < killed_at - 0.5)
    assert len(kept) >= must_keep, (len(kept), must_keep, len(batches))
    # the room keeps going: the deadline passes with nobody acting
    st = await back.state(lambda m: m["game"]["phase"] == "reveal", timeout=30)
    assert st["game"]["words"] is not None


async def test_clean_restart_keeps_lobby_and_tokens(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory()
    from conftest import create_room

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
