"""What one client could do to a whole server below the WebSocket layer: slow or
silent connections, many of them from one address, a low file limit, a socket
that never says hello. Real sockets to a real server process."""

from __future__ import annotations

import asyncio
import json
import resource
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from support.server import ServerProcess, create_room, free_port
from support.ws_raw import TIMEOUT, eof, frames_until_close, hello, masked, raw_upgrade, read_frame


async def connect(srv: ServerProcess) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", srv.port)


async def test_a_request_head_that_does_not_come_in_time_is_closed(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--head-timeout", "1")

    async def closed_after(partial: bytes) -> float:
        reader, writer = await connect(srv)
        writer.write(partial)
        started = time.monotonic()
        assert await eof(reader)
        writer.close()
        return time.monotonic() - started

    took = await asyncio.gather(*map(closed_after, [
        b"",  # silent
        b"GET /ws/ABCDEF HTTP/1.1\r\nHost: x\r\n",  # a room socket's head, half sent
        b"GET / HTTP/1.1\r\nHo",  # a page's
        b"POST /api/rooms HTTP/1.1\r\nContent-Type: application/json\r\n",
    ]))
    print("closed after " + ", ".join(f"{t:.2f}" for t in took) + " s")

    # the next head on a kept-alive connection is timed too
    reader, writer = await connect(srv)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)).decode()
    assert head.startswith("HTTP/1.1 200")
    length = next(int(line.split(":")[1]) for line in head.split("\r\n")
                  if line.lower().startswith("content-length:"))
    await reader.readexactly(length)
    writer.write(b"GET /healthz HTTP/1.1\r\nHo")
    assert await eof(reader)
    writer.close()


async def test_connections_per_address_are_counted_from_the_accept(
        server_factory: Callable[..., ServerProcess]) -> None:
    # 127.0.0.1 is not a trusted proxy here, so it is counted as the client
    srv = server_factory("--max-sockets", "5", "--head-timeout", "60",
                         "--forwarded-allow-ips", "10.255.255.1")
    opened = [await connect(srv) for _ in range(6)]  # none sends a byte
    reads = {asyncio.ensure_future(reader.read(1)): writer for reader, writer in opened}
    done, pending = await asyncio.wait(reads, timeout=TIMEOUT,
                                       return_when=asyncio.FIRST_COMPLETED)
    assert [task.result() for task in done] == [b""]  # one of the six closed at once
    seventh, seventh_writer = await connect(srv)
    assert await eof(seventh)  # and so is the next
    # HTTP too: a request from this address is not even read
    try:
        refused = httpx.get(srv.http + "/healthz", timeout=TIMEOUT)
    except httpx.HTTPError:
        pass
    else:
        raise AssertionError(f"answered {refused.status_code} beyond the limit")
    for task in pending:
        task.cancel()
    for writer in [*reads.values(), seventh_writer]:
        writer.close()

    # closed connections are given back: requests go through again, one after another
    async def answers() -> bool:
        try:
            return httpx.get(srv.http + "/healthz", timeout=TIMEOUT).status_code == 200
        except httpx.HTTPError:
            return False

    deadline = time.monotonic() + TIMEOUT
    while not await answers():
        assert time.monotonic() < deadline, "the closed connections were never given back"
        await asyncio.sleep(0.05)
    for _ in range(12):
        assert await answers()


def test_the_file_limit_is_raised_to_the_hard_limit(tmp_path: Path) -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    srv = ServerProcess(free_port(), str(tmp_path / "a.sqlite3"), [],
                        log_path=str(tmp_path / "server.log"), nofile=256)
    try:
        srv.start()
        limit = httpx.get(srv.http + "/healthz").json()["open_files_limit"]
    finally:
        srv.stop()
    assert limit == hard or (hard == resource.RLIM_INFINITY and limit > 256)


async def test_a_socket_that_does_not_say_hello_in_time_is_closed(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--hello-timeout", "1")
    reader, writer, head = await raw_upgrade(srv, f"/ws/{create_room(srv.http)}")
    assert head.startswith("HTTP/1.1 101")
    writer.write(masked(9, b"a ping is no hello"))
    seen = await frames_until_close(reader)
    texts = [json.loads(payload) for op, payload in seen if op == 1]
    assert [t["code"] for t in texts] == ["hello_first"]
    assert int.from_bytes(seen[-1][1][:2], "big") == 4400
    writer.close()


async def test_an_upgrade_on_a_kept_alive_connection_is_a_room_socket(
        server_factory: Callable[..., ServerProcess]) -> None:
    """A proxy reuses its connections to the server (nginx's keepalive): an upgrade
    after an HTTP request on the same connection gets the room socket too, and the
    connection is counted once."""
    srv = server_factory("--max-sockets", "1", "--forwarded-allow-ips", "10.255.255.1")
    code = create_room(srv.http)
    reader, writer = await connect(srv)
    for path in ("/healthz", f"/api/rooms/{code}"):
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)).decode()
        assert head.startswith("HTTP/1.1 200"), head
        length = next(int(line.split(":")[1]) for line in head.split("\r\n")
                      if line.lower().startswith("content-length:"))
        await reader.readexactly(length)
    writer.write(f"GET /ws/{code} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)).decode()
    assert head.startswith("HTTP/1.1 101"), head
    writer.write(masked(1, hello()))
    opcode, payload = await read_frame(reader)
    assert (opcode, json.loads(payload)["t"]) == (1, "welcome")
    writer.close()
    await writer.wait_closed()
    # the one connection this address may hold was given back when it closed
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            if httpx.get(srv.http + "/healthz", timeout=TIMEOUT).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the connection's count was never given back"
        await asyncio.sleep(0.05)
