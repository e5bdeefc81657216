"""Request bodies against a real server process, over raw sockets: a body that stops
or trickles is answered 408 and closed, unfinished requests from many addresses
cannot take the server (the budget sheds the slowest of the oldest; a newcomer's
complete request is answered; open games keep playing), and abuse is logged as a
summary. Many addresses are loopback ones (127.0.0.x), bound by each client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

import httpx

from support.server import ServerProcess, create_room, wait_until
from support.ws_raw import TIMEOUT, eof, hello, masked, raw_upgrade, read_frame

ROOM = b'{"game": "secrets", "settings": {}, "language": "en"}'


async def connect(srv: ServerProcess, address: str = "127.0.0.1"
                  ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", srv.port, local_addr=(address, 0))


def post_head(length: int, lang: str = "en") -> bytes:
    return (f"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Accept-Language: {lang}\r\nContent-Length: {length}\r\n\r\n").encode()


async def answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of one HTTP answer with a Content-Length."""
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)).decode()
    lines = head.split("\r\n")
    headers = dict((k.lower(), v.strip()) for k, v in
                   (line.split(":", 1) for line in lines[1:] if ":" in line))
    body = await reader.readexactly(int(headers["content-length"]))
    return int(lines[0].split()[1]), headers, body


def health(srv: ServerProcess) -> dict[str, int]:
    got: dict[str, int] = httpx.get(srv.http + "/healthz", timeout=TIMEOUT).json()
    return got


async def test_a_body_that_stops_arriving_is_answered_408_at_the_timeout(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--body-timeout", "1", "--abuse-log-every", "0.5")

    async def stalled(first: bytes, lang: str = "en") -> tuple[float, int, dict[str, str],
                                                               bytes]:
        reader, writer = await connect(srv)
        writer.write(first + post_head(len(ROOM), lang) + ROOM[:10])  # and then nothing
        started = time.monotonic()
        if first:  # a kept-alive connection's first answer
            assert (await answer(reader))[0] == 200
        status, headers, body = await answer(reader)
        took = time.monotonic() - started
        assert await eof(reader)
        writer.close()
        return took, status, headers, body

    plain, kept_alive, german = await asyncio.gather(
        stalled(b""), stalled(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"),
        stalled(b"", "de"))
    for took, status, headers, body in (plain, kept_alive, german):
        assert status == 408
        assert took >= 0.9  # not before its time (the clock starts at the head's end)
        assert headers["connection"] == "close"
        error = json.loads(body)
        assert error["code"] == "body_timeout"
        assert error["params"] == {"seconds": "1", "rate": 1024}
    assert "pause at most 1 s" in json.loads(plain[3])["message"]
    assert "höchstens 1 s" in json.loads(german[3])["message"]
    # one summary for the three, no line per event
    await wait_until(lambda: "request bodies too slow" in srv.log(), what="the summary")
    log = srv.log()
    assert "request bodies too slow or stopped (408): 3 from 1 address (127.0.0.1: 3)" in log
    assert "left before sending" not in log


async def test_a_body_trickled_below_the_minimum_rate_is_closed(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--body-timeout", "3", "--body-min-rate", "200")
    padded = ROOM + b" " * (1200 - len(ROOM))

    async def trickle(chunk: int) -> tuple[int, float]:
        """Send ``chunk`` bytes every 0.1 s (never a pause near the timeout)."""
        reader, writer = await connect(srv)
        writer.write(post_head(len(padded)))
        started = time.monotonic()
        reply = asyncio.ensure_future(answer(reader))
        sent = 0
        while sent < len(padded) and not reply.done():
            writer.write(padded[sent:sent + chunk])
            sent += chunk
            await asyncio.wait([reply], timeout=0.1)
        status = (await reply)[0]
        writer.close()
        return status, time.monotonic() - started

    (slow, slow_took), (fast, _) = await asyncio.gather(trickle(5), trickle(400))
    assert slow == 408  # 50 bytes a second, under 200
    assert slow_took >= 3.0  # the first --body-timeout seconds are free
    assert fast == 201  # 4,000 bytes a second: the room is created


async def test_with_the_budget_full_a_newcomer_is_answered_and_games_play_on(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = server_factory("--max-pending", "30", "--max-sockets", "1000",
                         "--head-timeout", "60", "--body-timeout", "60",
                         "--forwarded-allow-ips", "10.255.255.1")
    # a game in play before the flood
    reader, writer, _ = await raw_upgrade(srv, f"/ws/{create_room(srv.http)}")
    writer.write(masked(1, hello()))
    assert json.loads((await read_frame(reader))[1])["t"] == "welcome"

    # 10 addresses hold 6 slow bodies each (each announces 90,000 bytes, sends 10)
    held = []
    for i in range(60):
        slow_reader, slow_writer = await connect(srv, f"127.0.0.{10 + i % 10}")
        slow_writer.write(post_head(90_000) + b'{"game": "')
        held.append((slow_reader, slow_writer))
    await wait_until(lambda: health(srv)["unfinished_refused"] >= 30, what="refusals")
    figures = health(srv)
    # full: a new one from an address that holds its share is closed unread
    assert figures["unfinished_requests"] <= 30
    # charged by what arrived (a fixed cost and about 150 bytes each), not 90,000 each
    assert figures["unfinished_bytes"] < 30 * (12 * 1024 + 1000)

    # a newcomer from another address with a complete request is answered
    new_reader, new_writer = await connect(srv, "127.0.0.200")
    new_writer.write(post_head(len(ROOM)) + ROOM)
    status, _, body = await answer(new_reader)
    assert status == 201, body
    new_writer.close()
    # in the place of the oldest, shed with a 503 its client can read
    assert health(srv)["unfinished_shed"] >= 1
    status, headers, body = await answer(held[0][0])
    assert status == 503
    assert headers["retry-after"] == "5"
    assert json.loads(body)["code"] == "server_busy"

    # the game socket was never shed: it still plays
    writer.write(masked(1, b'{"t": "ping"}'))
    while True:
        opcode, payload = await read_frame(reader)
        assert opcode != 8, "the game socket was closed"
        if opcode == 1 and json.loads(payload)["t"] == "pong":
            break
    for _, slow_writer in held:
        slow_writer.close()
    writer.close()
