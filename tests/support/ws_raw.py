"""A WebSocket client by hand, on raw sockets: frames a library would never send
(bad bits, bad closes, floods), and exactly what the server sends back."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket

from support.server import ServerProcess

TIMEOUT = 20.0


async def raw_upgrade(srv: ServerProcess, path: str, extra: str = "",
                      rcvbuf: int | None = None,
                      ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, str]:
    """An upgraded connection and the server's answer head; ``rcvbuf`` makes the
    client's receive buffer small (a client that reads slowly fills it soon)."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", srv.port))
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 f"Sec-WebSocket-Version: 13\r\n{extra}\r\n".encode())
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)).decode()
    return reader, writer, head


def masked(opcode: int, payload: bytes, final: bool = True, rsv: int = 0,
           length: int | None = None) -> bytes:
    """A client frame; ``rsv`` sets reserved bits (1 to 7), ``length`` claims
    another payload length than the payload's."""
    key = os.urandom(4)
    n = len(payload) if length is None else length
    head = bytes([(0x80 if final else 0) | rsv << 4 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    b0, b1 = await asyncio.wait_for(reader.readexactly(2), TIMEOUT)
    n = b1 & 127
    if n == 126:
        n = int.from_bytes(await reader.readexactly(2), "big")
    elif n == 127:
        n = int.from_bytes(await reader.readexactly(8), "big")
    return b0 & 15, await reader.readexactly(n)


async def frames_until_close(reader: asyncio.StreamReader) -> list[tuple[int, bytes]]:
    seen = []
    while True:
        opcode, payload = await read_frame(reader)
        seen.append((opcode, payload))
        if opcode == 8:
            return seen


def close_code(payload: bytes) -> int:
    return int.from_bytes(payload[:2], "big")


async def eof(reader: asyncio.StreamReader) -> bool:
    """Whether the server closes the connection (everything it still sends is read)."""
    while await asyncio.wait_for(reader.read(65536), TIMEOUT):
        pass
    return True


def hello() -> bytes:
    return json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}).encode()
