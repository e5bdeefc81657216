"""Players over real WebSockets (synchronous, so Playwright's sync API can run
beside them): they join, act and draw while browsers watch."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from websockets.sync.client import ClientConnection, connect


class WsPlayer:
    def __init__(self, base_ws: str, code: str, token: str | None = None) -> None:
        self.ws: ClientConnection = connect(f"{base_ws}/ws/{code}", max_size=2**22).__enter__()
        self.log: list[Any] = []
        self.last_state: dict[str, Any] | None = None
        self.token = token
        """The player's token once joined (a room's advice asks for it over HTTP)."""
        self._id = 0
        self.ws.send(json.dumps({"t": "hello", "v": 1, "token": token, "lang": "en"}))

    def recv(self, timeout: float) -> Any:
        raw = self.ws.recv(timeout=timeout)
        msg = raw if isinstance(raw, bytes) else json.loads(raw)
        self.log.append(msg)
        if isinstance(msg, dict) and msg.get("t") == "state":
            self.last_state = msg
        return msg

    def expect(self, where: Callable[[Any], bool], timeout: float = 10) -> Any:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message")
            msg = self.recv(left)
            if isinstance(msg, dict) and where(msg):
                return msg

    def state(self, where: Callable[[dict[str, Any]], bool], timeout: float = 10) -> Any:
        if self.last_state is not None and where(self.last_state):
            return self.last_state
        return self.expect(lambda m: m.get("t") == "state" and where(m), timeout)

    def request(self, msg: dict[str, Any]) -> Any:
        self._id += 1
        rid = self._id
        self.ws.send(json.dumps({**msg, "id": rid}))
        reply = self.expect(lambda m: m.get("t") in ("ack", "error") and m.get("id") == rid)
        assert reply["t"] == "ack", reply
        return reply

    def act(self, action: dict[str, Any]) -> Any:
        return self.request({"t": "act", "action": action})

    def join(self, name: str, colour: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"t": "join", "name": name, "colour": colour}))
        msg: dict[str, Any] = self.expect(lambda m: m.get("t") in ("joined", "error"))
        assert msg["t"] == "joined", msg
        self.token = msg.get("token") or self.token
        return msg

    @property
    def bearer(self) -> dict[str, str]:
        """The header that proves this player's seat to the room's HTTP routes."""
        return {"Authorization": f"Bearer {self.token}"}

    def draw(self, *batches: bytes) -> None:
        for b in batches:
            self.ws.send(b)
        self.request({"t": "ping"})  # the server has taken them all

    def close(self) -> None:
        self.ws.close()


def phase_is(phase: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: bool(m.get("game")) and m["game"]["phase"] == phase
