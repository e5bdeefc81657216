"""One fuzzing connection: a player or spectator on a real WebSocket that sends,
waits for each answer and keeps the room's state as the server sends it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any, Protocol

import websockets

from atelier.bench.fuzz.figures import REPLY_SECONDS, SENDS_PER_CONNECTION, SERVER_FAULTS, Figures

# --- connections ----------------------------------------------------------------------


class Driver(Protocol):
    """What a connection reports to and asks of the run that drives it (``Runner``)."""

    ws_base: str
    figures: Figures
    seen: dict[str, int]

    def check(self, ok: bool, what: str) -> None: ...

    def fault(self, what: str) -> None: ...

    async def changed_by_refusal(self, code: str, before: int, after: int,
                                 frame: str | bytes) -> None: ...


class Peer:
    """One player's (or the spectator's) connection, replaced now and then. A reader
    task takes in everything the server sends, so the room's latest state is known
    without waiting."""

    def __init__(self, runner: Driver, code: str, name: str | None) -> None:
        self.runner = runner
        self.code = code
        self.name = name
        self.token: str | None = None
        self.player: str | None = None
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.inbox: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.closed: websockets.ConnectionClosed | None = None
        self.sent = 0
        self.next_id = 10**6
        self.seq = 0
        self.host = False
        self.state: dict[str, Any] = {}

    async def open(self) -> None:
        await self.close()
        self.ws = await websockets.connect(f"{self.runner.ws_base}/ws/{self.code}",
                                           max_size=2**22, max_queue=None)
        self.closed = None
        self.inbox.clear()
        self.reader = asyncio.ensure_future(self._read(self.ws))
        self.sent = 0
        await self.ws.send(json.dumps({"t": "hello", "v": 1, "token": self.token}))
        await self.until(lambda m: m.get("t") == "state")

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader
        self.ws = self.reader = None

    async def _read(self, ws: Any) -> None:
        try:
            async for raw in ws:
                if isinstance(raw, str):
                    msg = json.loads(raw)
                    self.note(msg)
                    self.inbox.append(msg)
                    self.arrived.set()
        except websockets.ConnectionClosed as closed:
            self.closed = closed
        finally:
            if self.closed is None:
                self.closed = websockets.ConnectionClosed(None, None)
            self.arrived.set()

    def note(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "state":
            self.seq = max(self.seq, int(msg["seq"]))
            seen = self.runner.seen
            seen[self.code] = max(seen.get(self.code, 0), self.seq)
            self.host = bool(msg["you"]["host"])
            self.player = msg["you"]["player"]
            self.state = msg
        elif msg.get("t") == "joined":
            self.token = msg["token"]
        elif msg.get("t") == "error" and msg.get("code") in SERVER_FAULTS:
            self.runner.fault(f"{msg}")

    async def until(self, done: Any, seconds: float = REPLY_SECONDS) -> list[dict[str, Any]]:
        """Messages up to and including the first for which ``done`` holds."""
        seen: list[dict[str, Any]] = []
        end = time.monotonic() + seconds
        while True:
            while self.inbox:
                msg = self.inbox.pop(0)
                seen.append(msg)
                if done(msg):
                    return seen
            if self.closed is not None:
                raise self.closed
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), max(0.01, end - time.monotonic()))

    async def drain(self) -> None:
        """Let what has arrived be read (the reader notes it); keep nothing."""
        await asyncio.sleep(0)
        self.inbox.clear()

    async def send(self, frame: str | bytes, msg_id: int | None,
                   must_refuse: bool) -> str | None:
        """Send one fuzz frame and check the answer (see the module's docstring).
        The refusal's code if it was refused ("" if the socket closed), else None."""
        runner = self.runner
        if self.sent >= SENDS_PER_CONNECTION or self.ws is None or self.closed is not None:
            await self.open()
        self.inbox.clear()
        # everything logged before this message has reached some connection of the room
        before = runner.seen.get(self.code, 0)
        self.sent += 2
        runner.figures.messages += 1
        if isinstance(frame, bytes):
            runner.figures.binary += 1
        else:
            runner.figures.text += 1
        try:
            await self.ws.send(frame)
            if msg_id is None:
                self.next_id += 1
                fence = self.next_id
                await self.ws.send(json.dumps({"t": "ping", "id": fence}))
                seen = await self.until(lambda m: m.get("id") == fence
                                        and m.get("t") in ("ack", "error"))
                errors = [m for m in seen if m.get("t") == "error"]
                # an error on the fence itself: rate limited
                refusal = str(errors[0].get("code")) if errors else None
            else:
                seen = await self.until(lambda m: m.get("id") == msg_id
                                        and m.get("t") in ("ack", "error"))
                refusal = str(seen[-1].get("code")) if seen[-1]["t"] == "error" else None
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code == 1011:
                runner.fault(f"closed 1011 after {frame!r:.120}")
            # closes the protocol documents (1008 abuse, 1009 too big, 1013 too slow)
            await self.close()
            return "abuse" if code == 1008 else ""
        except TimeoutError:
            runner.figures.unanswered += 1
            runner.figures.problem(f"no answer to {frame!r:.200}")
            runner.check(False, "unanswered")
            await self.close()
            return ""
        if refusal is not None:
            runner.figures.refused += 1
            if self.seq > before:
                await runner.changed_by_refusal(self.code, before, self.seq, frame)
        elif must_refuse:
            runner.figures.unanswered += 1
            runner.figures.problem(f"not refused: {frame!r:.200}")
            runner.check(False, "a frame that is no message was not refused")
        return refusal
