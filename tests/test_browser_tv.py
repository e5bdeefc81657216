"""The TV table view (/r/{code}/tv) on a 1920x1080 screen through a whole
round of Pictomania: the code and a QR code of the join link in the lobby,
every drawing large while drawing, the reveal one step at a time, the
scores; and every WebSocket message the TV received holds no secret before
its reveal (it is a spectator)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.browser import CHROMIUM, shot, wait_ink
from support.ink import line_across
from support.server import create_room
from support.ws_players import WsPlayer, phase_is
from test_server_leak import CARDS, secret_fields

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

TV = {"width": 1920, "height": 1080}


def strings_in(value: Any) -> Iterator[str]:
    """Every string anywhere in a decoded message."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def test_tv_through_a_whole_round_sees_only_what_a_spectator_may(
    browser: Any, server: Any
) -> None:
    code = create_room(server.http, "pictomania",
                       {"rounds": 1, "levels": [1], "custom_cards": CARDS})
    context = browser.new_context(viewport=TV, locale="uk-UA")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda f: frames.append(f) if isinstance(f, str) else None))
    players: list[WsPlayer] = []
    try:
        page.goto(f"{server.http}/r/{code}/tv")
        page.wait_for_selector("[data-testid=tv-lobby]")
        assert page.inner_text("[data-testid=tv-code]") == code
        assert page.inner_text("[data-testid=tv-link]").endswith(f"/r/{code}")
        page.wait_for_function(
            "() => { const i = document.querySelector('[data-testid=tv-qr]');"
            " return i.complete && i.naturalWidth > 0; }")
        qr = httpx.get(f"{server.http}/api/rooms/{code}/qr.svg")
        assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
        assert httpx.get(f"{server.http}/api/rooms/ZZZZZZ/qr.svg").status_code == 404

        for name, colour in [("Anna", "red"), ("Bob", "blue"), ("Cat", "green")]:
            p = WsPlayer(server.ws, code)
            p.join(name, colour)
            players.append(p)
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=tv-players] li').length === 3")
        shot(page, "tv-lobby")
        ann, bob, _ = players

        ann.request({"t": "start"})
        page.wait_for_selector("[data-testid=pm-display]")
        for p in players:
            p.act({"type": "ready"})
        page.wait_for_selector("[data-testid=pm-drawing]")
        mine = [p.state(phase_is("drawing"))["game"]["me"] for p in players]
        for i, p in enumerate(players):
            p.draw(line_across(700 + 500 * i, 0), line_across(2000 + 300 * i, 600))
        for seat in range(3):  # every drawing, live and large
            wait_ink(page, f"[data-testid=tile-{seat}]")
        tile = page.locator("[data-testid=tile-0]").bounding_box()
        assert tile and tile["width"] >= 400, tile
        assert page.locator("[data-testid=my-canvas]").count() == 0
        shot(page, "tv-drawing")

        ann.act({"type": "guess", "target": 1, "number": mine[1]["number"]})
        bob.act({"type": "guess", "target": 2, "number": 1 if mine[2]["number"] != 1 else 2})
        for p in players:
            p.act({"type": "done"})

        # The reveal goes stack by stack at the table's pace, then the scores.
        page.wait_for_selector("[data-testid=pm-review]")
        page.wait_for_selector(".stack-card.turned")
        assert page.locator(".stack-card.turned").count() < 3
        page.wait_for_selector("[data-testid=summary]", timeout=60_000)
        assert page.locator("[data-testid=score-row]").count() == 3
        assert page.locator("[data-testid=confirm]").count() == 0
        shot(page, "tv-reveal")
        for p in players:
            p.act({"type": "confirm"})
        page.wait_for_selector("[data-testid=final-scores]")
        shot(page, "tv-scores")
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width

        # The leak check over everything the TV received.
        states = [m for m in map(json.loads, frames) if m.get("t") == "state"]
        assert {"lobby", "playing", "over"} <= {m["room"]["phase"] for m in states}
        tokens = [m["token"] for p in players for m in p.log
                  if isinstance(m, dict) and m.get("t") == "joined"]
        assert len(tokens) == 3
        for m in map(json.loads, frames):
            raw = json.dumps(m)
            assert "token" not in m and '"mark":' not in raw  # a guess's mark, not a card word
            assert not any(token in raw for token in tokens)
            if m.get("t") != "state":
                continue
            assert m["you"]["player"] is None and m["you"]["seat"] is None
            game = m["game"]
            if game and game["phase"] not in ("review", "over"):
                assert secret_fields(game) == [], secret_fields(game)
                assert "me" not in game and "round_result" not in game
        assert errors == [], errors
    finally:
        context.close()
        for p in players:
            p.close()


def test_tv_shows_piet_large_with_the_move_list(browser: Any, server: Any) -> None:
    code = create_room(server.http, "piet", {"opponent": "easy", "computer_seat": 1})
    ann = WsPlayer(server.ws, code)
    ann.join("Ann", "red")
    context = browser.new_context(viewport=TV, locale="de-DE")
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        page.goto(f"{server.http}/r/{code}/tv")
        page.wait_for_selector("[data-testid=tv-lobby]")
        ann.request({"t": "start"})
        page.wait_for_selector("[data-testid=piet-palette]")
        state = ann.state(lambda m: m["room"]["phase"] == "playing")
        ann.act({"type": "move", "move": state["game"]["legal_moves"][0]})
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=piet-moves] li').length >= 2")
        for part in ("piet-canvas-0", "piet-canvas-1", "piet-palette"):
            box = page.locator(f"[data-testid={part}]").bounding_box()
            assert box and box["width"] >= 300, (part, box)
        shot(page, "tv-piet")
    finally:
        context.close()
        ann.close()


def test_tv_in_incognito_sees_no_word_and_no_ink_before_their_time(
    browser: Any, server: Any
) -> None:
    code = create_room(server.http, "incognito", {"rounds": 1, "countdown": 1})
    context = browser.new_context(viewport=TV, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    frames: list[str | bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    players: list[WsPlayer] = []
    try:
        page.goto(f"{server.http}/r/{code}/tv")
        page.wait_for_selector("[data-testid=tv-lobby]")
        for i, colour in enumerate(("red", "blue", "green", "yellow")):
            p = WsPlayer(server.ws, code)
            p.join(f"P{i}", colour)
            players.append(p)
        players[0].request({"t": "start"})
        page.wait_for_selector("[data-testid=ig-drawing]")
        words = [p.state(phase_is("drawing"))["game"]["word"] for p in players]
        for i, p in enumerate(players):
            p.draw(line_across(800 + 400 * i, 0))
        assert page.locator("canvas").count() == 0  # nobody's drawing while drawing
        for p in players:
            p.act({"type": "done_drawing"})
        page.wait_for_selector("[data-testid=ig-voting]")
        for seat in range(4):  # now every drawing, large
            wait_ink(page, f"[data-testid=ig-drawing-{seat}]")
        box = page.locator("[data-testid=ig-drawing-0]").bounding_box()
        assert box and box["width"] >= 300, box
        for seat, p in enumerate(players):
            for k, author in enumerate(a for a in range(4) if a != seat):
                p.act({"type": "vote", "author": author, "tile": k + 1})
        page.wait_for_selector("[data-testid=ig-over]")  # one round: the reveal, then the end
        page.wait_for_selector("[data-testid=ig-reveal-0]")
        shot(page, "tv-incognito-reveal")

        # No word anywhere while drawing, no one's own word ever, no ink before the vote.
        revealed = voting = False
        for f in frames:
            if isinstance(f, bytes):
                assert voting, "ink reached the TV while drawing"
                continue
            m = json.loads(f)
            if m.get("t") == "state" and m["game"]:
                voting = voting or m["game"]["phase"] != "drawing"
                revealed = revealed or m["game"]["phase"] in ("scored", "over")
                assert m["game"]["word"] is None and m["game"]["my_votes"] is None
            if not voting:  # the vote's tiles show every word, but not whose
                # a word as a value, not a piece of one ("key" is in "drawing_key")
                assert not set(words) & set(strings_in(m)), m.get("t")
        assert revealed
    finally:
        context.close()
        for p in players:
            p.close()


# Twenty characters with nothing to break at: the longest name a player may choose.
LONG_NAMES = {
    "en": ["Bartholomew-Fitzgera", "Maximiliana-Winterbo", "Christopher-Anderson",
           "Benjamin", "Dominika", "Frederika"],
    "de": ["Hildegard-Schwarzkop", "Friedrich-Wilhelmsen", "Gottfried-Lichtenber",
           "Schimpanse", "Dominika", "Frederika"],
    "uk": ["Олександра-Костянтин", "Володимир-Святославо", "Ярославна-Мирославів",
           "Олена", "Богдана", "Зеновій"],
}
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
# Where the stacks lie on the page (scrolled or not), and the viewport: all six
# are in view at once when the page's scroll can show them together.
STACKS_JS = """() => {
  const top = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
  const boxes = [...document.querySelectorAll('.stack-card')].map((el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top + scrollY, r.right, r.bottom + scrollY];
  });
  return {boxes, top, vw: innerWidth, vh: innerHeight,
          scrollW: document.documentElement.scrollWidth};
}"""


# Whatever sticks out of its stack (a long word that does not fit beside the
# drawing); what a box cuts short with an ellipsis stays inside its box.
SPILLS_JS = """() => [...document.querySelectorAll('.stack-card')].flatMap((card) => {
  const c = card.getBoundingClientRect();
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== card; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  return [...card.querySelectorAll('*')].filter((el) => {
    if (clipped(el)) return false;
    const r = el.getBoundingClientRect();
    return r.width && (r.right > c.right + 1 || r.left < c.left - 1 || r.bottom > c.bottom + 1);
  }).map((el) => `${card.dataset.testid}: ${el.className} "${el.textContent}" sticks out`);
})"""


def stacks_fit(page: Any) -> list[str]:
    """What keeps the six stacks from being in view together, if anything."""
    m = page.evaluate(STACKS_JS)
    boxes = m["boxes"]
    problems: list[str] = [] if len(boxes) == 6 else [f"{len(boxes)} stacks"]
    if boxes:
        first = min(b[1] for b in boxes)
        last = max(b[3] for b in boxes)
        if last - first > m["vh"] - m["top"] + 1:
            problems.append(f"the stacks are {last - first:.0f} px tall, "
                            f"the screen shows {m['vh'] - m['top']:.0f}")
        problems += [f"a stack from x {b[0]:.0f} to {b[2]:.0f}" for b in boxes
                     if b[0] < -1 or b[2] > m["vw"] + 1]
    if m["scrollW"] > m["vw"] + 1:
        problems.append(f"the page is {m['scrollW']} px wide")
    spills: list[str] = page.evaluate(SPILLS_JS)
    return problems + spills


@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_the_tv_reveal_shows_all_six_stacks_at_once(browser: Any, server: Any,
                                                    lang: str) -> None:
    """Six players with the longest names, the decks' longest words, five
    guesses on every drawing: at 1280x720 every stack of the reveal is in view
    at once, face down at first and turned over at the end."""
    from test_browser_phone import long_cards

    code = create_room(server.http, "pictomania", {
        "rounds": 1, "language": lang, "custom_cards": long_cards(lang, 3),
        "custom_mode": "instead"})
    context = browser.new_context(viewport={"width": 1280, "height": 720},
                                  locale={"en": "en-GB", "de": "de-DE", "uk": "uk-UA"}[lang],
                                  reduced_motion="reduce")  # measured as it stands, not mid-flip
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players: list[WsPlayer] = []
    try:
        page.goto(f"{server.http}/r/{code}/tv")
        page.wait_for_selector("[data-testid=tv-lobby]")
        for name, colour in zip(LONG_NAMES[lang], COLOURS, strict=True):
            p = WsPlayer(server.ws, code)
            p.join(name, colour)
            players.append(p)
        players[0].request({"t": "start"})
        for p in players:
            p.state(phase_is("display"))
            p.act({"type": "ready"})
        for i, p in enumerate(players):
            p.state(phase_is("drawing"))
            p.draw(line_across(700 + 300 * i, 0))
        for i, p in enumerate(players):  # everyone guesses on every other drawing
            others = [s for s in range(6) if s != i]
            for number, target in enumerate(others, 1):
                p.act({"type": "guess", "target": target, "number": number})
        for p in players:
            p.act({"type": "done"})

        page.wait_for_selector("[data-testid=pm-review]")
        page.wait_for_selector(".stack-card >> nth=5")
        assert stacks_fit(page) == []
        # in view on the screen itself, not only together: the reveal starts at the top
        for i in range(6):
            box = page.locator(".stack-card").nth(i).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 720, (i, box)
        # The whole reveal at the TV's pace takes a minute and a half: the skip
        # button (which the TV hides: nobody taps it) brings its end at once.
        page.wait_for_selector(".stack-card.turned")
        page.evaluate("() => document.querySelector('[data-testid=reveal-skip]').click()")
        page.wait_for_function(
            "() => document.querySelectorAll('.stack-card.turned').length === 6"
            " && document.querySelectorAll('[data-testid=revealed-guess]').length === 30")
        assert stacks_fit(page) == []
        page.evaluate("() => scrollTo(0, 0)")
        shot(page, f"tv-reveal-six-{lang}")
        assert errors == [], errors
    finally:
        for p in players:
            p.close()
        context.close()
