"""A device's seats over HTTP: "My games", and moving a seat to another device
with a one-time link (docs/protocol.md, "Seats and nudges")."""

from __future__ import annotations

import httpx

from support.client import Client, open_client, seated_room
from support.server import ServerProcess, create_room


def _post(srv: ServerProcess, path: str, token: str | None = None,
          **body: object) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{srv.http}{path}", json=body, headers=headers)


async def test_a_seat_moves_to_another_device_once(server: ServerProcess,
                                                   clients: list[Client]) -> None:
    code, (ann, _bob) = await seated_room(clients, server, settings={"move_days": 3},
                                         game="piet")
    assert ann.token is not None
    offer = _post(server, f"/api/rooms/{code}/transfer", ann.token)
    assert offer.status_code == 200 and offer.headers["cache-control"] == "no-store"
    url = offer.json()["url"]
    assert url.startswith(f"{server.http}/r/{code}#transfer=")
    assert offer.json()["qr"].startswith("<?xml")
    transfer = url.split("#transfer=", 1)[1]
    claimed = _post(server, f"/api/rooms/{code}/claim", transfer=transfer)
    assert claimed.status_code == 200, claimed.text
    new_token = claimed.json()["token"]
    assert claimed.json()["player"] == ann.player and new_token != ann.token
    # the old device's connection now watches, told why
    moved = await ann.expect("error", lambda m: m["code"] == "seat_moved")
    assert "another device" in moved["message"]
    # a second use is refused, translated, and changes nothing
    again = httpx.post(f"{server.http}/api/rooms/{code}/claim?lang=de",
                       json={"transfer": transfer})
    assert again.status_code == 409 and again.json()["code"] == "transfer_used"
    assert "schon benutzt" in again.json()["message"]
    # the old token no longer sits anyone; the new one is Ann
    old = await open_client(clients, server, code, ann.token)
    assert any(m.get("code") == "bad_token" for m in old.log if isinstance(m, dict))
    new = await open_client(clients, server, code, new_token)
    state = await new.state(lambda m: m["game"] is not None)
    assert state["game"]["you"] == 0
    assert (await new.act(type="resign"))["t"] == "ack"
    # only a player's token offers a transfer
    refused = _post(server, f"/api/rooms/{code}/transfer", ann.token)
    assert refused.status_code == 403 and refused.json()["code"] == "not_joined"


async def test_my_games_lists_the_seats_a_device_holds(server: ServerProcess,
                                                      clients: list[Client]) -> None:
    code, (ann, bob) = await seated_room(clients, server, settings={"move_days": 7},
                                         game="piet")
    lobby = create_room(server.http, "piet", {})
    cy = await open_client(clients, server, lobby)
    await cy.join("Cy", "green")
    assert ann.token and bob.token and cy.token
    seats = [{"room": code, "token": ann.token}, {"room": lobby, "token": cy.token},
             {"room": code, "token": "x" * 20}, {"room": "NOSUCH", "token": bob.token}]
    games = _post(server, "/api/my-games", seats=seats).json()["games"]
    assert [g["room"] for g in games] == [code, lobby]  # a wrong token is left out
    mine = games[0]
    assert mine["opponents"] == ["P1"] and mine["your_turn"] is True
    assert mine["move_days"] == 7 and mine["correspondence"] is True
    assert 7 * 86400 - 120 < mine["seconds_left"] <= 7 * 86400
    assert games[1]["phase"] == "lobby" and games[1]["correspondence"] is False
    assert (await ann.act(type="resign"))["t"] == "ack"
    for token, outcome in ((ann.token, "lost"), (bob.token, "won")):
        over = _post(server, "/api/my-games", seats=[{"room": code, "token": token}])
        result = over.json()["games"][0]["result"]
        assert result["outcome"] == outcome and result["by"] == "resignation"
    too_many = _post(server, "/api/my-games", seats=[seats[0]] * 41)
    assert too_many.status_code == 400 and too_many.json()["code"] == "bad_message"
