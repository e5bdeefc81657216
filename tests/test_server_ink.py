"""Ink over real WebSockets: relayed where the game allows, refused otherwise, kept for replay."""

from __future__ import annotations

import struct

import httpx

from atelier.ink.codec import Begin, End, Points, Undo, encode_batch
from atelier.ink.synth import DEVICES, record
from atelier.server.edge.limits import INK_FRAMES_BURST
from support.client import Client, open_client, seated_room
from support.ink import stroke
from support.server import ServerProcess


async def test_hidden_ink_reaches_only_its_drawer_until_the_reveal(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (ann, bob) = await seated_room(clients, server)
    ann2 = await open_client(clients, server, code, token=ann.token)  # a second tab
    watcher = await open_client(clients, server, code)
    sync = await watcher.expect("ink_sync")
    assert sync == {"t": "ink_sync", "key": "round-1", "seats": []}
    batch = stroke()
    await ann.send(batch)
    assert await ann2.expect("bin") == bytes([0]) + batch
    # ann2 has it, so the server has already queued it to everyone it relayed it to;
    # a round trip after that shows what bob and the watcher got
    await bob.sync()
    await watcher.sync()
    assert not any(isinstance(m, bytes) for m in bob.log + watcher.log)
    assert not any(isinstance(m, bytes) for m in ann.log)  # no echo to the sender
    # both done: the drawings are turned over and everyone gets them
    assert (await ann.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    assert (await bob.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    for c in (bob, watcher):
        sync = await c.expect("ink_sync", lambda m: 0 in m["seats"])
        assert sync["key"] == "round-1"
        assert await c.expect("bin") == bytes([0]) + batch


async def test_refused_ink(server: ServerProcess, clients: list[Client]) -> None:
    code, (ann, bob) = await seated_room(clients, server)
    watcher = await open_client(clients, server, code, lang="de")
    await ann.send(stroke(tool="eraser"))
    err = await ann.expect("error")
    assert err["code"] == "ink_no_eraser"
    await ann.send(b"\x01\xff\xff\xff")
    assert (await ann.expect("error"))["code"].startswith("ink_")
    await ann.send(b"\x01" + b"\x00" * 20000)
    assert (await ann.expect("error"))["code"] == "message_too_large"
    await ann.send(encode_batch([Points((1, 1, 1, 0))]))  # a stroke never begun
    assert (await ann.expect("error"))["code"] == "ink_no_stroke"
    await watcher.send(stroke())
    err = await watcher.expect("error")
    assert err["code"] == "cannot_draw" and err["message"] == "Du kannst jetzt nicht zeichnen."
    assert (await ann.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    await ann.send(stroke())
    assert (await ann.expect("error"))["code"] == "cannot_draw"
    # nothing of it was kept
    assert (await bob.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    listing = httpx.get(f"{server.http}/api/rooms/{code}/drawings").json()
    assert listing == {"drawings": []}


async def test_more_ink_at_once_than_the_allowance_holds_waits_and_is_all_relayed(
    server: ServerProcess, clients: list[Client]
) -> None:
    """A bunch of batches beyond the ink allowance (as a busy server reads an
    honest drawer's socket late) is slowed to the allowed rate, never refused:
    a refused batch would break its stroke."""
    code, (ann, _bob) = await seated_room(clients, server)
    ann2 = await open_client(clients, server, code, token=ann.token)  # sees ann's ink
    batches = [stroke(100 + i) for i in range(int(INK_FRAMES_BURST) + 240)]
    for b in batches:
        await ann.send(b)
    for b in batches:
        assert await ann2.expect("bin") == bytes([0]) + b
    assert (await ann.request({"t": "ping"}))["t"] == "ack"
    assert not [m for m in ann.log if isinstance(m, dict) and m.get("t") == "error"]
    assert httpx.get(f"{server.http}/healthz").json()["ink_waits"] > 0  # the operator sees it


async def test_reconnect_gets_seat_state_and_every_drawing(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (ann, bob) = await seated_room(clients, server)
    batches = record(DEVICES[0], 6, seed=3).batches
    for b in batches:
        await ann.send(b)
    await ann.send(encode_batch([Undo(5000)]))
    assert (await ann.request({"t": "ping"}))["t"] == "ack"  # all frames handled
    await ann.close()
    st = await bob.state(lambda m: not m["room"]["players"][0]["connected"])
    assert st["room"]["players"][0]["name"] == "P0"
    back = await open_client(clients, server, code, token=ann.token)
    welcome = back.log[-1]
    assert welcome["you"] == {"player": ann.player, "host": True}
    st = await back.state()
    assert st["you"]["seat"] == 0 and st["may_draw"] is True
    assert st["ink_tools"] == ["clear", "pen", "undo"]
    assert st["game"]["my_word"] == [m for m in ann.log if isinstance(m, dict)
                                     and m["t"] == "state"][-1]["game"]["my_word"]
    sync = await back.expect("ink_sync")
    assert sync["seats"] == [0]
    got = [await back.expect("bin") for _ in range(len(batches) + 1)]
    assert got == [bytes([0]) + b for b in [*batches, encode_batch([Undo(5000)])]]
    await bob.state(lambda m: m["room"]["players"][0]["connected"])


async def test_drawings_over_http_only_once_public(server: ServerProcess,
                                                   clients: list[Client]) -> None:
    code, (ann, bob) = await seated_room(clients, server)
    batches = record(DEVICES[2], 3, seed=5).batches
    assert len(batches) < 100  # within the burst the rate limit allows
    for b in batches:
        await ann.send(b)
    assert (await ann.request({"t": "ping"}))["t"] == "ack"
    url = f"{server.http}/api/rooms/{code}/drawings/round-1/0"
    assert httpx.get(url + ".png").status_code == 404  # hidden until the reveal
    assert httpx.get(url + ".ink").json()["code"] == "unknown_drawing"
    for c in (ann, bob):
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    png = httpx.get(url + ".png?size=256")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    raw = httpx.get(url + ".ink").content
    frames, i = [], 0
    while i < len(raw):
        (n,) = struct.unpack(">I", raw[i:i + 4])
        frames.append(raw[i + 4:i + 4 + n])
        i += 4 + n
    assert frames == batches
    listing = httpx.get(f"{server.http}/api/rooms/{code}/drawings").json()["drawings"]
    assert listing == [{"key": "round-1", "seat": 0, "batches": len(batches), "strokes": 3}]
    # Bob drew nothing: a blank drawing, not a missing one; seat 2 does not exist.
    assert httpx.get(url.replace("/0", "/1") + ".png").status_code == 200
    assert httpx.get(url.replace("/0", "/2") + ".png").status_code == 404


def split_bundle(data: bytes) -> list[bytes]:
    """The frames ([seat][batch]) of one ink bundle (docs/protocol.md)."""
    frames, i = [], 0
    while i < len(data):
        (size,) = struct.unpack(">H", data[i:i + 2])
        frames.append(data[i + 2:i + 2 + size])
        i += 2 + size
    assert i == len(data)
    return frames


async def test_bundles_carry_the_same_frames_in_order(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (ann, _bob) = await seated_room(clients, server)
    bundled = await open_client(clients, server, f"{code}?ink=bundles", token=ann.token)
    single = await open_client(clients, server, code, token=ann.token)
    for c in (bundled, single):
        await c.expect("ink_sync")
    batches = record(DEVICES[1], 4, seed=7).batches[:40]
    for b in batches:
        await ann.send(b)
    assert (await ann.request({"t": "ping"}))["t"] == "ack"
    want = [bytes([0]) + b for b in batches]
    assert [await single.expect("bin") for _ in want] == want
    got: list[bytes] = []
    messages = 0
    while len(got) < len(want):
        got += split_bundle(await bundled.expect("bin"))
        messages += 1
    assert got == want
    assert messages < len(want)  # frames sent together share a message
    # a state change flushes the ink before it, so order is kept across kinds
    await ann.send(batches[0][:1] + b"\xc0")  # an End: closes the open stroke
    assert (await ann.request({"t": "act", "action": {"type": "note", "text": "x"}}))["t"] == "ack"
    await bundled.state(lambda m: m["game"]["notes"] == 1)
    kinds = ["bin" if isinstance(m, bytes) else m["t"] for m in bundled.log]
    last_bin = len(kinds) - 1 - kinds[::-1].index("bin")
    assert split_bundle(bundled.log[last_bin]) == [bytes([0, 1, 0xC0])]
    assert kinds[last_bin + 1 :] == ["state"], "the End came before the note's state"
    # a reconnecting client with bundles gets the whole drawing back, in order
    back = await open_client(clients, server, f"{code}?ink=bundles", token=ann.token)
    await back.expect("ink_sync")
    got = []
    while len(got) < len(want) + 1:
        got += split_bundle(await back.expect("bin"))
    assert got == [*want, bytes([0, 1, 0xC0])]


async def test_a_drawing_is_painted_in_the_colour_every_client_is_sent(
    server: ServerProcess, clients: list[Client]
) -> None:
    # one list of player colours: the welcome's, which the canvas uses, is the PNG's
    import io

    from PIL import Image

    code, players = await seated_room(clients, server, n=4)  # the 4th is yellow
    watcher = await open_client(clients, server, code)
    welcome = next(m for m in watcher.log if isinstance(m, dict) and m["t"] == "welcome")
    colours = welcome["colours"]
    assert list(colours)[:4] == ["red", "blue", "green", "yellow"]
    await players[3].send(encode_batch([Begin("pen", 120, 500, 2000, 0, None),
                                        Points((60, 0, 16, 0) * 40), End()]))
    for c in players:
        assert (await c.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    png = httpx.get(f"{server.http}/api/rooms/{code}/drawings/round-1/3.png?size=256")
    image = Image.open(io.BytesIO(png.content)).convert("RGB")
    yellow = tuple(int(colours["yellow"][i:i + 2], 16) for i in (1, 3, 5))
    painted = [rgb for _, rgb in image.getcolors(1 << 16) or [] if rgb != (255, 255, 255)]
    counts = {rgb: n for n, rgb in image.getcolors(1 << 16) or []}
    assert max(painted, key=lambda rgb: counts[rgb]) == yellow
