"""A room's custom deck over HTTP, against a real server: the host uploads or
pastes it, everyone sees it in the room's settings, the game deals from it,
anyone exports it, and nobody but the host changes it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from atelier.content.check import norm
from atelier.content.custom import MAX_BYTES, parse_deck
from atelier.i18n import translate
from support.client import Client, open_client
from support.server import ServerProcess, create_room

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
COLOURS = ["red", "blue", "green", "yellow"]


def deck_json(count: int, level: int | None = None, prefix: str = "own") -> str:
    """``count`` valid cards, levels 1-4 in turn unless ``level`` is given."""
    cards = []
    for i in range(count):
        lv = level or 1 + i % 4
        cards.append({"id": f"{prefix}-{i}", "level": lv,
                      "words": [f"{prefix} {i} word {j}" for j in range(7)]})
    return json.dumps({"cards": cards})


async def lobby(srv: ServerProcess, opened: list[Client], players: int = 1,
                game: str = "pictomania") -> tuple[str, list[Client]]:
    code = create_room(srv.http, game)
    joined = []
    for i in range(players):
        c = await open_client(opened, srv, code)
        assert (await c.join(f"P{i}", COLOURS[i]))["t"] == "joined"
        joined.append(c)
    return code, joined


def auth(client: Client) -> dict[str, str]:
    assert client.token
    return {"Authorization": f"Bearer {client.token}"}


async def upload(srv: ServerProcess, code: str, body: str | bytes, host: Client | None,
                 **params: str) -> httpx.Response:
    headers = auth(host) if host else {}
    async with httpx.AsyncClient(base_url=srv.http, timeout=10) as h:
        return await h.post(f"/api/rooms/{code}/deck", content=body, params=params,
                            headers=headers)


async def get(srv: ServerProcess, path: str, **kw: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=srv.http, timeout=10) as h:
        return await h.get(path, **kw)


async def test_upload_json_puts_the_deck_in_everyones_settings(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (host, guest) = await lobby(server, clients, 2)
    text = (EXAMPLES / "custom-deck.json").read_text(encoding="utf-8")
    r = await upload(server, code, text, host)
    assert r.status_code == 200, r.text
    assert r.json() == {"mode": "alongside", "cards": 3, "levels": {"1": 1, "2": 1, "3": 1, "4": 0}}
    st = await guest.state(lambda m: len(m["room"]["settings"]["custom_cards"]) == 3)
    # State messages carry each card's level only; the words are one request away.
    assert st["room"]["settings"]["custom_cards"] == [{"level": 1}, {"level": 2}, {"level": 3}]
    assert (await get(server, f"/api/rooms/{code}/deck")).json()["cards"] == 3
    exported = (await get(server, f"/api/rooms/{code}/deck.json")).json()["cards"]
    assert [c["id"] for c in exported] == ["office-1", "C-001", "C-002"]
    assert exported[0]["words"][0] == "espresso machine"


async def test_upload_csv_from_a_german_spreadsheet_instead_of_built_in(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (host,) = await lobby(server, clients)
    rows = ["Level;Thema;Word1;Word2;Word3;Word4;Word5;Word6;Word7".replace("Thema", "theme")]
    for i in range(12):
        rows.append(";".join([str(1 + i % 4), f"Thema {i}", *[f"Wort {i}.{j}" for j in range(7)]]))
    text = "\ufeff" + "\r\n".join(rows) + "\r\n"
    r = await upload(server, code, text.encode("utf-8"), host, mode="instead", format="csv")
    assert r.status_code == 200, r.text
    assert r.json() == {"mode": "instead", "cards": 12, "levels": {"1": 3, "2": 3, "3": 3, "4": 3}}
    await host.state(lambda m: m["room"]["settings"]["custom_mode"] == "instead")
    exported = (await get(server, f"/api/rooms/{code}/deck.json")).json()["cards"]
    assert exported[5]["words"][6] == "Wort 5.6"


async def test_bad_deck_is_refused_in_the_requesters_language(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, (host,) = await lobby(server, clients)
    cards = json.loads(deck_json(3))
    cards["cards"][1]["words"].pop()
    body = json.dumps(cards)
    r = await upload(server, code, body, host, lang="de")
    assert r.status_code == 400
    assert r.json()["code"] == "deck_card_size"
    assert r.json()["message"] == translate("error.deck_card_size", "de", card=2, expected=7,
                                            count=6)
    assert r.json()["message"].startswith("Karte 2:")
    # Accept-Language when there is no ?lang=, and a CSV layout error names the line.
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post(f"/api/rooms/{code}/deck", content="level,word1\n1,a\n",
                         headers={**auth(host), "Accept-Language": "uk-UA,uk;q=0.9"})
    assert r.status_code == 400
    assert r.json()["message"] == translate("error.custom_csv_header_missing", "uk",
                                            column="word2")
    r = await upload(server, code, "level,theme,word1,word2,word3,word4,word5,word6,word7\n"
                     "1,x,a,b,c,d,e,f,g\n2,y,a,b\n", host)
    assert r.json()["code"] == "custom_csv_cells" and r.json()["params"]["line"] == 3
    r = await upload(server, code, b"\xff\xfe l\x00e\x00", host)
    assert r.json()["code"] == "content_not_utf8"
    # Nothing changed in the room.
    assert (await get(server, f"/api/rooms/{code}/deck")).json()["cards"] == 0


async def test_only_the_host_changes_the_deck(server: ServerProcess,
                                              clients: list[Client]) -> None:
    code, (host, guest) = await lobby(server, clients, 2)
    other_code, (other_host,) = await lobby(server, clients)
    body = deck_json(4)
    for headers in ({}, auth(guest), auth(other_host), {"Authorization": "Bearer x" * 3},
                    {"Authorization": f"Basic {host.token}"}):
        async with httpx.AsyncClient(base_url=server.http) as h:
            r = await h.post(f"/api/rooms/{code}/deck", content=body, headers=headers)
            assert r.status_code == 403, headers
            assert r.json()["code"] == "not_host"
            r = await h.delete(f"/api/rooms/{code}/deck", headers=headers)
            assert r.status_code == 403
    assert (await get(server, f"/api/rooms/{code}/deck")).json()["cards"] == 0
    # Handing over the host role hands over the deck too.
    assert (await host.request({"t": "host", "player": guest.player}))["t"] == "ack"
    assert (await upload(server, code, body, host)).status_code == 403
    assert (await upload(server, code, body, guest)).status_code == 200
    assert other_code != code


async def test_size_limit_holds_before_parsing(server: ServerProcess,
                                               clients: list[Client]) -> None:
    code, (host,) = await lobby(server, clients)
    big = "level,word1\n" + "x" * MAX_BYTES
    r = await upload(server, code, big, host, lang="de")
    assert r.status_code == 413
    assert r.json()["code"] == "custom_too_big" and r.json()["params"]["max"] == 64

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it streams
        for _ in range(20):
            yield b"y" * 8192

    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.post(f"/api/rooms/{code}/deck", content=chunks(), headers=auth(host))
    assert r.status_code == 413
    header = "level,word1,word2,word3,word4,word5,word6,word7\n"
    too_many = header + "".join(f"1,{','.join(f'{i}{c}' for c in 'abcdefg')}\n"
                                for i in range(501))
    assert len(too_many.encode()) < MAX_BYTES
    r = await upload(server, code, too_many, host)
    assert r.status_code == 400 and r.json()["code"] == "custom_too_many"


async def test_export_round_trips_and_remove(server: ServerProcess,
                                             clients: list[Client]) -> None:
    code, (host,) = await lobby(server, clients)
    r = await get(server, f"/api/rooms/{code}/deck.csv", params={"lang": "uk"})
    assert r.status_code == 404
    assert r.json()["message"] == translate("error.deck_none", "uk")
    text = (EXAMPLES / "custom-deck.csv").read_text(encoding="utf-8")
    assert (await upload(server, code, text, host)).status_code == 200
    uploaded = [(c.id, c.level, c.words) for c in parse_deck(text)]
    for fmt in ("json", "csv"):
        r = await get(server, f"/api/rooms/{code}/deck.{fmt}")
        assert r.status_code == 200
        assert f"deck.{fmt}" in r.headers["content-disposition"]
        again = [(c.id, c.level, c.words) for c in parse_deck(r.text)]
        assert again == uploaded
        # The exported file is accepted again unchanged.
        assert (await upload(server, code, r.text, host)).json()["cards"] == 3
    assert (await get(server, f"/api/rooms/{code}/deck.xml")).status_code == 400
    async with httpx.AsyncClient(base_url=server.http) as h:
        r = await h.delete(f"/api/rooms/{code}/deck", headers=auth(host))
    assert r.status_code == 200 and r.json()["cards"] == 0
    st = await host.state(lambda m: m["room"]["settings"]["custom_cards"] == [])
    assert st["room"]["settings"]["custom_mode"] == "alongside"


async def test_instead_deals_only_custom_cards(server: ServerProcess,
                                               clients: list[Client]) -> None:
    code, players = await lobby(server, clients, 3)
    host = players[0]
    r = await upload(server, code, deck_json(11), host, mode="instead", lang="de")
    assert r.status_code == 400 and r.json()["code"] == "deck_too_few"
    assert r.json()["message"] == translate("error.deck_too_few", "de", rounds=4, needed=12,
                                            count=11)
    assert (await upload(server, code, deck_json(12), host, mode="instead")).status_code == 200
    assert (await host.request({"t": "start"}))["t"] == "ack"
    st = await players[2].state(lambda m: m["room"]["phase"] == "playing")
    cards = st["game"]["cards"]
    assert len(cards) == 3
    own = json.loads(deck_json(12))["cards"]
    by_id = {c["id"]: c["words"] for c in own}
    for card in cards:
        assert by_id[card["id"]] == card["words"]
    # Once the game runs, the deck is fixed.
    r = await upload(server, code, deck_json(12), host)
    assert r.status_code == 409 and r.json()["code"] == "game_started"


async def test_deck_survives_a_restart(server_factory: Callable[..., ServerProcess],
                                       clients: list[Client]) -> None:
    srv = server_factory()
    code, (host,) = await lobby(srv, clients)
    assert (await upload(srv, code, deck_json(12), host, mode="instead")).status_code == 200
    before = (await get(srv, f"/api/rooms/{code}/deck.json")).text
    srv.stop()
    srv.start()
    assert (await get(srv, f"/api/rooms/{code}/deck")).json()["mode"] == "instead"
    assert (await get(srv, f"/api/rooms/{code}/deck.json")).text == before


async def test_other_games_and_rooms(server: ServerProcess, clients: list[Client]) -> None:
    code, (host,) = await lobby(server, clients, game="incognito")
    r = await upload(server, code, deck_json(4), host)
    assert r.status_code == 400 and r.json()["code"] == "deck_unsupported"
    r = await get(server, "/api/rooms/ZZZZZZ/deck.json")
    assert r.status_code == 404 and r.json()["code"] == "unknown_room"
    code, (host,) = await lobby(server, clients)
    r = await upload(server, code, deck_json(4), host, mode="sometimes")
    assert r.status_code == 400 and r.json()["params"] == {"field": "custom_mode"}
    r = await upload(server, code, deck_json(4), host, format="xlsx")
    assert r.status_code == 400 and r.json()["code"] == "custom_format"


def _host_token(srv: ServerProcess, code: str) -> str:
    """Joins as the first player over a plain (synchronous) WebSocket."""
    from websockets.sync.client import connect

    with connect(f"{srv.ws}/ws/{code}") as ws:
        ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        ws.send(json.dumps({"t": "join", "name": "Host", "colour": "red"}))
        while True:
            msg = json.loads(ws.recv(timeout=20))
            if msg["t"] == "joined":
                token: str = msg["token"]
                return token


_LETTERS = "abcxyzäöüßАБВґєїабв0129 ,;\"'-"
_WORD = st.text(alphabet=_LETTERS, min_size=1, max_size=14).filter(
    lambda w: w == w.strip() and bool(w)
)


@st.composite
def _decks(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 5))
    words = draw(st.lists(_WORD, min_size=7 * count, max_size=7 * count, unique_by=norm))
    return [{"level": draw(st.integers(1, 4)), "words": words[7 * i: 7 * i + 7]}
            for i in range(count)]


def test_any_valid_deck_comes_back_unchanged_in_both_formats(server: ServerProcess) -> None:
    code = create_room(server.http, "pictomania")
    headers = {"Authorization": f"Bearer {_host_token(server, code)}"}

    @settings(max_examples=25, deadline=None)
    @given(cards=_decks(), fmt=st.sampled_from(["json", "csv"]))
    def round_trip(cards: list[dict[str, Any]], fmt: str) -> None:
        with httpx.Client(base_url=server.http, headers=headers, timeout=10) as h:
            r = h.post(f"/api/rooms/{code}/deck", content=json.dumps({"cards": cards}))
            if r.status_code == 400 and r.json()["code"].startswith("deck_confusable"):
                reject()  # words one drawing could not tell apart: not a valid deck
            assert r.status_code == 200, r.text
            exported = h.get(f"/api/rooms/{code}/deck.{fmt}").text
            got = [{"level": c.level, "words": list(c.words)} for c in parse_deck(exported)]
            assert got == cards
            # and the exported file is accepted again as it is
            assert h.post(f"/api/rooms/{code}/deck", content=exported).status_code == 200

    round_trip()
