"""A game outside the package is its own two folders and one server option: Tally
(tests/tally/: rules/ and web/), registered with ``--extra-game tally.rules``, is
offered, set up and played to its end through the server and in a real browser,
with its strings from its own folder."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from support.browser import CHROMIUM, join, new_player
from support.client import Client, seated_room
from support.server import ServerProcess

EXTRA = ("--extra-game", "tally.rules")


def latest(client: Client) -> Any:
    return next(m for m in reversed(client.log) if isinstance(m, dict) and m["t"] == "state")


async def test_the_server_hosts_a_game_registered_by_an_option(
    server_factory: Callable[..., ServerProcess], clients: list[Client],
) -> None:
    srv = server_factory(*EXTRA)
    games = httpx.get(srv.http + "/api/games").json()["games"]
    # the shipped games first, then the registered one; the test game without
    # screens (conftest's "secrets") is not offered
    assert [g["name"] for g in games] == ["pictomania", "incognito", "piet", "tally"]
    module = next(g["module"] for g in games if g["name"] == "tally")
    assert httpx.get(srv.http + module).status_code == 200
    assert httpx.get(srv.http + "/static/tally/screen.js").status_code == 200
    schema = httpx.get(srv.http + "/api/games/tally/settings-schema").json()
    assert schema["properties"]["target"]["maximum"] == 30
    for lang in ("en", "de", "uk"):
        strings = httpx.get(f"{srv.http}/api/strings/{lang}").json()
        assert strings["game.tally"] and strings["tally.your_turn"]
        assert strings["game.pictomania"]  # the shipped strings are still there

    _, players = await seated_room(clients, srv, 2, {"target": 4}, game="tally")
    state = latest(players[0])
    assert state["game"] == {"phase": "playing", "total": 0, "target": 4, "to_move": 0,
                             "winner": None}
    seats = {c: latest(c)["you"]["seat"] for c in players}
    first = next(c for c in players if seats[c] == 0)
    second = next(c for c in players if seats[c] == 1)
    refused = await second.request({"t": "act", "action": {"type": "add", "amount": 1}})
    assert (refused["t"], refused["code"]) == ("error", "not_your_turn")
    bad = await first.request({"t": "act", "action": {"type": "add", "amount": 3}})
    assert bad["t"] == "error"
    for mover in (first, second):
        reply = await mover.request({"t": "act", "action": {"type": "add", "amount": 2}})
        assert reply["t"] == "ack", reply
    over = await second.state(lambda m: m["room"]["phase"] == "over")
    assert over["game"]["total"] == 4 and over["game"]["winner"] == 1


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")
def test_a_registered_game_is_played_in_the_browser(
    browser: Any, server_factory: Callable[..., ServerProcess],
) -> None:
    srv = server_factory(*EXTRA)
    a = new_player(browser, "Anna", "red")
    b = new_player(browser, "Bohdan", "blue", locale="uk-UA")
    try:
        a.page.goto(srv.http)
        a.click("game-tally")
        # its start field, from its descriptor, with the default its settings declare
        assert a.page.input_value("[data-testid=setting-target]") == "7"
        a.page.fill("[data-testid=setting-target]", "5")
        a.page.dispatch_event("[data-testid=setting-target]", "change")
        a.click("create-room")
        a.wait("lobby-join")
        # its rules from its own strings, from the lobby
        a.click("rules-open")
        a.wait("rules-dialog")
        assert "Whoever brings it to the target wins" in a.page.inner_text(
            "[data-testid=rules-dialog]")
        a.click("rules-close")
        url = a.page.url
        for p in (a, b):
            join(p, url)
        a.click("start-game")
        for p in (a, b):
            p.wait("tally")
        # its strings from its own folder, in each reader's language
        assert "0 з 5" in b.page.inner_text("[data-testid=tally-count]")
        moves = 0
        while not a.page.is_visible("[data-testid=tally-winner]"):
            mover = a if a.page.is_enabled("[data-testid=tally-add-2]") else b
            counts = [p.page.inner_text("[data-testid=tally-count]") for p in (a, b)]
            mover.click("tally-add-2")
            moves += 1
            # both pages show the state after the move before the next one is chosen
            for p, count in zip((a, b), counts, strict=True):
                p.page.wait_for_function(
                    "(before) => document.querySelector('[data-testid=tally-count]')"
                    "?.textContent !== before", arg=count)
            assert moves <= 3
        assert moves == 3  # 2 + 2 + 1 (capped at the target)
        b.wait("tally-winner")
        assert "Виграє" in b.page.inner_text("[data-testid=tally-winner]")
        assert a.errors == [] and b.errors == []
    finally:
        a.context.close()
        b.context.close()
