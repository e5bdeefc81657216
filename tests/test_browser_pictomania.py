"""Real-browser games of Pictomania: three players in their own browser
contexts (a phone among them) play whole games of both editions by drawing
with pointer input, guessing in two taps and taking tokens; the totals the
page shows must be the engine's, recomputed from the server's log."""

from __future__ import annotations

import os
from typing import Any

import httpx
import pytest

from support.browser import (
    CHROMIUM,
    INKED_JS,
    Player,
    guess,
    has_ink,
    join,
    new_player,
    no_overflow,
    replay_totals,
    scribble,
    seat_of,
    secret,
    set_setting,
    shot,
    wait_ink,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

ROUNDS = 2


def wrong_number(target: int, spent: set[int]) -> int:
    return next(n for n in range(1, 8) if n != target and n not in spent)


def play_round(players: list[Player], edition: str, round_no: int, tag: str) -> None:
    a, b, c = players
    for p in players:
        p.wait("pm-display")
    for p in players:
        p.click("ready")
    for p in players:
        p.wait("pm-drawing")
        p.wait("secret-word")

    if edition == "first":
        # 1st edition: an empty canvas takes no bonus token ("Gar nichts zeichnen").
        a.wait("nothing-drawn")
        assert a.page.locator("[data-testid^=black-]").count() == 0

    if round_no == 1:
        # The toolbar's undo takes a stroke back at once.
        a_canvas = "[data-testid=my-canvas]"
        scribble(a, f"{a_canvas} .ink-surface", seed=9, strokes=1)
        wait_ink(a.page, a_canvas)
        a.click("tool-undo")
        a.page.wait_for_function(
            f"() => !({INKED_JS})(document.querySelector('{a_canvas}'))"
        )

    # Everyone draws; everyone sees every drawing live.
    for i, p in enumerate(players):
        scribble(p, "[data-testid=my-canvas] .ink-surface", seed=i + round_no)
    for p in players:
        for q in players:
            if q is not p:
                wait_ink(p.page, f"[data-testid=tile-{seat_of(p, q.name)}]")
        assert has_ink(p.page, "[data-testid=my-canvas]")

    if round_no == 1:
        shot(a.page, f"round-desktop-{tag}")
        shot(b.page, f"round-phone-{tag}")
        sizes = no_overflow(b.page)
        assert sizes["scrollW"] <= sizes["vw"] and sizes["scrollH"] <= sizes["vh"], sizes
        assert sizes["outside"] == [] and sizes["surfaces"] == 3, sizes

    if round_no == 1 and edition == "second":
        # Closing the tab and coming back through the link restores seat, word and ink.
        word = c.page.inner_text("[data-testid=secret-word]")
        url = c.page.url
        c.page.close()
        c.page = c.context.new_page()
        c.watch()
        c.page.goto(url)
        c.wait("pm-drawing")
        assert c.page.inner_text("[data-testid=secret-word]") == word
        wait_ink(c.page, "[data-testid=my-canvas]")
        for q in (a, b):
            wait_ink(c.page, f"[data-testid=tile-{seat_of(c, q.name)}]")

    # Guesses: some right, some wrong, in two taps each.
    sa, sb, sc = (secret(p) for p in players)
    guess(a, b, sb[0] or "A", sb[1])  # right
    guess(c, a, sa[0] or "A", sa[1])  # right
    guess(b, c, sc[0] or "A", wrong_number(sc[1], set()))  # wrong
    guess(a, c, sc[0] or "A", sc[1] if round_no == 1 else wrong_number(sc[1], {sb[1]}))
    if edition == "second":
        # The first guess locks a 2nd-edition drawing.
        a.wait("canvas-locked")

    # Black tokens: one tap each; the last player declares done (if still playing).
    a.page.wait_for_selector("[data-testid^=black-]")
    if edition == "first":
        # Only the highest bonus token left is offered.
        assert a.page.locator("[data-testid^=black-]").count() == 1
        assert a.page.locator("[data-testid=nothing-drawn]").count() == 0
    a.page.locator("[data-testid^=black-]").first.click()
    a.wait("finished")
    b.page.locator("[data-testid^=black-]").first.click()
    if edition == "second":
        c.click("done")


def reveal_and_confirm(players: list[Player], tag: str, round_no: int) -> None:
    for p in players:
        p.wait("pm-review")
    host = players[0]
    host.page.wait_for_selector("[data-testid=stack-word]")
    if round_no == 1:
        shot(host.page, f"reveal-{tag}")
    for p in players:
        if p.page.locator("[data-testid=reveal-skip]").is_visible():
            p.click("reveal-skip")
        p.wait("summary")
        assert p.page.locator("[data-testid=score-row]").count() == 3
    if round_no == 1:
        host.page.locator("[data-testid=summary]").scroll_into_view_if_needed()
        shot(host.page, f"scores-{tag}")
    for p in players:
        p.click("confirm")


@pytest.mark.parametrize("edition", ["second", "first"])
def test_three_browsers_play_a_whole_game(browser: Any, server: Any, edition: str) -> None:
    a = new_player(browser, "Anna", "red")
    b = new_player(browser, "Bohdan", "blue", phone=True, locale="de-DE")
    c = new_player(browser, "Clara", "green", locale="uk-UA")
    players = [a, b, c]
    try:
        a.page.goto(server.http)
        a.page.select_option("[data-testid=setting-edition]", edition)
        a.click("create-room")
        a.wait("lobby-join")
        url = a.page.url
        code = url.rstrip("/").rsplit("/", 1)[1]
        for p in players:
            join(p, url)
        set_setting(a, "rounds", str(ROUNDS))
        a.page.wait_for_function(
            "() => document.querySelectorAll('[data-testid^=setting-levels-]').length === 2"
        )
        # Everyone sees the host's settings; the phone's page is in German.
        b.page.wait_for_function(  # the host's change reaches the phone when it does
            "n => document.querySelector('[data-testid=setting-rounds]')?.innerText === n",
            arg=str(ROUNDS))
        assert "Spieler (3)" in b.page.inner_text("[data-testid=lobby]")
        shot(a.page, f"lobby-{edition}")
        a.click("start-game")

        for round_no in range(1, ROUNDS + 1):
            play_round(players, edition, round_no, edition)
            reveal_and_confirm(players, edition, round_no)

        for p in players:
            p.wait("pm-over")
        rows = a.page.locator("[data-testid=final-row]")
        shown: dict[str, int] = {}
        for i in range(rows.count()):
            row = rows.nth(i)
            name = row.locator(".final-name").inner_text()
            shown[name] = int(row.get_attribute("data-total") or 0)
        names, totals = replay_totals(server.db, code)
        assert shown == dict(zip(names, totals, strict=True))
        # Every drawing in the gallery, each downloadable as PNG.
        items = a.page.locator("[data-testid=gallery-item]")
        assert items.count() == ROUNDS * 3
        href = items.first.locator("[data-testid=gallery-download]").get_attribute("href")
        png = httpx.get(server.http + (href or ""))
        assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
        a.page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=gallery-item] img')]"
            ".every(i => i.complete && i.naturalWidth > 0)"
        )
        shot(a.page, f"gallery-{edition}")
        for p in players:
            assert p.errors == [], p.errors
    finally:
        for p in players:
            p.context.close()
