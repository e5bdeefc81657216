"""Incognito in a real browser (Debian's chromium) against a real server process: three
players (two desktops, one phone in German) play a whole two-round game by drawing with
the mouse, voting with clicks, and the scores and totals shown equal the server's.
Screenshots go to artifacts/ (not committed)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from support.browser import server_view, shot
from support.server import ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's chromium"),
]

TIMEOUT_MS = 15_000
DESKTOP = {"width": 1280, "height": 820}
PHONE = {"width": 390, "height": 844}


def draw(page: Any, seed: int) -> None:
    """A few strokes with the mouse on my canvas."""
    surface = page.locator("[data-testid=ig-canvas] .ink-surface")
    surface.wait_for()
    box = surface.bounding_box()
    assert box and box["width"] > 100
    x0, y0, w = box["x"], box["y"], box["width"]
    for k in range(3):
        page.mouse.move(x0 + w * (0.2 + 0.1 * k), y0 + w * (0.3 + 0.05 * seed))
        page.mouse.down()
        for i in range(1, 12):
            page.mouse.move(x0 + w * (0.2 + 0.1 * k + 0.04 * i),
                            y0 + w * (0.3 + 0.05 * seed + 0.03 * ((i * (k + 1)) % 5)), steps=2)
        page.mouse.up()


def ink_pixels(page: Any, seat: int) -> int:
    """Painted pixels in the vote view of ``seat``'s drawing."""
    return canvas_pixels(page, f"[data-testid=ig-drawing-{seat}]")


PAINTED = """(where) => {
  const canvases = document.querySelectorAll(`${where} canvas`);
  let n = 0;
  for (const c of canvases) {
    if (!c.width) continue;
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
  }
  return n;
}"""


def canvas_pixels(page: Any, where: str) -> int:
    """Painted pixels on the canvases inside ``where``."""
    count: int = page.evaluate(PAINTED, where)
    return count


def vote(page: Any, how_many: int | None = None) -> list[tuple[int, int]]:
    """Two clicks per drawing not voted on yet: the drawing, then a free tile."""
    placed = []
    others = page.locator("[data-testid^=ig-drawing-]:not(.own):not(.voted)")
    authors = [int(str(others.nth(i).get_attribute("data-seat"))) for i in range(others.count())]
    for author in authors[:how_many]:
        page.get_by_test_id(f"ig-drawing-{author}").click()
        tile = page.locator("button.ig-tile:not([disabled])").first
        n = int(str(tile.get_attribute("data-tile")))
        tile.click()
        # the last vote of all ends the vote at once
        page.wait_for_function(
            """(a) => !document.querySelector("[data-testid=ig-voting]") || document.querySelector(
                 `[data-testid=ig-drawing-${a}] [data-testid=ig-my-vote]`)""", arg=author)
        placed.append((author, n))
        if not page.get_by_test_id("ig-voting").count():
            break
        # the number is spent: on the tile and among my vote cards
        assert page.get_by_test_id(f"ig-tile-{n}").get_attribute("data-spent") == "true"
        assert "spent" in str(page.get_by_test_id(f"ig-card-{n}").get_attribute("class"))
    return placed


def skip_reveal(page: Any) -> None:
    """Turns every drawing over at once, unless the reveal has already finished."""
    page.evaluate(
        "() => document.querySelector('[data-testid=ig-reveal-skip]:not([hidden])')?.click()")


def check_scores(page: Any, view: dict[str, Any], testid: str) -> None:
    rows = page.get_by_test_id(testid)
    shown = {int(str(rows.nth(i).get_attribute("data-seat"))):
             int(str(rows.nth(i).get_attribute("data-total"))) for i in range(rows.count())}
    assert shown == dict(enumerate(view["totals"]))


def test_three_players_play_a_whole_game(browser: Any, module_server: ServerProcess) -> None:
    contexts, pages, errors = [], [], []
    for viewport, locale in ((DESKTOP, "en-GB"), (DESKTOP, "en-GB"), (PHONE, "de-DE")):
        ctx = browser.new_context(viewport=viewport, locale=locale,
                                  device_scale_factor=2 if viewport is PHONE else 1)
        ctx.set_default_timeout(TIMEOUT_MS)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        contexts.append(ctx)
        pages.append(page)
    ann, bob, cy = pages
    spectator = browser.new_context(viewport=DESKTOP, locale="uk-UA")
    spectator.set_default_timeout(TIMEOUT_MS)
    contexts.append(spectator)
    watcher = spectator.new_page()
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # Ann creates the room on the start page and sets a short game in the lobby.
        ann.goto(module_server.http + "/")
        ann.get_by_test_id("game-incognito").click()
        ann.get_by_test_id("create-room").click()
        ann.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        code = ann.url.rsplit("/", 1)[1]
        ann.get_by_test_id("join-name").fill("Ann")
        ann.get_by_test_id("join-submit").click()
        ann.get_by_test_id("start-game").wait_for()
        for field, value in (("rounds", "2"), ("countdown", "8")):
            box = ann.get_by_test_id(f"setting-{field}")
            box.fill(value)
            box.press("Enter")
            ann.wait_for_function(
                "([f, v]) => document.querySelector(`[data-testid=setting-${f}]`)?.value === v",
                arg=[field, value])
        for page, name in ((bob, "Bob"), (cy, "Cy")):
            page.goto(f"{module_server.http}/r/{code}")
            page.get_by_test_id("join-name").fill(name)
            page.get_by_test_id("join-submit").click()
            page.get_by_test_id("wait-host").wait_for()
        ann.get_by_text("Cy").first.wait_for()
        shot(ann, "incognito-lobby")
        ann.get_by_test_id("start-game").click()

        for rnd in (1, 2):
            # Drawing: my location and my secret word; the others' words stay unseen.
            words = {}
            for i, page in enumerate(pages):
                page.get_by_test_id("ig-drawing").wait_for()
                assert page.get_by_test_id("round-label").inner_text() in (
                    f"Round {rnd} of 2", f"Runde {rnd} von 2")
                words[i] = page.get_by_test_id("ig-secret-word").inner_text()
                assert page.get_by_test_id("ig-location-text").inner_text()
            for i, page in enumerate(pages):
                text = page.locator("main").inner_text()
                assert all(words[j] not in text for j in words if j != i)
                draw(page, i)
            if rnd == 1:
                shot(ann, "incognito-drawing-desktop")
                shot(cy, "incognito-drawing-phone")
                assert cy.get_by_test_id("ig-done-drawing").inner_text() == "Fertig gezeichnet"
                # a reload gives Bob his seat, his word and his drawing back
                before = canvas_pixels(bob, "[data-testid=ig-canvas]")
                assert before > 0
                bob.reload()
                assert bob.get_by_test_id("ig-secret-word").inner_text() == words[1]
                # the same picture comes back (waiting for it, not for a fixed time)
                bob.wait_for_function(
                    f"(n) => ({PAINTED})('[data-testid=ig-canvas]') === n", arg=before)
                # a late visitor watches: the locations, no secret word, no drawing
                watcher.goto(f"{module_server.http}/r/{code}")
                watcher.get_by_test_id("ig-drawing").wait_for()
                assert watcher.get_by_test_id("ig-player").count() == 3
                assert watcher.get_by_test_id("ig-secret").count() == 0
                assert watcher.locator("canvas").count() == 0
                shot(watcher, "incognito-spectator-drawing")
            for page in pages:
                page.get_by_test_id("ig-done-drawing").click()

            # The vote: every drawing turned over for everyone, two clicks per vote.
            for page in pages:
                page.get_by_test_id("ig-voting").wait_for()
            seats = {i: int(str(p.locator(".ig-pic.own").get_attribute("data-seat")))
                     for i, p in enumerate(pages)}
            for i, page in enumerate(pages):
                for j in range(3):
                    page.wait_for_function(
                        """(seat) => [...document.querySelectorAll(
                             `[data-testid=ig-drawing-${seat}] canvas`)].some((c) => c.width)""",
                        arg=seats[j])
                    assert ink_pixels(page, seats[j]) > 0, (i, j)
            # Votes interleave so that the countdown (which starts once all but one have
            # finished) never cuts a vote short; in round 2 Cy places one card and says
            # done, so the end of the vote places Cy's other card at random.
            if rnd == 1:
                watcher.get_by_test_id("ig-voting").wait_for()
                for j in range(3):
                    assert ink_pixels(watcher, seats[j]) > 0
                assert watcher.get_by_test_id("ig-done-voting").count() == 0
            vote(cy, 1)
            if rnd == 1:
                vote(ann, 1)
                shot(ann, "incognito-voting-desktop")
                vote(bob)
                vote(ann)
                vote(cy)
            else:
                shot(cy, "incognito-voting-phone")
                cy.get_by_test_id("ig-done-voting").click()
                cy.get_by_test_id("ig-waiting").wait_for()
                vote(ann)
                vote(bob)

            # The reveal, the round's points, the totals.
            done_phase = "ig-scored" if rnd == 1 else "ig-over"
            view = None
            for page in pages:
                page.get_by_test_id(done_phase).wait_for()
                skip_reveal(page)
                page.get_by_test_id("ig-score-table").wait_for()
            view = server_view(module_server, code)
            result = view["history"][rnd - 1]
            for page in pages:
                check_scores(page, view, "ig-score-row")
                for d in result["drawings"]:
                    card = page.get_by_test_id(f"ig-reveal-{d['author']}")
                    assert card.get_by_test_id("ig-reveal-word").inner_text() == d["word"]
                    assert card.get_by_test_id("ig-vote").count() == 2
            assert {words[i] for i in range(3)} == {d["word"] for d in result["drawings"]}
            if rnd == 1:
                shot(bob, "incognito-reveal-desktop")
                shot(cy, "incognito-reveal-phone")
                bob.get_by_test_id("ig-confirm").click()
                cy.get_by_test_id("ig-confirm").click()
                ann.get_by_test_id("ig-host-next").click()

        # The end: winners, every round's points, the totals equal the server's, gallery.
        assert view is not None and view["phase"] == "over"
        assert any(v["random"] for d in view["history"][1]["drawings"] for v in d["votes"])
        for page in pages:
            page.get_by_test_id("ig-final").wait_for()
            check_scores(page, view, "ig-final-row")
            check_scores(page, view, "ig-rounds-row")
            assert page.get_by_test_id("ig-gallery-item").count() == 6
        skip_reveal(watcher)
        watcher.get_by_test_id("ig-final").wait_for()
        check_scores(watcher, view, "ig-final-row")
        assert watcher.get_by_test_id("ig-gallery").locator("h2").inner_text() == "Галерея"
        ann.wait_for_function(
            """() => [...document.querySelectorAll("[data-testid=ig-gallery-item] img")]
                 .every((img) => img.complete && img.naturalWidth > 0)""")
        ann.get_by_test_id("ig-gallery").scroll_into_view_if_needed()
        shot(ann, "incognito-gallery-desktop")
        cy.get_by_test_id("ig-winners").scroll_into_view_if_needed()
        shot(cy, "incognito-final-phone")
        # Any drawing of the gallery plays back as it was drawn.
        ann.get_by_test_id("ig-gallery-item").first.get_by_test_id("replay-open").click()
        ann.wait_for_selector("[data-testid=replay][data-loaded=true]")
        assert int(ann.get_attribute("[data-testid=replay]", "data-duration") or 0) > 0
        ann.get_by_test_id("replay-close").click()
        assert errors == []
    except Exception:
        for i, page in enumerate(pages):
            shot(page, f"incognito-failed-{i}")
        raise
    finally:
        for ctx in contexts:
            ctx.close()
