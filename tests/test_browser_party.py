"""The party around the game, in real browsers: play again (two games in one room,
no card twice) and a player who drops out while the others finish, so the host
goes on without them. Lean: Pictomania's fewest players, one round."""

from __future__ import annotations

import os
from typing import Any

import pytest

from support.browser import CHROMIUM, Player, join, new_player, shot
from support.log import logged_events
from support.server import create_room
from support.ws_players import WsPlayer, phase_is

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

SETTINGS = {"rounds": 1, "levels": [1]}


def table(browser: Any, server: Any) -> tuple[str, list[Player]]:
    code = create_room(server.http, "pictomania", SETTINGS)
    url = f"{server.http}/r/{code}"
    players = [new_player(browser, "Anna", "red"),
               new_player(browser, "Bohdan", "blue", phone=True, locale="de-DE"),
               new_player(browser, "Clara", "green", locale="uk-UA")]
    for p in players:
        join(p, url)
    return code, players


def dealt_cards(db: str, code: str) -> list[set[str]]:
    """The cards on display at each game's start, from the server's log."""
    return [{c["id"] for c in row.data["initial"]["display"]}
            for row in logged_events(db, code, "started")]


def host_plays_out(host: Player, players: list[Player]) -> None:
    """The host deals, stops the round and finishes the game."""
    host.wait("host-deal")
    host.click("host-deal")
    host.wait("host-menu")  # End round is in the host's sheet
    host.click("host-menu")
    host.page.once("dialog", lambda dialog: dialog.accept())  # "Stop the round?"
    host.click("host-stop")
    host.wait("host-next")
    host.click("host-next")
    for p in players:
        p.wait("pm-over")


def test_play_again_two_games_in_one_room(browser: Any, server: Any) -> None:
    code, players = table(browser, server)
    anna, bohdan, clara = players
    try:
        anna.click("start-game")
        host_plays_out(anna, players)
        bohdan.wait("wait-again")
        assert bohdan.page.locator("[data-testid=play-again]").count() == 0
        anna.click("play-again")
        for p in players:
            p.wait("lobby")
            p.wait("leave")  # still joined
        names = anna.page.locator("[data-testid=lobby-player]")
        assert [names.nth(i).get_attribute("data-name") for i in range(3)] == [
            "Anna", "Bohdan", "Clara"]
        anna.click("start-game")
        for p in players:
            p.wait("pm-display")
        host_plays_out(anna, players)
        for p in players:
            p.wait("room-totals")
            assert p.page.locator("[data-testid=room-total-row]").count() == 3
        assert "2" in clara.page.inner_text("[data-testid=games-played]")
        bohdan.page.locator("[data-testid=room-again]").scroll_into_view_if_needed()
        shot(bohdan.page, "party-again-phone")
        first, second = dealt_cards(server.db, code)
        assert len(first) == 3 and first.isdisjoint(second)
        for p in players:
            assert p.errors == [], p.errors
    finally:
        for p in players:
            p.context.close()


def test_the_host_goes_on_without_an_absent_player(browser: Any, server: Any) -> None:
    code, players = table(browser, server)
    anna, bohdan, clara = players
    try:
        anna.click("start-game")
        for p in players:
            p.wait("pm-display")
            p.click("ready")
        for p in players:
            p.wait("pm-drawing")
        clara.page.close()  # Clara's phone is gone
        for p in (anna, bohdan):
            p.page.wait_for_selector(
                "[data-testid=away-player][data-state=away]:has-text('Clara')")
        # Anna and Bohdan are still drawing: nothing to offer yet.
        assert anna.page.locator("[data-testid=go-on]").count() == 0
        anna.page.locator("[data-testid^=black-]").first.click()
        anna.wait("finished")
        bohdan.click("done")
        anna.wait("go-on")
        assert bohdan.page.locator("[data-testid=go-on]").count() == 0  # host only
        shot(bohdan.page, "party-away-phone")
        shot(anna.page, "party-go-on-desktop")
        anna.click("go-on")
        for p in (anna, bohdan):
            p.wait("pm-review")
        # Clara comes back through the link: no longer shown as away.
        clara.page = clara.context.new_page()
        clara.watch()
        clara.page.goto(f"{server.http}/r/{code}")
        clara.wait("pm-review")
        anna.page.wait_for_selector("[data-testid=away-player]", state="detached")
        # The host takes Bohdan out of the game: he watches the rest.
        anna.click("host-menu")
        anna.page.once("dialog", lambda dialog: dialog.accept())
        anna.click("remove-p2")
        anna.page.wait_for_selector(
            "[data-testid=away-player][data-state=removed]:has-text('Bohdan')")
        bohdan.page.wait_for_selector("[data-testid=confirm]", state="detached")
        token = bohdan.page.evaluate(f"() => localStorage.getItem('atelier.token.{code}')")
        assert token is None  # he is a spectator now
        for p in (anna, bohdan):
            assert p.errors == [], p.errors
    finally:
        for p in players:
            p.context.close()


def test_piet_against_the_computer_plays_again(browser: Any, server: Any) -> None:
    from test_browser_piet import data, play_one_move, wait_for_turn

    code = create_room(server.http, "piet", {"opponent": "easy"})
    ann = new_player(browser, "Ann", "red")
    try:
        join(ann, f"{server.http}/r/{code}")
        ann.click("start-game")
        ann.wait("piet-palette")
        for _ in range(80):
            if data(ann.page, "phase") == "over":
                break
            before = int(data(ann.page, "moves"))
            play_one_move(ann.page, data(ann.page, "actor"))
            wait_for_turn(ann.page, before)
        assert data(ann.page, "phase") == "over"
        ann.click("play-again")
        ann.wait("lobby")
        ann.click("start-game")
        ann.page.wait_for_function(
            "() => document.querySelector('[data-testid=piet]')?.dataset.moves === '0'")
        assert data(ann.page, "actor") == "0" and data(ann.page, "phase") == "painting"
        assert ann.errors == [], ann.errors
    finally:
        ann.context.close()


def test_a_player_taken_out_of_the_game_is_told_so(browser: Any, server: Any) -> None:
    """The host takes two players out of a running game, one with the page
    closed, one watching it: each sees why they only watch now, also after
    reopening the page, in their language."""
    code = create_room(server.http, "pictomania", SETTINGS)
    host = WsPlayer(server.ws, code)
    host.join("Anna", "red")
    olek = WsPlayer(server.ws, code)  # two must stay in the game
    olek.join("Olek", "purple")
    url = f"{server.http}/r/{code}"
    bohdan = new_player(browser, "Bohdan", "blue", phone=True, locale="de-DE")
    clara = new_player(browser, "Clara", "green", phone=True, locale="uk-UA")
    try:
        for p in (bohdan, clara):
            join(p, url)
        host.request({"t": "start"})
        host.act({"type": "ready"})
        olek.act({"type": "ready"})
        for p in (bohdan, clara):
            p.wait("ready")
            p.click("ready")
        players = host.state(phase_is("drawing"))["room"]["players"]
        ids = {p["name"]: p["id"] for p in players}

        # Bohdan's page is closed when the host takes him out; he opens it again.
        # A page being closed may still hear "kicked" (Chromium runs it a moment
        # longer) and forget the token: either way the page says so when reopened.
        bohdan.page.close()
        host.request({"t": "kick", "player": ids["Bohdan"]})
        bohdan.page = bohdan.context.new_page()
        bohdan.watch()
        bohdan.page.goto(url)
        bohdan.wait("taken-out")
        assert "Spielleitung" in bohdan.page.inner_text("[data-testid=taken-out]")
        assert bohdan.page.locator("[data-testid=my-canvas]").count() == 0  # he watches
        bohdan.page.reload()  # and again: still said
        bohdan.wait("taken-out")
        shot(bohdan.page, "party-taken-out-phone")

        # Clara is watching her screen when it happens.
        clara.wait("my-canvas")
        assert clara.page.locator("[data-testid=taken-out]").count() == 0
        host.request({"t": "kick", "player": ids["Clara"]})
        clara.wait("taken-out")
        assert "Ведучий" in clara.page.inner_text("[data-testid=taken-out]")
        for p in (bohdan, clara):
            assert p.errors == [], p.errors
    finally:
        bohdan.context.close()
        clara.context.close()
        host.close()
        olek.close()
