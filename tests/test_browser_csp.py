"""The client works under the server's Content-Security-Policy: every game's lobby
and first screen render, the WebSocket connects, and nothing is blocked (the
browser helpers turn any CSP violation into a page error)."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

import httpx
import pytest

from support.browser import CHROMIUM, join, new_player
from support.client import Client, open_client
from support.server import ServerProcess, create_room

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

GAMES: dict[str, tuple[dict[str, Any], int, str]] = {
    "pictomania": ({}, 3, "pm-display"),
    "incognito": ({"custom_words": [f"Cspword{i}" for i in range(20)]}, 3, "ig-canvas"),
    "piet": ({}, 2, "piet-palette"),
}


def test_a_violation_is_caught(browser: Any, server: ServerProcess) -> None:
    """The check can fail: an inline style attribute is refused and reported."""
    p = new_player(browser, "Ann", "red")
    try:
        answer = p.page.goto(server.http)
        assert answer is not None
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        p.wait("create-room")
        with p.page.expect_event("pageerror") as caught:
            p.page.evaluate("document.body.setAttribute('style', 'color: red')")
        assert "style-src-attr" in str(caught.value)
        assert any("style-src-attr" in e for e in p.errors), p.errors
    finally:
        p.context.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_runs_under_the_policy(browser: Any, server: ServerProcess,
                                          game: str) -> None:
    settings, seats, screen = GAMES[game]
    code = create_room(server.http, game, settings)
    url = f"{server.http}/r/{code}"
    p = new_player(browser, "Bea", "blue", phone=True)
    clients: list[Client] = []
    # the WebSocket clients run on a loop of their own: sync Playwright has the main thread's
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, loop).result(60)

    async def seat_host() -> Client:
        host = await open_client(clients, server, code)
        assert (await host.join("Host", "red"))["t"] == "joined"
        return host

    async def seat_others_and_start(host: Client) -> None:
        for i in range(seats - 2):
            other = await open_client(clients, server, code)
            assert (await other.join(f"O{i}", ["green", "yellow"][i]))["t"] == "joined"
        assert (await host.request({"t": "start"}))["t"] == "ack"

    try:
        host = run(seat_host())
        join(p, url)
        if game == "incognito":  # a secret list shows as its count, not its words
            assert p.page.inner_text("[data-testid=setting-custom_words]") == "20"
            assert "Cspword" not in p.page.content()
        run(seat_others_and_start(host))
        p.wait(screen)
        assert p.errors == [], p.errors
        r = httpx.get(url)
        assert r.headers["x-content-type-options"] == "nosniff"
    finally:
        for c in clients:
            run(c.close())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        p.context.close()


def test_the_ink_demo_is_not_part_of_the_app(server: ServerProcess) -> None:
    # the demo page (bench/ink_demo) is a tool for the ink test and benchmark
    assert httpx.get(f"{server.http}/static/ink/demo.html").status_code == 404
    assert httpx.get(f"{server.http}/static/ink/surface.js").status_code == 200
