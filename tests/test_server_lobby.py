"""Rooms over a real server and real WebSockets: creating, joining, the host's powers."""

from __future__ import annotations

import httpx

from support.client import Client, open_client
from support.server import ServerProcess, create_room


async def test_create_and_summary(server: ServerProcess) -> None:
    code = create_room(server.http, settings={"seconds": 5}, language="de")
    assert len(code) == 6 and code.isupper()
    summary = httpx.get(f"{server.http}/api/rooms/{code.lower()}").json()
    assert summary["game"] == "secrets" and summary["phase"] == "lobby"
    assert summary["settings"] == {"computer": False, "seconds": 5}
    assert summary["language"] == "de"


async def test_create_refuses_unknown_game_and_bad_settings(server: ServerProcess) -> None:
    r = httpx.post(server.http + "/api/rooms", json={"game": "chess", "settings": {}},
                   headers={"accept-language": "de-AT,de;q=0.9"})
    assert r.status_code == 400
    assert r.json()["code"] == "unknown_game" and "chess" in r.json()["message"]
    assert "gibt es nicht" in r.json()["message"]
    r = httpx.post(server.http + "/api/rooms",
                   json={"game": "secrets", "settings": {"seconds": "soon"}})
    assert r.status_code == 400 and r.json()["code"] == "bad_settings"
    r = httpx.post(server.http + "/api/rooms", json={"game": "secrets", "evil": 1})
    assert r.status_code == 400 and r.json()["code"] == "bad_message"


async def test_unknown_room_is_translated_404(server: ServerProcess) -> None:
    r = httpx.get(f"{server.http}/api/rooms/ZZZZZZ?lang=uk")
    assert r.status_code == 404
    assert r.json()["code"] == "unknown_room" and "ZZZZZZ" in r.json()["message"]
    assert "Кімнати" in r.json()["message"]


async def test_pages_and_strings(server: ServerProcess) -> None:
    assert httpx.get(server.http + "/").status_code == 200
    assert httpx.get(server.http + "/r/ABCDEF").status_code == 200
    de = httpx.get(server.http + "/api/strings/de").json()
    assert de["error.room_full"] == "Der Raum ist voll."
    assert httpx.get(server.http + "/api/strings/xx").status_code == 404


async def test_join_host_and_colours(server: ServerProcess, clients: list[Client]) -> None:
    code = create_room(server.http)
    ann = await open_client(clients, server, code)
    first = await ann.state()
    assert first["you"] == {"player": None, "seat": None, "host": False}
    joined = await ann.join("Ann", "red")
    assert joined["t"] == "joined" and len(joined["token"]) >= 30
    st = await ann.state(lambda m: m["you"]["player"] is not None)
    assert st["you"]["host"] is True and st["room"]["host"] == ann.player
    bob = await open_client(clients, server, code)
    for name, colour, code_ in [("ann", "blue", "name_taken"), ("Bob", "red", "colour_taken"),
                                ("Bob", "pink", "colour_invalid"), ("", "blue", "name_invalid"),
                                ("x" * 21, "blue", "name_invalid"),
                                ("Bo\x07b", "blue", "name_invalid")]:
        err = await bob.join(name, colour)
        assert err["t"] == "error" and err["code"] == code_, (name, colour, err)
    assert (await bob.join("Bob", "blue"))["t"] == "joined"
    assert (await bob.join("Bob2", "green"))["code"] == "already_joined"
    st = await ann.state(lambda m: len(m["room"]["players"]) == 2)
    assert [p["name"] for p in st["room"]["players"]] == ["Ann", "Bob"]
    assert all(p["connected"] for p in st["room"]["players"])
    # no other player's token ever reaches Ann (a round trip first: all she was sent is in)
    await ann.sync()
    assert bob.token is not None and all(bob.token not in str(m) for m in ann.log)


async def test_host_powers(server: ServerProcess, clients: list[Client]) -> None:
    code = create_room(server.http)
    ann, bob, cy = [await open_client(clients, server, code) for _ in range(3)]
    await ann.join("Ann", "red")
    await bob.join("Bob", "blue")
    await cy.join("Cy", "green")
    assert (await bob.request({"t": "settings", "settings": {"seconds": 3}}))["code"] == "not_host"
    assert (await bob.request({"t": "start"}))["code"] == "not_host"
    bad = await ann.request({"t": "settings", "settings": {"seconds": -1}})
    assert bad["code"] == "bad_settings" and bad["params"] == {"field": "seconds"}
    assert (await ann.request({"t": "settings", "settings": {"seconds": 3}}))["t"] == "ack"
    await bob.state(lambda m: m["room"]["settings"]["seconds"] == 3)
    assert (await ann.request({"t": "kick", "player": ann.player}))["code"] == "cannot_kick_self"
    assert (await ann.request({"t": "kick", "player": "p99"}))["code"] == "unknown_player"
    assert (await ann.request({"t": "kick", "player": cy.player}))["t"] == "ack"
    kicked = await cy.expect("error", lambda m: m["code"] == "kicked")
    assert kicked["message"]
    st = await cy.state(lambda m: m["you"]["player"] is None)
    assert [p["name"] for p in st["room"]["players"]] == ["Ann", "Bob"]
    # the kicked player's token no longer works
    again = await Client.open(server.ws, code, cy.token)
    clients.append(again)
    assert (await again.expect("error"))["code"] == "bad_token"
    assert (await again.expect("welcome"))["you"]["player"] is None
    # hand the host role on
    assert (await ann.request({"t": "host", "player": bob.player}))["t"] == "ack"
    st = await bob.state(lambda m: m["you"]["host"])
    assert st["room"]["host"] == bob.player
    assert (await ann.request({"t": "start"}))["code"] == "not_host"
    assert (await bob.request({"t": "start"}))["t"] == "ack"
    st = await ann.state(lambda m: m["room"]["phase"] == "playing")
    assert [p["seat"] for p in st["room"]["players"]] == [0, 1]
    assert st["game"]["my_word"].startswith("secret")
    # late visitors watch; they cannot join
    late = await open_client(clients, server, code)
    assert (await late.join("Dee", "yellow"))["code"] == "game_started"
    spec = [m for m in late.log if isinstance(m, dict) and m["t"] == "state"][-1]
    assert spec["you"]["seat"] is None and spec["game"]["my_word"] is None


async def test_start_needs_enough_players_and_room_fills(
    server: ServerProcess, clients: list[Client]
) -> None:
    code = create_room(server.http)
    ann = await open_client(clients, server, code, lang="de")
    await ann.join("Ann", "red")
    err = await ann.request({"t": "start"})
    assert err["code"] == "seat_count" and err["params"] == {"min": 2, "max": 4}
    assert "2 bis 4" in err["message"]
    for i, colour in enumerate(["blue", "green", "yellow"]):
        c = await open_client(clients, server, code)
        assert (await c.join(f"N{i}", colour))["t"] == "joined"
    fifth = await open_client(clients, server, code)
    assert (await fifth.join("Five", "purple"))["code"] == "room_full"


async def test_leave_passes_host_on(server: ServerProcess, clients: list[Client]) -> None:
    code = create_room(server.http)
    ann, bob = [await open_client(clients, server, code) for _ in range(2)]
    await ann.join("Ann", "red")
    await bob.join("Bob", "blue")
    assert (await ann.request({"t": "rename", "name": "Anna"}))["t"] == "ack"
    assert (await ann.request({"t": "rename", "name": "BOB"}))["code"] == "name_taken"
    assert (await ann.request({"t": "leave"}))["t"] == "ack"
    st = await bob.state(lambda m: [p["name"] for p in m["room"]["players"]] == ["Bob"])
    assert st["you"]["host"] is True
    assert (await ann.request({"t": "leave"}))["code"] == "not_joined"


async def test_computer_seat(server: ServerProcess, clients: list[Client]) -> None:
    code = create_room(server.http, settings={"computer": True})
    ann = await open_client(clients, server, code)
    await ann.join("Ann", "red")
    st = await ann.state(lambda m: m["you"]["player"] is not None)
    # a computer player's level travels as data (the client names it in the
    # reader's language); its name is a fallback for clients that do not translate
    assert [(p["name"], p["computer"]) for p in st["room"]["players"]] == [
        ("Ann", None), ("Computer (robot)", "robot")]
    assert (await ann.request({"t": "start"}))["t"] == "ack"
    # the robot takes seat 1 and says "done" by itself
    st = await ann.state(lambda m: m["game"] is not None and m["game"]["done"] == [False, True])
    assert [(p["name"], p["seat"]) for p in st["room"]["players"]] == [
        ("Ann", 0), ("Computer (robot)", 1)]
    assert (await ann.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
    st = await ann.state(lambda m: m["game"]["phase"] == "reveal")
