"""A drawing's replay over HTTP: the guesses on its timeline come from the
server's log and appear only after the reveal; the animated export is bounded
and follows the PNG route's visibility rules."""

from __future__ import annotations

import io
import json
import struct
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from PIL import Image

from atelier.ink.animate import MAX_BYTES, MAX_FRAMES, MAX_SIZE
from atelier.server.room.marks import replay_ms
from support.client import Client, seated_room
from support.ink import line_across
from support.log import logged_events
from support.server import ServerProcess
from test_server_leak import CARDS


@pytest.fixture(autouse=True)
def patient_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replies may take a while on a loaded machine (a restart, renders):
    wait up to 20 s for each, not the helper's 5."""
    original = Client.request

    async def request(self: Client, msg: dict[str, Any], timeout: float = 20) -> Any:
        return await original(self, msg, timeout)

    monkeypatch.setattr(Client, "request", request)


def split(raw: bytes) -> list[bytes]:
    out, i = [], 0
    while i < len(raw):
        (n,) = struct.unpack(">I", raw[i:i + 4])
        out.append(raw[i + 4:i + 4 + n])
        i += 4 + n
    return out


async def test_guesses_on_the_timeline_from_the_log_only_after_the_reveal(
    server_factory: Callable[..., ServerProcess], clients: list[Client]
) -> None:
    server = server_factory()
    code, players = await seated_room(
        clients, server, 3, {"rounds": 1, "levels": [1], "custom_cards": CARDS},
        game="pictomania")
    ann, bob, cat = players
    for c in players:
        assert (await c.request({"t": "act", "action": {"type": "ready"}}))["t"] == "ack"
    for c in players:
        await c.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "drawing", 20)
    url = f"{server.http}/api/rooms/{code}/drawings/round-1/0"

    # Ann draws one stroke; Bob guesses; Ann draws two more; Cat guesses.
    await ann.send(line_across(500, 0))
    assert (await ann.request({"t": "ping"}))["t"] == "ack"
    assert (await bob.request({"t": "act", "action": {"type": "guess", "target": 0,
                                                      "number": 1}}))["t"] == "ack"
    await ann.send(line_across(900, 3000))
    await ann.send(line_across(1300, 3800))
    assert (await ann.request({"t": "ping"}))["t"] == "ack"
    assert (await cat.request({"t": "act", "action": {"type": "guess", "target": 0,
                                                      "number": 2}}))["t"] == "ack"

    secret = httpx.get(url + ".json", timeout=30).json()
    assert secret["revealed"] is False and secret["guesses"] == []  # not before the reveal
    # the key, not the word: a built-in card may say "question mark"
    assert '"mark":' not in json.dumps([m for m in bob.log if isinstance(m, dict)])

    for c in players:
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    await ann.state(lambda m: m["game"]["phase"] == "review", 20)
    shown = httpx.get(url + ".json", timeout=30).json()
    assert shown["revealed"] is True
    batches = split(httpx.get(url + ".ink", timeout=30).content)
    assert server.db is not None
    logged = [row.data for row in logged_events(server.db, code, "action") if "mark" in row.data]
    assert [d["mark"]["n"] for d in logged] == [1, 3]
    assert [g["by"] for g in shown["guesses"]] == [1, 2]
    for g, d in zip(shown["guesses"], logged, strict=True):
        assert g["at"] == d["now"] and g["batches"] == d["mark"]["n"]
        assert g["replay_ms"] == replay_ms(batches, d["mark"]["n"])
        assert isinstance(g["correct"], bool)
    assert 0 < shown["guesses"][0]["replay_ms"] < shown["guesses"][1]["replay_ms"]
    assert shown["guesses"][1]["replay_ms"] == shown["duration_ms"]

    # The marks are in the log: a restarted server serves the same timeline.
    server.stop()
    server.start()
    assert httpx.get(url + ".json", timeout=30).json() == shown


async def test_animated_export_is_bounded_and_hidden_until_public(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (ann, bob) = await seated_room(clients, server)
    for i in range(60):
        await ann.send(line_across(100 + 60 * i, 400 * i))
    assert (await ann.request({"t": "ping"}))["t"] == "ack"
    url = f"{server.http}/api/rooms/{code}/drawings/round-1/0"
    assert httpx.get(url + ".gif", timeout=30).status_code == 404  # the secrets game hides ink
    for c in (ann, bob):
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    for fmt in ("gif", "webp"):
        reply = httpx.get(url + f".{fmt}?size=4000", timeout=60)
        assert reply.status_code == 200 and reply.headers["content-type"] == f"image/{fmt}"
        assert len(reply.content) <= MAX_BYTES
        image = Image.open(io.BytesIO(reply.content))
        assert image.size[0] <= MAX_SIZE and 1 < getattr(image, "n_frames", 1) <= MAX_FRAMES
