"""``atelier serve --log-format json``: a whole game's log, every line a JSON
object with the fields an operator filters on, and no token, host key or
secret word anywhere in it."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import httpx

from atelier.logs import JsonFormatter, Redact, redact
from support.client import Client, open_client
from support.ink import stroke
from support.server import ServerProcess, wait_until


async def test_a_whole_games_json_log_parses_and_keeps_every_secret(
        server_factory: Callable[..., ServerProcess], clients: list[Client]) -> None:
    srv = server_factory("--log-format", "json", "--log-level", "debug")
    created = httpx.post(srv.http + "/api/rooms", json={"game": "secrets", "settings": {}})
    code, host_key = created.json()["code"], created.json()["host_key"]
    secrets: set[str] = {host_key}
    players = []
    for i, colour in enumerate(("red", "blue", "green")):
        c = await open_client(clients, srv, code)
        joined = await c.join(f"P{i}", colour, host_key=host_key if i == 0 else None)
        assert joined["t"] == "joined", joined
        secrets.add(joined["token"])
        players.append(c)
    assert (await players[0].request({"t": "start"}))["t"] == "ack"
    for c in players:
        state = await c.state(lambda m: m["game"] is not None and m["game"]["phase"] == "drawing")
        secrets.add(state["game"]["my_word"])
        await c.send(stroke())
    # a rejoin by token, a wrong token, a refused action: lines that could carry them
    again = await open_client(clients, srv, code, token=players[1].token)
    await again.sync()
    await open_client(clients, srv, code, token="x" * 32)
    assert (await players[2].request({"t": "act", "action": {"type": "nonsense"}}))["t"] == "error"
    for c in players:
        assert (await c.act(type="done"))["t"] == "ack"
    await players[0].state(lambda m: m["game"]["phase"] == "reveal")
    assert (await players[0].request({"t": "next"}))["t"] == "ack"
    await players[0].state(lambda m: m["room"]["phase"] == "over")
    for c in [*players, again]:
        await c.close()
    await wait_until(lambda: srv.log().count('"socket closed"') >= 4, 20, "closes logged")
    srv.stop()

    lines = srv.log().splitlines()
    assert lines, "the server logged nothing"
    rooms_seen = set()
    for line in lines:
        record = json.loads(line)  # every line is one JSON object
        for field in ("time", "level", "process", "logger", "event", "message"):
            assert field in record, (field, line)
        rooms_seen.add(record.get("room"))
        for secret in secrets:
            assert secret not in line, f"a secret reached the log: {line}"
    assert code in rooms_seen  # room sockets' lines name their room
    joined_lines = [json.loads(x) for x in lines if '"hello from a %s"' in x]
    assert len({r["conn"] for r in joined_lines}) >= 5  # and each its connection
    assert any(json.loads(x)["logger"] == "uvicorn.access" for x in lines)


def test_the_filter_blanks_credentials_a_careless_line_would_leak() -> None:
    token = "Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA"  # token_urlsafe(24)'s shape
    assert token not in redact(f"joined with {token}")
    assert "hunter2" not in redact('{"word": "hunter2", "seat": 1}')
    assert "https://push.example/abc" not in redact("endpoint=https://push.example/abc")
    record = logging.LogRecord("atelier.x", logging.INFO, __file__, 1, "bad token %s",
                               (token,), None)
    assert Redact().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert token not in json.dumps(line) and line["event"] == "bad token %s"


def test_uvicorns_access_lines_keep_their_format_when_blanked() -> None:
    """uvicorn's access formatter reads the record's arguments: the filter blanks
    each of them, so the line still formats (text and JSON alike)."""
    from uvicorn.logging import AccessFormatter

    token = "Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", f"/r/{token}", "1.1", 404), None)
    assert Redact().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(record)
    assert token not in line and "GET /r/[redacted] HTTP/1.1" in line
