"""The room socket's own WebSocket transport (atelier.server.wire.roomsocket), over a real
server process: what a browser or a careless client may send, framed by hand."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import httpx
import pytest
import websockets

from atelier.server.wire.roomsocket import RoomSocket
from support.server import ServerProcess, create_room
from support.ws_raw import frames_until_close, hello, masked, raw_upgrade, read_frame


async def test_a_fragmented_hello_is_one_message(server: ServerProcess) -> None:
    code = create_room(server.http)
    reader, writer, head = await raw_upgrade(server, f"/ws/{code}")
    assert head.startswith("HTTP/1.1 101")
    text = hello()
    writer.write(masked(1, text[:10], final=False) + masked(0, text[10:20], final=False)
                 + masked(9, b"hi")  # a ping may come between fragments
                 + masked(0, text[20:]))
    got = [await read_frame(reader), await read_frame(reader)]
    assert (10, b"hi") in got  # the pong carries the ping's payload
    welcome = next(json.loads(p) for op, p in got if op == 1)
    assert welcome["t"] == "welcome"
    writer.close()


@pytest.mark.parametrize(("frame", "code"), [
    pytest.param(bytes([0x81, 5]) + b"hello", 1002, id="unmasked"),  # clients must mask
    pytest.param(masked(1, b"\xff\xfe"), 1007, id="not-utf8"),
    pytest.param(masked(2, b"x" * 70_000), 1009, id="over-64-KiB"),
    pytest.param(masked(0, b"orphan"), 1002, id="orphan-continuation"),
    pytest.param(masked(3, b""), 1002, id="reserved-opcode"),
])
async def test_a_broken_frame_closes_with_its_code(server: ServerProcess, frame: bytes,
                                                   code: int) -> None:
    room = create_room(server.http)
    reader, writer, head = await raw_upgrade(server, f"/ws/{room}")
    assert head.startswith("HTTP/1.1 101")
    writer.write(masked(1, hello()))
    assert json.loads((await read_frame(reader))[1])["t"] == "welcome"
    writer.write(frame)
    seen = await frames_until_close(reader)
    assert int.from_bytes(seen[-1][1][:2], "big") == code
    writer.close()


async def test_a_request_that_is_not_an_upgrade_is_refused(server: ServerProcess) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /ws/ABCDEF HTTP/1.1\r\nHost: x\r\n\r\n")
    status = (await asyncio.wait_for(reader.readline(), 20)).decode()
    assert status.startswith("HTTP/1.1 400")
    writer.close()


async def test_a_foreign_origin_is_refused_before_the_upgrade(server: ServerProcess) -> None:
    code = create_room(server.http)
    _, writer, head = await raw_upgrade(server, f"/ws/{code}", "Origin: http://evil.example\r\n")
    assert head.startswith("HTTP/1.1 403")
    writer.close()


async def test_the_same_port_serves_http_and_the_closing_handshake(server: ServerProcess) -> None:
    async with httpx.AsyncClient() as http:
        assert (await http.get(server.http + "/healthz")).status_code == 200
    code = create_room(server.http)
    ws = await websockets.connect(f"{server.ws}/ws/{code}")
    await ws.send(hello().decode())
    assert json.loads(await ws.recv())["t"] == "welcome"
    await ws.ping()
    await ws.close()
    assert ws.close_code == 1000


class Transport:
    """What a room socket writes, and nothing else."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass

    def get_extra_info(self, name: str) -> None:
        return None


def _opened_socket() -> tuple[RoomSocket, Transport]:
    """A room socket whose connection is made, on a Transport, before any session."""

    async def handler(ws: object, code: str, transport: object) -> None:
        pass

    sock = RoomSocket(handler, SimpleNamespace(connections=set(), tasks=set()))
    transport = Transport()
    sock.connection_made(transport)  # type: ignore[arg-type]
    return sock, transport


def test_a_client_heard_from_is_not_pinged_and_one_that_stays_silent_is_closed() -> None:
    """Each period (PING_SECONDS) the Keepalive looks at what each socket heard; the
    test looks itself, so it waits for no clock."""
    from atelier.server.wire.roomsocket import PING_PATIENCE, Keepalive

    async def run() -> None:
        sock, transport = _opened_socket()
        sock.task = asyncio.create_task(asyncio.sleep(0))  # a session has started
        sock.deaf = False
        sock.accepted = True

        sweeper = Keepalive()
        sweeper.add(sock)

        def look() -> list[bytes]:  # one period's sweep, without waiting for it
            assert sweeper.timer is not None
            sweeper.timer.cancel()
            before = len(transport.sent)
            sweeper.sweep()
            return transport.sent[before:]

        for _ in range(3):  # a drawing client: heard every period, never pinged
            sock.data_received(masked(2, b"\x01\x00"))
            assert look() == []
        assert look() == [b"\x89\x00"]  # silent for a period: pinged
        sock.data_received(masked(10, b""))  # the pong
        assert look() == []
        assert look() == [b"\x89\x00"]  # an idle client: pinged every other period
        for _ in range(PING_PATIENCE - 1):
            assert look() == []
        closing = look()
        assert closing == [b"\x88\x18" + (1011).to_bytes(2, "big") + b"keepalive ping timeout"]
        assert not sweeper.sockets and sweeper.timer is None  # nothing left to look at

    asyncio.run(run())


def test_a_bundle_is_written_at_once_only_while_the_socket_takes_it() -> None:
    """The bundle tick writes a connection's bundle straight to its socket while
    the socket is accepted, open and not pushing back (``RoomSocket.ready``);
    otherwise it waits in the connection's queue for the writer, in order."""
    from typing import cast

    from starlette.websockets import WebSocket

    from atelier.server.room.connection import Connection
    from atelier.server.wire.wsframe import BINARY, frame

    async def run() -> None:
        sock, transport = _opened_socket()
        conn = Connection(cast(WebSocket, None), sock)
        conn.send_out(b"before the accept")
        assert transport.sent == [] and list(conn.queue) == [b"before the accept"]
        conn.queue.clear()
        sock.accepted = True
        sock.resume_writing()  # as the accept does: ready now
        assert sock.ready
        conn.send_out(b"one")
        assert transport.sent == [frame(BINARY, b"one")]
        sock.pause_writing()  # the client reads too slowly: nothing more at once
        conn.send_out(b"two")
        conn.send_out(b"three")
        assert transport.sent == [frame(BINARY, b"one")]
        assert list(conn.queue) == [b"two", b"three"]
        sock.resume_writing()
        conn.send_out(b"four")  # behind what waits, never before it
        assert list(conn.queue) == [b"two", b"three", b"four"]
        sock.connection_lost(None)
        assert not sock.ready and not sock.write_now(b"gone")

    asyncio.run(run())
