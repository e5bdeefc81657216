"""Whatever a client sends, the server answers it and keeps going: frames it
cannot parse get ``bad_message``, the connection stays usable, and nothing
reaches the server's log as a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable

import websockets

from support.client import Client, open_client
from support.server import ServerProcess, create_room

NESTED = "[" * 5000 + "]" * 5000  # 10 KB, under the 16 KiB frame limit


def stderr_of(srv: ServerProcess) -> str:
    srv.stop()
    return srv.log()


async def test_deep_nesting_before_and_after_hello(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    srv = server_factory()
    code = create_room(srv.http)
    # before hello: an error, and the hello that follows still works
    ws = await websockets.connect(f"{srv.ws}/ws/{code}")
    await ws.send(NESTED)
    err = json.loads(await ws.recv())
    assert (err["t"], err["code"]) == ("error", "bad_message")
    assert err["params"]["detail"] == "nested too deeply"
    await ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
    assert json.loads(await ws.recv())["t"] == "welcome"
    await ws.close()
    # after hello: an error with the frame's id if it has one, then business as usual
    c = await open_client(clients, srv, code, lang="uk")
    await c.send(NESTED)
    err = await c.expect("error")
    assert err["code"] == "bad_message" and "nested too deeply" in err["message"]
    await c.send('{"t": "ping", "id": 7, "x": ' + "[" * 40 + "]" * 40 + "}")
    err = await c.expect("error")
    assert err["code"] == "bad_message" and err["id"] == 7
    # nesting inside a field that takes any JSON (settings) is refused too
    await c.send(json.dumps({"t": "settings", "settings": {"a": NESTED}})[:-1]
                 .replace('"' + NESTED + '"', NESTED) + "}")
    assert (await c.expect("error"))["code"] == "bad_message"
    joined = await c.join("Ann", "red")
    assert joined["t"] == "joined"
    assert (await c.request({"t": "ping"}))["t"] == "ack"
    log = stderr_of(srv)
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log


async def test_every_unparseable_frame_before_hello_is_answered(server: ServerProcess) -> None:
    code = create_room(server.http)
    ws = await websockets.connect(f"{server.ws}/ws/{code}")
    for raw in ("not json", "[1]", '{"t": "dance"}', NESTED, "{" * 3000):
        await ws.send(raw)
        assert json.loads(await ws.recv())["code"] == "bad_message", raw
    await ws.send(json.dumps({"t": "hello", "v": 1}))
    assert json.loads(await ws.recv())["t"] == "welcome"
    await ws.close()
