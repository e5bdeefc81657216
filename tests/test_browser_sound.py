"""Sound and vibration cues in a real browser. Headless audio cannot be
heard, so the sound module records each cue in window.atelierCues ({name,
played}); the test waits for the cues at the moments they belong to: the
round starts, someone guessed your drawing, the last 10 seconds, the reveal,
your turn in Piet. Players hear them by default, spectators do not, and the
mute switch is remembered on the device across a reload."""

from __future__ import annotations

import os
from typing import Any

import pytest

from support.browser import CHROMIUM, join, new_player
from support.ink import line_across
from support.server import create_room
from support.ws_players import WsPlayer, phase_is
from test_server_leak import CARDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]


def wait_cue(page: Any, name: str, played: bool, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "([name, played]) => (window.atelierCues || [])"
        ".some(c => c.name === name && c.played === played)",
        arg=[name, played], timeout=timeout)


def cues(page: Any) -> list[tuple[str, bool]]:
    return [(c["name"], c["played"]) for c in page.evaluate("() => window.atelierCues")]


def test_cues_fire_at_their_moments_and_the_switch_is_remembered(
    browser: Any, server: Any
) -> None:
    code = create_room(server.http, "pictomania", {
        "rounds": 1, "levels": [1], "custom_cards": CARDS, "time_limit": 12})
    host = WsPlayer(server.ws, code)
    host.join("Hana", "blue")
    other = WsPlayer(server.ws, code)
    other.join("Olek", "green")
    me = new_player(browser, "Mia", "red", phone=True, locale="de-DE")
    watcher = new_player(browser, "Watcher", "")
    try:
        join(me, f"{server.http}/r/{code}")
        watcher.page.goto(f"{server.http}/r/{code}")
        watcher.wait("lobby")
        assert me.page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "true"
        assert watcher.page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "false"
        assert me.page.get_attribute("[data-testid=sound-toggle]", "aria-label") == \
            "Ton und Vibration"

        host.request({"t": "start"})
        for p in (host, other):
            p.act({"type": "ready"})
        me.wait("ready")
        me.click("ready")
        wait_cue(me.page, "round", True)
        wait_cue(watcher.page, "round", False)  # spectators: off unless turned on

        # Someone guesses on Mia's drawing: she hears that, not who or whether right.
        seat = host.state(phase_is("drawing"))["game"]["players"]
        mia = next(p["seat"] for p in seat if p["name"] == "Mia")
        host.draw(line_across(900, 0))
        assert ("guessed", True) not in cues(me.page)
        host.act({"type": "guess", "target": mia, "number": 1})
        wait_cue(me.page, "guessed", True)
        assert ("guessed", False) not in cues(watcher.page)  # not their drawing

        # The last ten seconds of the round's clock, then the reveal.
        wait_cue(me.page, "tick", True)
        wait_cue(me.page, "reveal", True)

        # Muted: remembered on this device after a reload; cues still recorded, not played.
        me.click("sound-toggle")
        assert me.page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "false"
        me.page.reload()
        me.wait("pm-review")
        assert me.page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "false"
        assert me.page.evaluate("() => localStorage.getItem('atelier.sound')") == "off"
        assert me.errors == [] and watcher.errors == []
    finally:
        me.context.close()
        watcher.context.close()
        host.close()
        other.close()


def test_the_end_of_an_incognito_game_is_a_reveal(browser: Any, server: Any) -> None:
    """The last round of Incognito goes from the vote straight to the game's
    end, which shows that round's reveal: it sounds like every other reveal."""
    code = create_room(server.http, "incognito", {"rounds": 1, "countdown": 0})
    host = WsPlayer(server.ws, code)
    host.join("Hana", "blue")
    other = WsPlayer(server.ws, code)
    other.join("Olek", "green")
    me = new_player(browser, "Mia", "red", phone=True)
    try:
        join(me, f"{server.http}/r/{code}")
        host.request({"t": "start"})
        me.wait("ig-drawing")
        # Without a countdown a phase ends once all but one are done: Mia only watches.
        for p in (host, other):
            p.act({"type": "done_drawing"})
        me.wait("ig-voting")
        for p in (host, other):
            p.act({"type": "done_voting"})
        me.wait("ig-over")
        wait_cue(me.page, "reveal", True)
        assert [c for c in cues(me.page) if c[0] == "reveal"] == [("reveal", True)]
        assert me.errors == []
    finally:
        me.context.close()
        host.close()
        other.close()


def test_your_turn_in_piet(browser: Any, server: Any) -> None:
    code = create_room(server.http, "piet", {"opponent": "easy", "computer_seat": 0})
    me = new_player(browser, "Ann", "red")
    try:
        join(me, f"{server.http}/r/{code}")
        me.click("start-game")
        wait_cue(me.page, "round", True)
        wait_cue(me.page, "turn", True)  # after the computer's first move
        assert me.errors == []
    finally:
        me.context.close()
