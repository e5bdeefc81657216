"""A drawing's replay in a real browser on a 360 px phone: the guesses sit on
the timeline where the server's log puts them (not where the test's clock
would), playback at 4x passes them, the scrubber is a labelled range, and the
animated export downloads."""

from __future__ import annotations

import os
from typing import Any

import httpx
import pytest

from atelier.server.room.marks import replay_ms
from support.browser import ARTIFACTS, CHROMIUM, INKED_JS, new_player, words_problems
from support.ink import line_across
from support.log import logged_events
from support.server import create_room
from support.ws_players import WsPlayer, phase_is
from test_server_leak import CARDS
from test_server_replays import split

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]


def start_drawing(players: list[WsPlayer]) -> None:
    """The first player (the host) starts; everyone is ready; all see the drawing phase."""
    players[0].request({"t": "start"})
    for p in players:
        p.act({"type": "ready"})
    for p in players:
        p.state(phase_is("drawing"))

def logged_marks(db: str, code: str, seat: int) -> list[dict[str, Any]]:
    return [row.data for row in logged_events(db, code, "action")
            if row.data.get("mark", {}).get("seat") == seat]


def play_one_round(server: Any, code: str) -> list[WsPlayer]:
    players = [WsPlayer(server.ws, code) for _ in range(3)]
    for p, (name, colour) in zip(players, [("Anna", "red"), ("Bob", "blue"), ("Cat", "green")],
                                 strict=True):
        p.join(name, colour)
    ann, bob, cat = players
    start_drawing(players)
    ann.draw(line_across(600, 0))
    bob.act({"type": "guess", "target": 0, "number": 1})
    ann.draw(line_across(1400, 2500), line_across(2200, 3400))
    cat.act({"type": "guess", "target": 0, "number": 2})
    ann.draw(line_across(3000, 5000))
    bob.draw(line_across(800, 0))
    for p in players:
        p.act({"type": "done"})
    return players


def test_replay_shows_guesses_at_their_logged_times(browser: Any, server: Any) -> None:
    code = create_room(server.http, "pictomania",
                       {"rounds": 1, "levels": [1], "custom_cards": CARDS})
    players = play_one_round(server, code)
    viewer = new_player(browser, "Watcher", "", phone=True, locale="de-DE")
    page = viewer.page
    try:
        page.goto(f"{server.http}/r/{code}")
        viewer.wait("pm-review")
        page.click("[data-testid=stack-0] [data-testid=replay-open]")
        page.wait_for_selector("[data-testid=replay][data-loaded=true]")

        # Where the server's log puts each guess: the ink it held at that moment.
        batches = split(httpx.get(
            f"{server.http}/api/rooms/{code}/drawings/round-1/0.ink").content)
        expected = [(d["seat"], replay_ms(batches, d["mark"]["n"]))
                    for d in logged_marks(server.db, code, 0)]
        assert [n for _, n in expected] != sorted({0})  # the guesses fall mid-drawing
        marks = page.eval_on_selector_all(
            "[data-testid=replay-mark]",
            "els => els.map(e => [Number(e.dataset.by), Number(e.dataset.ms),"
            " parseFloat(e.style.left)])")
        duration = int(page.get_attribute("[data-testid=replay]", "data-duration") or 0)
        assert [(by, ms) for by, ms, _ in marks] == expected
        assert 0 < expected[0][1] < expected[1][1] < duration
        for _, ms, left in marks:
            assert abs(left - 100 * ms / duration) < 0.01

        # The scrubber is a range input with its label; back to the start.
        label = page.inner_text("label[for$=-range]")
        assert label == "Stelle in der Wiederholung"
        page.eval_on_selector("[data-testid=replay-range]",
                              "el => { el.value = '0'; el.dispatchEvent(new Event('input')); }")
        assert page.locator("[data-testid=replay-mark].passed").count() == 0

        # Playing at 4x passes every guess and ends with the whole drawing.
        page.click("[data-testid=replay-speed-4]")
        assert page.get_attribute("[data-testid=replay-speed-4]", "aria-pressed") == "true"
        page.click("[data-testid=replay-play]")
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=replay]').dataset.vt === '{duration}'")
        assert page.locator("[data-testid=replay-mark].passed").count() == 2
        assert page.eval_on_selector("[data-testid=replay-canvas]", INKED_JS)
        assert "Bob" in page.inner_text("[data-testid=replay-guesses]")

        # Fits a 360 px phone, every word whole.
        assert words_problems(page, "[data-testid=replay-dialog]") == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "replay-phone.png"))
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
        box = page.locator("[data-testid=replay-dialog]").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360

        # The animation to download.
        href = page.get_attribute("[data-testid=replay-download]", "href") or ""
        gif = httpx.get(server.http + href, timeout=60)
        assert gif.status_code == 200 and gif.content[:6] in (b"GIF89a", b"GIF87a")

        # And from the gallery after the game.
        page.click("[data-testid=replay-close]")
        for p in players:
            p.act({"type": "confirm"})
        viewer.wait("pm-over")
        page.click("[data-testid=gallery-item][data-seat='0'] [data-testid=replay-open]")
        page.wait_for_selector("[data-testid=replay][data-loaded=true]")
        assert page.locator("[data-testid=replay-mark]").count() == 2
        assert viewer.errors == [], viewer.errors

        # With reduced motion the replay does not play by itself: it shows the drawing.
        calm = browser.new_context(viewport={"width": 360, "height": 740},
                                   reduced_motion="reduce")
        still = calm.new_page()
        still.goto(f"{server.http}/r/{code}")
        still.click("[data-testid=gallery-item][data-seat='0'] [data-testid=replay-open]")
        still.wait_for_selector("[data-testid=replay][data-loaded=true]")
        assert still.get_attribute("[data-testid=replay]", "data-vt") == str(duration)
        assert still.get_attribute("[data-testid=replay]", "data-playing") is None  # never played
        calm.close()
    finally:
        viewer.context.close()
        for p in players:
            p.close()


def test_guesses_at_the_same_moment_do_not_cover_each_other(browser: Any, server: Any) -> None:
    """Two guesses after the same stroke fall at the same moment of the replay:
    their marks stack instead of one hiding the other."""
    code = create_room(server.http, "pictomania",
                       {"rounds": 1, "levels": [1], "custom_cards": CARDS})
    players = [WsPlayer(server.ws, code) for _ in range(3)]
    for p, (name, colour) in zip(players, [("Anna", "red"), ("Bob", "blue"), ("Cat", "green")],
                                 strict=True):
        p.join(name, colour)
    ann, bob, cat = players
    viewer = new_player(browser, "Watcher", "", phone=True)
    page = viewer.page
    try:
        start_drawing(players)
        ann.draw(line_across(600, 0))
        bob.act({"type": "guess", "target": 0, "number": 1})
        cat.act({"type": "guess", "target": 0, "number": 2})
        ann.draw(line_across(1400, 2500))
        for p in players:
            p.act({"type": "done"})
        page.goto(f"{server.http}/r/{code}")
        viewer.wait("pm-review")
        page.click("[data-testid=stack-0] [data-testid=replay-open]")
        page.wait_for_selector("[data-testid=replay][data-loaded=true]")
        marks = page.eval_on_selector_all(
            "[data-testid=replay-mark]",
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [Number(e.dataset.ms), r.left, r.top, r.right, r.bottom]; })")
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("[data-testid=replay-dialog]").screenshot(
            path=str(ARTIFACTS / "replay-same-moment.png"))
        assert len(marks) == 2 and marks[0][0] == marks[1][0]  # the same moment
        (_, l1, t1, r1, b1), (_, l2, t2, r2, b2) = marks
        assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, marks  # boxes apart
        # both above the scrubber, neither over it
        track = page.locator("[data-testid=replay-range]").bounding_box()
        assert track and max(b1, b2) <= track["y"] + 1, (marks, track)
        assert viewer.errors == [], viewer.errors
    finally:
        viewer.context.close()
        for p in players:
            p.close()
