"""1st-edition Pictomania, "Gar nichts zeichnen", over a real server: the server
sees the ink and tells the rules (a logged system action), in the order the
player sent ink and actions."""

from __future__ import annotations

from atelier.ink.codec import Begin, Clear, End, Points, encode_batch
from support.client import Client, seated_room
from support.server import ServerProcess

CARDS = [{"id": f"blank{i}", "level": 1, "words": [f"q{i}{j}x" for j in "abcdefg"]}
         for i in range(6)]
STROKE = encode_batch([Begin("pen", 10, 300, 300, 0, None), Points((4, 1, 12, 0) * 6), End()])


async def test_empty_canvas_takes_no_token_and_is_void(
    server: ServerProcess, clients: list[Client]
) -> None:
    _, players = await seated_room(clients, server, 3, {
        "edition": "first", "rounds": 1, "levels": [1], "custom_cards": CARDS,
        "custom_mode": "instead",
    }, game="pictomania")
    ann, bob, cat = players
    for c in players:
        assert (await c.act(type="ready"))["t"] == "ack"
    await ann.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "drawing")

    refused = await ann.act(type="black")
    assert refused["code"] == "black_token_nothing_drawn"
    # Ink, then at once the token: the server has told the rules in between.
    await ann.send(STROKE)
    assert (await ann.act(type="black"))["t"] == "ack"
    # Drawn and wiped clean again: nothing drawn.
    await bob.send(STROKE)
    await bob.send(encode_batch([Clear(900)]))
    assert (await bob.act(type="black"))["code"] == "black_token_nothing_drawn"
    # Bob still guesses, on ann's drawing, and declares done; cat draws nothing at all.
    assert (await bob.act(type="guess", target=0, number=1))["t"] == "ack"
    assert (await bob.act(type="done"))["t"] == "ack"
    assert (await cat.act(type="done"))["t"] == "ack"
    st = await cat.state(lambda m: bool(m["game"]) and m["game"]["phase"] == "review")
    drawings = st["game"]["round_result"]["drawings"]
    assert [(d["void"], d["blank"]) for d in drawings] == [
        (False, False), (True, True), (True, True)
    ]
