"""A WebSocket client that keeps what it receives, and rooms seated with them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import websockets

from support.server import ServerProcess, create_room


class Client:
    """A WebSocket client that keeps every message it receives (for leak checks)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.log: list[Any] = []
        self.pending: list[Any] = []
        self.token: str | None = None
        self.player: str | None = None
        self._next_id = 0

    @classmethod
    async def open(cls, base_ws: str, code: str, token: str | None = None, lang: str = "en",
                   **kwargs: Any) -> Client:
        ws = await websockets.connect(f"{base_ws}/ws/{code}", max_size=2**20, **kwargs)
        client = cls(ws)
        client.token = token
        await client.send({"t": "hello", "v": 1, "token": token, "lang": lang})
        return client

    async def send(self, msg: dict[str, Any] | str | bytes) -> None:
        if isinstance(msg, dict):
            msg = json.dumps(msg)
        await self.ws.send(msg)

    async def recv(self, timeout: float = 20) -> Any:
        if self.pending:
            return self.pending.pop(0)
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = raw if isinstance(raw, bytes) else json.loads(raw)
        self.log.append(msg)
        return msg

    async def expect(self, t: str, where: Callable[[Any], bool] = lambda m: True,
                     timeout: float = 20) -> Any:
        """The next message of type ``t`` matching ``where``; others are skipped
        (but kept in ``log``). ``t == "bin"`` waits for a binary frame."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {t} message")
            msg = await self.recv(left)
            if t == "bin" and isinstance(msg, bytes) and where(msg):
                return msg
            if isinstance(msg, dict) and msg.get("t") == t and where(msg):
                return msg

    async def request(self, msg: dict[str, Any], timeout: float = 20) -> Any:
        """Send with an id; the ack, or the error with that id."""
        self._next_id += 1
        rid = self._next_id
        await self.send({**msg, "id": rid})
        return await self.expect_any(("ack", "error"), lambda m: m.get("id") == rid, timeout)

    async def expect_any(self, ts: tuple[str, ...], where: Callable[[Any], bool],
                         timeout: float = 20) -> Any:
        """Like ``expect``, but messages passed over stay to be read next, so a
        reply does not swallow the state that came before it."""
        end = time.monotonic() + timeout
        skipped: list[Any] = []
        try:
            while True:
                msg = await self.recv(max(0.01, end - time.monotonic()))
                if isinstance(msg, dict) and msg.get("t") in ts and where(msg):
                    return msg
                skipped.append(msg)
        finally:
            self.pending[:0] = skipped

    async def act(self, **action: Any) -> Any:
        """A game action: the ack, or the error."""
        return await self.request({"t": "act", "action": action})

    async def join(self, name: str, colour: str, host_key: str | None = None) -> dict[str, Any]:
        """Sit down: the ``joined`` reply (this client keeps its token and id), or the error."""
        msg: dict[str, Any] = {"t": "join", "name": name, "colour": colour}
        if host_key is not None:
            msg["host_key"] = host_key
        await self.send(msg)
        msg = await self.expect_any(("joined", "error"), lambda m: True)
        if msg["t"] == "joined":
            self.token = msg["token"]
            self.player = msg["player"]["id"]
        result: dict[str, Any] = msg
        return result

    async def state(self, where: Callable[[Any], bool] = lambda m: True,
                    timeout: float = 20) -> Any:
        return await self.expect("state", where, timeout)

    async def sync(self, timeout: float = 20) -> None:
        """A round trip: when it returns, everything the server queued for this
        client before it read the ping has arrived (in ``log``). A condition to
        wait for instead of a fixed drain before checking what did not come."""
        reply = await self.request({"t": "ping"}, timeout)
        assert reply["t"] == "ack", reply

    async def drain(self, seconds: float = 0.2) -> None:
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
            while True:
                await self.recv(seconds)

    async def close(self) -> None:
        await self.ws.close()


async def open_client(opened: list[Client], srv: ServerProcess, code: str,
                      token: str | None = None, lang: str = "en", **kw: Any) -> Client:
    client = await Client.open(srv.ws, code, token, lang, **kw)
    opened.append(client)
    await client.expect("welcome", timeout=20)
    return client


async def seated_room(opened: list[Client], srv: ServerProcess, n: int = 2,
                      settings: dict[str, Any] | None = None,
                      game: str = "secrets") -> tuple[str, list[Client]]:
    """A started room with ``n`` human players (the first is host)."""
    code = create_room(srv.http, game, settings)
    colours = ["red", "blue", "green", "yellow", "purple", "orange"]
    players = []
    for i in range(n):
        c = await open_client(opened, srv, code)
        joined = await c.join(f"P{i}", colours[i])
        assert joined["t"] == "joined", joined
        players.append(c)
    reply = await players[0].request({"t": "start"})
    assert reply["t"] == "ack", reply
    for c in players:
        await c.state(lambda m: m["room"]["phase"] != "lobby")
    return code, players
