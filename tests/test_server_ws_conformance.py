"""The room socket against RFC 6455 where Autobahn|Testsuite found it wrong, and
against the floods that stalled the whole server, over raw sockets to a real
server process (tests/test_autobahn.py runs the suite itself)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Callable

import pytest

from support.server import ServerProcess, create_room
from support.ws_raw import (
    close_code,
    eof,
    frames_until_close,
    hello,
    masked,
    raw_upgrade,
    read_frame,
)


async def welcomed(srv: ServerProcess) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer, head = await raw_upgrade(srv, f"/ws/{create_room(srv.http)}")
    assert head.startswith("HTTP/1.1 101")
    writer.write(masked(1, hello()))
    assert json.loads((await read_frame(reader))[1])["t"] == "welcome"
    return reader, writer


async def closed_with(srv: ServerProcess, frame: bytes) -> list[tuple[int, bytes]]:
    """The frames other than the room's text messages that the server sends after
    ``frame``, up to its close frame, which must end the connection."""
    reader, writer = await welcomed(srv)
    writer.write(frame)
    seen = await frames_until_close(reader)
    assert await eof(reader)
    writer.close()
    return [(op, payload) for op, payload in seen if op != 1]


@pytest.mark.parametrize("frame", [
    pytest.param(masked(1, b"hi", rsv=1), id="text-rsv1"),
    pytest.param(masked(1, b"hi", rsv=2), id="text-rsv2"),
    pytest.param(masked(2, b"hi", rsv=4), id="binary-rsv3"),
    pytest.param(masked(9, b"hi", rsv=7), id="ping-all-rsv"),
])
async def test_reserved_bits_fail_the_connection(server: ServerProcess, frame: bytes) -> None:
    seen = await closed_with(server, frame)
    assert [op for op, _ in seen] == [8]  # not answered
    assert close_code(seen[-1][1]) == 1002


async def test_a_ping_over_125_bytes_is_refused_not_cut(server: ServerProcess) -> None:
    seen = await closed_with(server, masked(9, b"p" * 126))
    assert [op for op, _ in seen] == [8]  # no pong, of 125 bytes or any other
    assert close_code(seen[-1][1]) == 1002


@pytest.mark.parametrize("opcode", [9, 10, 8])
async def test_a_fragmented_control_frame_is_refused(server: ServerProcess, opcode: int) -> None:
    seen = await closed_with(server, masked(opcode, b"ab", final=False))
    assert [op for op, _ in seen] == [8]
    assert close_code(seen[-1][1]) == 1002


@pytest.mark.parametrize(("payload", "code"), [
    pytest.param(b"\x03", 1002, id="one-byte"),
    pytest.param((1000).to_bytes(2, "big") + b"r" * 124, 1002, id="126-bytes"),
    pytest.param((1000).to_bytes(2, "big") + b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce"
                 b"\xb5\xed\xa0\x80\x65\x64\x69\x74\x65\x64", 1007, id="reason-not-utf8"),
    *[pytest.param(bad.to_bytes(2, "big"), 1002, id=f"code-{bad}")
      for bad in (0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535)],
    *[pytest.param(good.to_bytes(2, "big") + b"bye", good, id=f"echo-{good}")
      for good in (1000, 1001, 1003, 1011, 3000, 4999)],
    pytest.param(b"", None, id="empty"),
])
async def test_a_close_frame_is_checked_before_it_is_answered(
        server: ServerProcess, payload: bytes, code: int | None) -> None:
    seen = await closed_with(server, masked(8, payload))
    assert [op for op, _ in seen] == [8]
    if code is None:
        assert seen[-1][1] == b""  # no code: none sent back (1005 is never on the wire)
    else:
        assert close_code(seen[-1][1]) == code


async def test_text_that_turns_bad_in_a_fragment_fails_at_that_fragment(
        server: ServerProcess) -> None:
    reader, writer = await welcomed(server)
    writer.write(masked(1, b"\xce\xba\xe1\xbd\xb9", final=False)
                 + masked(0, b"\xf4\x90\x80\x80", final=False))  # beyond U+10FFFF
    seen = await frames_until_close(reader)  # the message is never finished
    assert close_code(seen[-1][1]) == 1007
    writer.close()


async def test_an_oversized_message_closes_the_connection_at_once(
        server: ServerProcess) -> None:
    """The refusal is a close frame followed at once by the end of the connection
    (not a grace timer for the client's answer), and the rest of the payload is
    never read as frames."""
    reader, writer = await welcomed(server)
    writer.write(masked(2, b"", length=70_000))  # the header of a 70 KB message
    writer.write(masked(9, b"inside the payload"))  # part of that payload, not a ping
    started = time.monotonic()
    seen = await frames_until_close(reader)
    assert 10 not in [op for op, _ in seen] and close_code(seen[-1][1]) == 1009
    assert await eof(reader)
    took = time.monotonic() - started
    print(f"refused and closed in {1000 * took:.1f} ms")
    assert took < 1.5  # the grace for a close the client did not start is 2 s
    writer.close()


async def test_a_flood_of_empty_fragments_is_refused_before_hello(
        server: ServerProcess) -> None:
    """40,000 empty fragments (240 KB) once blocked the event loop for seconds; the
    fragments of a message are counted, so the flood is refused after a few."""
    reader, writer, head = await raw_upgrade(server, f"/ws/{create_room(server.http)}")
    assert head.startswith("HTTP/1.1 101")
    flood = masked(1, b"", final=False) + masked(0, b"", final=False) * 40_000
    started = time.monotonic()
    writer.write(flood)
    seen = await frames_until_close(reader)
    took = time.monotonic() - started
    assert close_code(seen[-1][1]) == 1009
    print(f"40,000 empty fragments refused in {1000 * took:.1f} ms")
    assert took < 1.0
    # and the server was free all along: another connection is answered
    other, other_writer = await welcomed(server)
    other_writer.write(masked(9, b"still here"))
    while (answer := await read_frame(other))[0] == 1:  # the room's messages
        pass
    assert answer == (10, b"still here")
    writer.close()
    other_writer.close()


async def test_pings_from_a_client_that_reads_nothing_are_not_buffered(
        server: ServerProcess) -> None:
    """Pongs wait while the client does not read (the server's writing is paused):
    only the latest ping is answered then, so a client cannot fill the server's
    memory with pongs it never reads."""
    reader, writer, head = await raw_upgrade(server, f"/ws/{create_room(server.http)}",
                                             rcvbuf=4096)
    assert head.startswith("HTTP/1.1 101")
    pings = 100_000
    ping = masked(9, b"p" * 125)  # a pong of 127 bytes each: 12.7 MB in all
    for _ in range(pings // 1000):
        writer.write(ping * 1000)
        await writer.drain()
    writer.write(masked(8, (1000).to_bytes(2, "big")))
    await writer.drain()
    pongs = 0
    while True:
        opcode, _ = await read_frame(reader)
        if opcode == 8:
            break
        pongs += opcode == 10
    print(f"{pongs} pongs for {pings} pings sent without reading")
    # what the kernel's buffers held before writing paused (a few MB), never all
    assert 0 < pongs < pings // 2
    writer.close()


async def test_a_client_that_reads_nothing_does_not_hold_up_a_clean_stop(
        server_factory: Callable[..., ServerProcess]) -> None:
    """Stopping closes every socket with 1012; one whose client reads nothing
    cannot take the close frame, and is dropped after the grace period instead of
    keeping the server running."""
    # a long hello timeout, so that the server has no reason of its own to close first
    srv = server_factory("--hello-timeout", "120")
    _, writer, head = await raw_upgrade(srv, f"/ws/{create_room(srv.http)}", rcvbuf=4096)
    assert head.startswith("HTTP/1.1 101")
    ping = masked(9, b"p" * 125)
    try:
        for _ in range(50):  # enough pongs to fill every buffer between us
            writer.write(ping * 1000)
            await writer.drain()
    except (ConnectionResetError, BrokenPipeError):
        # the server closed first (a busy machine: it may drop a client that reads
        # nothing): what is tested is the clean stop that follows, not our writes
        pass
    assert srv.proc is not None
    srv.proc.terminate()
    exited = await asyncio.to_thread(srv.proc.wait, 30)  # else TimeoutExpired: it hung
    assert exited in (0, -signal.SIGTERM)  # uvicorn raises the signal again once stopped
    writer.close()
