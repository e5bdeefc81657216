"""``atelier serve --workers N``: N server processes behind one address, each room
served by exactly one of them.

A room's players must meet in one process: its ink is relayed in memory and
never crosses a process boundary. So the parent process owns the listening
socket and does one thing per new connection: it peeks at the request line
(without reading it), finds the room code in the path (``/ws/CODE``,
``/r/CODE...``, ``/api/rooms/CODE...``), and hands the connection itself (the
file descriptor, over a Unix socket) to the room's worker: ``crc32(code) % N``.
Connections without a room go to the workers in turn. After the hand-over the
parent is out of the path: bytes flow between the client and the worker.

A browser may reuse one HTTP connection for several requests. A worker asked
about a room it does not own answers ``307`` to the same address with
``Connection: close``, so the browser asks again on a new connection, which the
parent routes right (:class:`OwnerOnly`). All workers share the database (SQLite
file or PostgreSQL); each restores, times and plays only its own rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, cast

import uvicorn

from atelier.server.edge.addresses import SocketCounts, Ticket

log = logging.getLogger(__name__)

ROOM_PATH = re.compile(rb"^[A-Z]+ /(?:ws|r|api/rooms)/([A-Za-z0-9]{1,16})(?:[/?# ]|$)")
PEEK_BYTES = 2048
FIRST_LINE_SECONDS = 10.0

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def owner(code: str, workers: int) -> int:
    """The worker that serves a room (room codes are upper case)."""
    return zlib.crc32(code.upper().encode()) % workers


def room_in_request_line(head: bytes) -> str | None:
    found = ROOM_PATH.match(head)
    return found.group(1).decode().upper() if found else None


# -- in the parent ------------------------------------------------------------------


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


async def _first_line(conn: socket.socket) -> bytes:
    """The connection's first bytes up to the end of its request line, left unread."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + FIRST_LINE_SECONDS
    while True:
        ready: asyncio.Future[None] = loop.create_future()
        loop.add_reader(conn.fileno(), _settle, ready)
        try:
            await asyncio.wait_for(ready, max(0.0, deadline - loop.time()))
        finally:
            loop.remove_reader(conn.fileno())
        try:
            head = conn.recv(PEEK_BYTES, socket.MSG_PEEK)
        except BlockingIOError:
            continue
        if not head or b"\n" in head or len(head) >= PEEK_BYTES:
            return head
        # half a request line: the rest is on its way (peeking does not consume,
        # so wait a moment rather than spin on a socket that stays readable)
        await asyncio.sleep(0.005)
        if loop.time() > deadline:
            return head


class Worker:
    """One worker process and the Unix socket its connections go through."""

    def __init__(self, k: int, n: int, argv: list[str]) -> None:
        self.k, self.n, self.argv = k, n, argv
        self.channel, self.proc = self._spawn()

    def _spawn(self, wait: bool = False) -> tuple[socket.socket, subprocess.Popen[bytes]]:
        """A new worker process; ``wait``: it loads everything, says so, and waits
        for the parent's word before it starts serving (a rolling restart)."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        proc = subprocess.Popen(
            [sys.executable, "-m", "atelier", "serve", *self.argv,
             "--worker", f"{self.k}/{self.n}", "--worker-fd", str(theirs.fileno()),
             *(["--worker-wait"] if wait else [])],
            pass_fds=[theirs.fileno()])
        theirs.close()
        return mine, proc

    def hand_over(self, conn: socket.socket) -> None:
        try:
            socket.send_fds(self.channel, [b"c"], [conn.fileno()])
        except OSError:
            if not self.revive():
                raise
            socket.send_fds(self.channel, [b"c"], [conn.fileno()])

    replacing = False  # a rolling restart is replacing it: not to be revived meanwhile

    def revive(self) -> bool:
        """Start the worker again if it has died (its rooms come back from the log)."""
        if self.replacing or self.proc.poll() is None:
            return False
        log.error("worker %d exited with %s; starting it again", self.k, self.proc.returncode)
        self.channel.close()
        self.channel, self.proc = self._spawn()
        return True

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)


class Router:
    def __init__(self, workers: list[Worker]) -> None:
        self.workers = workers
        self.turn = itertools.cycle(range(len(workers)))
        # set while worker k is being replaced: its new connections wait here
        self.gates: list[asyncio.Event | None] = [None] * len(workers)
        self.restarting = False

    async def route(self, conn: socket.socket) -> None:
        try:
            head = await _first_line(conn)
            if head:
                code = room_in_request_line(head)
                k = owner(code, len(self.workers)) if code else next(self.turn)
                gate = self.gates[k]
                if gate is not None:
                    await asyncio.wait_for(gate.wait(), STOP_WAIT + FIRST_LINE_SECONDS)
                self.workers[k].hand_over(conn)
        except (TimeoutError, OSError):
            pass
        finally:
            conn.close()

    async def restart(self) -> None:
        """SIGHUP: replace the workers one at a time with new processes (new code).

        Each old worker stops as on SIGTERM: its sockets are closed with 1012
        (the clients reconnect by themselves) and it writes the ink it accepted
        before exiting. Only then is its replacement started, so the new process
        loads each room from a complete log. Connections for that worker's rooms
        that arrive meanwhile wait in the parent and are handed to the new one;
        the other workers serve throughout."""
        if self.restarting:
            return
        self.restarting = True
        loop = asyncio.get_running_loop()
        try:
            for k, worker in enumerate(self.workers):
                # the new process first: its imports and app (seconds on a busy
                # machine) happen while the old one still serves
                channel, proc = worker._spawn(wait=True)
                if not await loop.run_in_executor(None, _ready, channel):
                    log.error("worker %d's replacement did not start; the old one stays", k)
                    proc.kill()
                    channel.close()
                    continue
                gate = self.gates[k] = asyncio.Event()
                worker.replacing = True
                try:
                    worker.stop()
                    await loop.run_in_executor(None, _wait_or_kill, worker.proc)
                    worker.channel.close()
                    # only now may it load rooms: the old one has written their ink
                    channel.sendall(b"g")
                    worker.channel, worker.proc = channel, proc
                finally:
                    worker.replacing = False
                    self.gates[k] = None
                    gate.set()
                log.warning("worker %d replaced (process %d)", k, worker.proc.pid)
        finally:
            self.restarting = False


STOP_WAIT = 30.0
"""Seconds an old worker has to stop (closing sockets, writing its ink) before it is killed."""


READY_WAIT = 300.0  # seconds a replacement may take to load before it is given up


def _ready(channel: socket.socket) -> bool:
    """Whether a waiting worker said it is loaded (one byte on its channel)."""
    channel.settimeout(READY_WAIT)
    try:
        return channel.recv(1) == b"r"
    except OSError:
        return False
    finally:
        channel.settimeout(None)


def wait_for_go(fd: int) -> None:
    """In a replacement worker (``--worker-wait``): say it is loaded, then wait
    until the parent says its predecessor has stopped."""
    channel = socket.socket(fileno=os.dup(fd))
    try:
        channel.sendall(b"r")
        if channel.recv(1) != b"g":
            raise SystemExit(0)  # the parent gave up on this one
    finally:
        channel.close()


def _wait_or_kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        proc.wait(STOP_WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def _accept_forever(listener: socket.socket, router: Router,
                          counts: SocketCounts) -> None:
    loop = asyncio.get_running_loop()

    def on_child_exit() -> None:
        # a second later, so a worker that cannot start does not spin
        loop.call_later(1.0, lambda: [w.revive() for w in router.workers])

    loop.add_signal_handler(signal.SIGCHLD, on_child_exit)
    tasks: set[asyncio.Task[None]] = set()

    def on_reload() -> None:
        task = asyncio.create_task(router.restart())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    loop.add_signal_handler(signal.SIGHUP, on_reload)
    while True:
        conn, peer = await loop.sock_accept(listener)
        # counted while it waits here for its request line, as the workers count it after
        ticket = counts.take(peer[0] if isinstance(peer, tuple) else None)
        if ticket is None:
            conn.close()
            continue
        conn.setblocking(False)
        task = asyncio.create_task(router.route(conn))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        task.add_done_callback(_releaser(ticket))


def _releaser(ticket: Ticket) -> Callable[[asyncio.Task[None]], None]:
    def release(_task: asyncio.Task[None]) -> None:
        ticket.release()

    return release


def run_parent(host: str, port: int, n: int, worker_argv: list[str],
               counts: SocketCounts | None = None) -> int:
    """Listen, start the workers (``atelier serve`` with ``worker_argv``), route."""
    listener = socket.create_server((host, port), backlog=2048)
    listener.setblocking(False)
    workers = [Worker(k, n, worker_argv) for k in range(n)]

    def stop(*_: Any) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        asyncio.run(_accept_forever(listener, Router(workers), counts or SocketCounts()))
    except SystemExit:
        pass
    finally:
        listener.close()
        for worker in workers:
            worker.stop()
        for worker in workers:
            try:
                worker.proc.wait(30)
            except subprocess.TimeoutExpired:
                worker.proc.kill()
    return 0


# -- in a worker ---------------------------------------------------------------------


def receive_connections(fd: int, protocol: Callable[[], asyncio.Protocol]) -> None:
    """Serve every connection the parent hands over on ``fd`` with ``protocol``."""
    loop = asyncio.get_running_loop()
    channel = socket.socket(fileno=fd)
    channel.setblocking(False)
    adopting: set[asyncio.Task[None]] = set()

    def on_readable() -> None:
        while True:
            try:
                msg, fds, _, _ = socket.recv_fds(channel, 64, 64)
            except BlockingIOError:
                return
            if not msg and not fds:  # the parent is gone
                loop.remove_reader(fd)
                os.kill(os.getpid(), signal.SIGTERM)
                return
            for conn_fd in fds:
                conn = socket.socket(fileno=conn_fd)
                conn.setblocking(False)
                task = loop.create_task(_adopt(loop, conn, protocol))
                adopting.add(task)
                task.add_done_callback(adopting.discard)

    loop.add_reader(fd, on_readable)


class WorkerServer(uvicorn.Server):
    """uvicorn without a listening socket of its own: connections come from the parent."""

    def __init__(self, config: uvicorn.Config, fd: int) -> None:
        super().__init__(config)
        self.fd = fd

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])
        if self.should_exit:
            return
        config, state, app_state = self.config, self.server_state, self.lifespan.state

        def create_protocol() -> asyncio.Protocol:
            # uvicorn annotates the class as a bare asyncio.Protocol; its HTTP
            # protocols all take these (tests/test_uvicorn_hooks.py checks)
            protocol = cast(Callable[..., asyncio.Protocol], config.http_protocol_class)
            return protocol(config=config, server_state=state, app_state=app_state)

        receive_connections(self.fd, create_protocol)


async def _adopt(loop: asyncio.AbstractEventLoop, conn: socket.socket,
                 protocol: Callable[[], asyncio.Protocol]) -> None:
    try:
        await loop.connect_accepted_socket(protocol, conn)
    except OSError:
        conn.close()


class OwnerOnly:
    """ASGI middleware: a request about another worker's room is sent back to be
    asked again on a new connection (which the parent routes to that worker)."""

    def __init__(self, app: ASGIApp, mine: Callable[[str], bool], worker: int) -> None:
        self.app = app
        self.mine = mine
        self.header = (b"x-atelier-worker", str(worker).encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            line = f"{scope['method']} {scope['path']} ".encode("latin-1", "replace")
            code = room_in_request_line(line)
            if code is not None and not self.mine(code):
                query = scope.get("query_string", b"").decode("latin-1")
                target = scope["path"] + (f"?{query}" if query else "")
                await send({"type": "http.response.start", "status": 307, "headers": [
                    (b"location", target.encode("latin-1", "replace")),
                    (b"connection", b"close"), (b"content-length", b"0")]})
                await send({"type": "http.response.body", "body": b""})
                return

            async def send_marked(message: MutableMapping[str, Any]) -> None:
                # which worker answered: for operators (and the tests)
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), self.header]
                await send(message)

            await self.app(scope, receive, send_marked)
            return
        await self.app(scope, receive, send)

