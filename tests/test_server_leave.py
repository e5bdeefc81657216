"""A player who leaves is told nothing false: "kicked" (the host removed you) goes
only to players the host removed, not to one who left by themselves (found by the
protocol fuzzer: a leave was acked with that error, so it read as refused)."""

from __future__ import annotations

from support.client import Client, open_client
from support.server import ServerProcess, create_room


async def test_leaving_is_not_being_kicked(server: ServerProcess, clients: list[Client]) -> None:
    for game, phase in (("secrets", "lobby"), ("pictomania", "playing")):
        code = create_room(server.http, game)
        players = []
        for i, colour in enumerate(("red", "blue", "green", "yellow")):
            c = await open_client(clients, server, code)
            assert (await c.join(f"P{i}", colour))["t"] == "joined"
            players.append(c)
        host, ann, bob, _ = players
        if phase == "playing":
            assert (await host.request({"t": "start"}))["t"] == "ack"
        second_tab = await open_client(clients, server, code, token=ann.token)
        assert (await ann.request({"t": "leave"}))["t"] == "ack"
        for c in (ann, second_tab):
            await c.state(lambda m: m["you"]["player"] is None)
        assert (await host.request({"t": "kick", "player": bob.player}))["t"] == "ack"
        assert (await bob.expect("error", lambda m: m["code"] == "kicked"))["message"]
        for c in (ann, second_tab):
            assert (await c.request({"t": "ping"}))["t"] == "ack"
            assert not [m for m in c.log if isinstance(m, dict) and m.get("t") == "error"], (
                game, c.log)
