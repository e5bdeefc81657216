"""What a table of six meets: 360x740 and 360x640 touch phones where drawing
comes first (a spectator's too),
and a TV at 1280x720 and 1920x1080 that shows the whole table by itself.

Measured, not eyeballed: the canvas each role draws on (every player count
from 3 to 6), no word broken across lines, nothing overlapping when the away
strip grows, every drawing in view on the TV with text at least 1/40 of its
height, and the TV bringing the reveal, the scores and the winners into view
with nobody touching it. Screenshots go to artifacts/table-*.png.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from support.browser import ARTIFACTS, CHROMIUM, join_page, shot, tid
from support.server import ServerProcess
from support.ws_players import WsPlayer
from test_browser_phone import (
    LOCALES,
    long_cards,
    long_incognito,
    make_room,
    new_phone,
    press,
    scribble,
    start_game,
    tap,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

TVS = [(1280, 720), (1920, 1080)]
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
# Six players per language, the first three 20 characters long with nothing to break at.
NAMES = {
    "en": ["Bartholomew-Fitzgera", "Maximiliana-Winterbo", "Christopher-Anderson",
           "Benjamin", "Dominika", "Frederika"],
    "de": ["Hildegard-Schwarzkop", "Friedrich-Wilhelmsen", "Gottfried-Lichtenber",
           "Schimpanse", "Dominika", "Frederika"],
    "uk": ["Олександра-Костянтин", "Володимир-Святославо", "Ярославна-Мирославів",
           "Олена", "Богдана", "Зеновій"],
}
MIN_CANVAS = {740: 320, 640: 280}
"""css px on a 360 px wide phone, by its height: at 640 the canvas is as tall
as the word, tools, strip and buttons leave it (293-315 px measured), no longer
the screen's width."""
PHONES: list[ViewportSize] = [{"width": 360, "height": 740}, {"width": 360, "height": 640}]
MIN_ENLARGED = 240  # css px: the enlarged drawing a guess is made on, six cards beside it

# --- what the page is measured by ---------------------------------------------------

# Every word (a run of non-space characters) of visible text whose characters
# lie on more than one line: a word broken in the middle.
BROKEN_WORDS_JS = r"""() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const skip = "[hidden], .sr-only, option, select, script, style, dialog:not([open]), .toast";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skip)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    const text = node.textContent;
    for (const m of text.matchAll(/\S+/g)) {
      if (m[0].length < 2) continue;
      const range = document.createRange();
      const tops = [];
      for (let i = m.index; i < m.index + m[0].length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width || r.height) tops.push(r.top + r.height / 2);
      }
      if (!tops.length) continue;
      const lineHeight = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.2;
      if (Math.max(...tops) - Math.min(...tops) > lineHeight / 2) out.push(m[0]);
    }
  }
  return out;
}"""

CANVAS_JS = """() => {
  const el = document.querySelector(
    '[data-testid=my-canvas] .ink-surface, [data-testid=ig-canvas] .ink-surface');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return [r.width, r.height, r.left, r.right, r.top, r.bottom];
}"""

# Pairs of the drawing screen's parts whose boxes overlap (the enlarged drawing,
# a layer over everything on purpose, aside), and parts outside the viewport.
OVERLAP_JS = """() => {
  const main = document.querySelector('#app main');
  const parts = [...main.children].filter((el) => {
    if (el.matches('.focus-layer, [hidden]')) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  });
  const out = [];
  const name = (el) => el.dataset.testid || el.className;
  const boxes = parts.map((el) => [el, el.getBoundingClientRect()]);
  // an entry of the away strip drawn over the next one (what it cuts short stays inside)
  for (const li of document.querySelectorAll('.presence-list li')) {
    const box = li.getBoundingClientRect();
    if (getComputedStyle(li).overflowX !== 'visible') continue;
    if ([...li.children].some((c) => c.getBoundingClientRect().right > box.right + 1)) {
      out.push(`away strip: ${li.textContent} spills over the next`);
    }
  }
  for (const [el, r] of boxes) {
    if (r.left < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
      out.push(`outside: ${name(el)}`);
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (x > 1 && y > 1) out.push(`${name(a)} overlaps ${name(b)}`);
    }
  }
  return out;
}"""

# On the TV: the drawings not wholly in view, and the smallest font size of card
# words and of players' names shown.
TV_DRAWINGS_JS = """(sel) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1
        || r.width < 50) {
      out.push(`${el.dataset.testid}: ${Math.round(r.top)}..${Math.round(r.bottom)}`);
    }
  }
  return out;
}"""

TV_FONTS_JS = """(sel) => {
  let least = Infinity;
  for (const el of document.querySelectorAll(sel)) {
    if (!el.getClientRects().length || el.closest('.sr-only')) continue;
    least = Math.min(least, parseFloat(getComputedStyle(el).fontSize));
  }
  return least;
}"""

IN_VIEW_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (!el || !el.getClientRects().length) return false;
  const r = el.getBoundingClientRect();
  const top = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
  return r.top >= top - 2 && r.top < innerHeight - 40;
}"""

TV_CHROME = ("[data-testid=rules-open]", "[data-testid=secret]", "[data-testid=host-menu]",
             "[data-testid=tv-watching]", "[data-testid=reveal-skip]",
             "[data-testid=ig-reveal-skip]", "[data-testid=replay-open]")


def broken_words(page: Page) -> list[str]:
    words: list[str] = page.evaluate(BROKEN_WORDS_JS)
    return words


def canvas(page: Page) -> list[float]:
    box: list[float] | None = page.evaluate(CANVAS_JS)
    assert box, "no canvas to draw on"
    return box


def wait_in_view(page: Page, selector: str, timeout: float = 60_000) -> None:
    """Nobody touches the TV: the element comes into view by itself."""
    page.wait_for_function(IN_VIEW_JS, arg=selector, timeout=timeout)


class Findings:
    """What was measured, written to artifacts/ for the closing note, and the
    problems found, asserted at the end so one run reports them all."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.figures: dict[str, Any] = {}
        self.problems: list[str] = []

    def words(self, page: Page, screen: str) -> None:
        broken = broken_words(page)
        if broken:
            self.problems.append(f"{screen}: words broken across lines: {broken[:8]}")

    def canvas(self, page: Page, screen: str) -> None:
        w, h, left, right, top, bottom = canvas(page)
        size = page.viewport_size or {"width": 0, "height": 0}
        if top < 0:
            self.problems.append(f"{screen}: canvas above the screen")
        self.figures[screen] = [round(w), round(h)]
        if w < MIN_CANVAS[size["height"]] or abs(w - h) > 8:
            self.problems.append(f"{screen}: canvas {w:.0f}x{h:.0f}")
        if left < 0 or right > size["width"] or bottom > size["height"]:
            self.problems.append(f"{screen}: canvas outside the screen")

    def layout(self, page: Page, screen: str) -> None:
        found: list[str] = page.evaluate(OVERLAP_JS)
        self.problems.extend(f"{screen}: {p}" for p in found)

    def tv(self, page: Page, screen: str, drawings: str, texts: str) -> None:
        height = page.viewport_size["height"] if page.viewport_size else 0
        out: list[str] = page.evaluate(TV_DRAWINGS_JS, drawings)
        self.problems.extend(f"{screen}: not in view: {o}" for o in out)
        least = float(page.evaluate(TV_FONTS_JS, texts))
        self.figures[f"{screen}-least-font"] = least
        if least == float("inf"):
            self.problems.append(f"{screen}: no text found to measure ({texts})")
        elif least < height / 40:
            self.problems.append(f"{screen}: text at {least}px < {height / 40}px")
        for chrome in TV_CHROME:
            if page.locator(chrome).count() and page.locator(chrome).first.is_visible():
                self.problems.append(f"{screen}: shows {chrome}")
        self.words(page, screen)

    def write(self) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"table-{self.name}.json").write_text(json.dumps(
            {"figures": self.figures, "problems": self.problems}, ensure_ascii=False, indent=1))


# --- fixtures and helpers ------------------------------------------------------------


def tv_page(browser: Browser, size: tuple[int, int], lang: str, errors: list[str]) -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  locale=LOCALES[lang], reduced_motion="reduce")
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def drawing_settings(game: str, lang: str) -> dict[str, Any]:
    """One round with the decks' longest words (custom decks made of them), so
    whatever is dealt, every word on screen is among the hardest to fit."""
    if game == "pictomania":
        return {"rounds": 1, "time_limit": 600, "language": lang,
                "custom_cards": long_cards(lang, 3), "custom_mode": "instead"}
    return {"rounds": 1, "countdown": 0, "drawing_time_limit": 600, "language": lang,
            **long_incognito(lang)}


def into_drawing(game: str, host: Page, phones: list[Page], bots: list[WsPlayer]) -> None:
    """From the lobby to everyone drawing."""
    if game == "pictomania":
        start_game(host, tid("pm-display"))
        for page in phones:
            page.wait_for_selector(tid("pm-display"))
            tap(page, tid("ready"))
        for bot in bots:
            bot.act({"type": "ready"})
        for page in phones:
            page.wait_for_selector(tid("secret-word"))
    else:
        start_game(host, tid("ig-drawing"))
        for page in phones:
            page.wait_for_selector(tid("ig-canvas"))


# --- the tests --------------------------------------------------------------------------


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_the_canvas_comes_first_for_every_role_and_count(
    browser: Browser, module_server: ServerProcess, lang: str, phone: ViewportSize
) -> None:
    """The host's and a guest's canvas in both drawing games with 3 to 6 players,
    then a host whose away strip and sheet grow as players drop out."""
    errors: list[str] = []
    tall = phone["height"]
    found = Findings(f"canvas-{lang}-{tall}")
    host, guest = new_phone(browser, lang, errors, phone), new_phone(browser, lang, errors, phone)
    names = NAMES[lang]
    try:
        for game in ("pictomania", "incognito"):
            for count in range(3, 7):
                code = make_room(module_server, game, drawing_settings(game, lang), lang, host)
                join_page(host, f"{module_server.http}/r/{code}", names[0], COLOURS[0])
                join_page(guest, f"{module_server.http}/r/{code}", names[1], COLOURS[1])
                bots = []
                for i in range(2, count):
                    bot = WsPlayer(module_server.ws, code)
                    bot.join(names[i], COLOURS[i])
                    bots.append(bot)
                into_drawing(game, host, [host, guest], bots)
                for role, page in (("host", host), ("guest", guest)):
                    screen = f"{game}-{count}-{role}"
                    found.canvas(page, screen)
                    found.layout(page, screen)
                    found.words(page, screen)
                if count == 6:
                    shot(host, f"table-{lang}-{tall}-{game}-6-host")
                    shot(guest, f"table-{lang}-{tall}-{game}-6-guest")
                    away_strip_grows(game, host, guest, bots, found)
                for bot in bots:
                    bot.close()
    finally:
        found.write()
        host.context.close()
        guest.context.close()
    print(json.dumps(found.figures))
    assert not found.problems, "\n".join(found.problems)
    assert not errors, errors


def away_strip_grows(game: str, host: Page, guest: Page, bots: list[WsPlayer],
                     found: Findings) -> None:
    """Four players drop out one after another; the host is done, then the guest:
    the game waits only for absent players and the host may go on. The canvas
    keeps its size, nothing overlaps, and the host's sheet holds every control."""
    for n, bot in enumerate(bots, 1):
        bot.close()
        host.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=away-player]').length === n", arg=n)
    for page in (host, guest):
        if game == "pictomania":
            tap(page, tid("done"))
            page.wait_for_selector(tid("finished"))
        else:
            press(page, tid("ig-done-drawing"))
            page.wait_for_selector(tid("ig-waiting"))
    host.wait_for_selector(tid("go-on"))
    found.canvas(host, f"{game}-away-host")
    found.layout(host, f"{game}-away-host")
    found.words(host, f"{game}-away-host")
    tap(host, tid("host-menu"))
    host.wait_for_selector(tid("host-sheet"))
    host.wait_for_selector(tid("sheet-go-on"))
    assert host.locator(f"{tid('host-sheet')} button[data-testid^=remove-]").count() == 5
    if game == "pictomania":
        assert host.locator(f"{tid('host-sheet')} {tid('host-stop')}").count() == 1
    sheet = host.locator(tid("host-sheet")).bounding_box()
    height = host.viewport_size["height"] if host.viewport_size else 0
    assert sheet and sheet["y"] >= 0 and sheet["y"] + sheet["height"] <= height, sheet
    found.words(host, f"{game}-host-sheet")
    shot(host, f"table-{game}-host-sheet")
    tap(host, tid("host-sheet-close"))
    host.wait_for_selector(tid("host-sheet"), state="detached")
    shot(host, f"table-{game}-away")


def tv_check(tvs: list[Page], found: Findings, screen: str, drawings: str, texts: str) -> None:
    for page in tvs:
        height = page.viewport_size["height"] if page.viewport_size else 0
        found.tv(page, f"tv{height}-{screen}", drawings, texts)
        shot(page, f"table-{found.name}-tv{height}-{screen}")


@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_six_phones_and_two_tvs_play_a_round_of_each_drawing_game(
    browser: Browser, module_server: ServerProcess, lang: str
) -> None:
    errors: list[str] = []
    found = Findings(f"round-{lang}")
    phones = [new_phone(browser, lang, errors) for _ in range(6)]
    tvs = [tv_page(browser, size, lang, errors) for size in TVS]
    try:
        pictomania_round(module_server, phones, tvs, lang, found)
        incognito_round(module_server, phones, tvs, lang, found)
    finally:
        found.write()
        for page in [*phones, *tvs]:
            page.context.close()
    print(json.dumps(found.figures))
    assert not found.problems, "\n".join(found.problems)
    assert not errors, errors


def seat_everyone(srv: ServerProcess, game: str, lang: str, phones: list[Page],
                  tvs: list[Page]) -> str:
    host = phones[0]
    code = make_room(srv, game, drawing_settings(game, lang), lang, host)
    for page in tvs:
        page.goto(f"{srv.http}/r/{code}/tv")
        page.wait_for_selector(tid("tv-lobby"))
    for page, name, colour in zip(phones, NAMES[lang], COLOURS, strict=True):
        join_page(page, f"{srv.http}/r/{code}", name, colour)
    return code


def pixels(page: Page) -> str:
    data: str = page.evaluate(
        "() => document.querySelector('[data-testid=my-canvas] canvas').toDataURL()")
    return data


def pictomania_round(srv: ServerProcess, phones: list[Page], tvs: list[Page], lang: str,
                     found: Findings) -> None:
    host, guest = phones[0], phones[1]
    seat_everyone(srv, "pictomania", lang, phones, tvs)
    start_game(host, tid("pm-display"))
    for page in phones:
        page.wait_for_selector(tid("pm-display"))
    found.words(host, "pm-display")
    for page in tvs:
        page.wait_for_selector(tid("pm-display"))
    tv_check(tvs, found, "pm-display", "[data-testid=word-card]", ".word .text, .ready-item")
    for page in phones:
        tap(page, tid("ready"))
    for page in phones:
        page.wait_for_selector(tid("secret-word"))
    for page in tvs:
        page.wait_for_selector(f"{tid('drawings')} .tile >> nth=5")
    found.canvas(host, "pm-host")
    found.canvas(guest, "pm-guest")
    for i, page in enumerate(phones[:3]):
        scribble(page, "[data-testid=my-canvas] .ink-surface")
        found.layout(page, f"pm-drawing-{i}")
        found.words(page, f"pm-drawing-{i}")
    shot(host, f"table-{lang}-pm-drawing-host")
    tv_check(tvs, found, "pm-drawing", "[data-testid^=tile-]", ".pm-cards .word .text, .tile-name")

    # The guess pane and back: the canvas is exactly as it was.
    before = pixels(host)
    tap(host, tid("pane-toggle"))
    host.wait_for_selector(f"{tid('pm-drawing')}[data-pane=guess]")
    found.words(host, "pm-guess-pane")
    found.layout(host, "pm-guess-pane")
    shot(host, f"table-{lang}-pm-guess-pane")
    tap(host, tid("pane-toggle"))
    host.wait_for_selector(f"{tid('pm-drawing')}[data-pane=draw]")
    host.wait_for_function(
        "(d) => document.querySelector('[data-testid=my-canvas] canvas').toDataURL() === d",
        arg=before)

    # The host guesses on the guest's drawing from the strip: the guest's own
    # screen shows the card it received.
    guest_seat = int(host.locator(f".tile[data-name='{NAMES[lang][1]}']").get_attribute(
        "data-seat") or -1)
    tap(host, tid(f"tile-{guest_seat}"))
    host.wait_for_selector(tid("focus"))
    found.words(host, "pm-focus")
    enlarged = host.locator(tid("focus-canvas")).bounding_box()
    found.figures["pm-focus-drawing"] = enlarged and round(enlarged["width"])
    if not enlarged or enlarged["width"] < 200:  # larger than the strip's tile, by far
        found.problems.append(f"pm-focus: the enlarged drawing is {enlarged}")
    words = host.locator(f"{tid('focus')} button.word")
    for i in range(words.count()):  # every word of every card in view at once
        box = words.nth(i).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 740, (i, box)
    shot(host, f"table-{lang}-pm-focus")
    tap(host, f"{tid('focus')} button.word:not([disabled])")
    guest.wait_for_selector(f"{tid('own-stack')}[data-count='1'] .card-back")
    for page in tvs:  # the TV shows the card on the guest's stack too
        page.wait_for_selector(f"{tid(f'tile-{guest_seat}')} .card-back")

    for page in phones:
        tap(page, tid("done"))
    for page in tvs:
        page.wait_for_selector(tid("pm-review"))
        wait_in_view(page, ".stack-card.current")
    tv_check(tvs, found, "pm-reveal-turning", ".stack-card.current",
             ".stack-card.current .name-tag, .stack-card.current .guess, .face-down")
    for page in tvs:
        wait_in_view(page, f"{tid('summary')}:not([hidden])", timeout=120_000)
    tv_check(tvs, found, "pm-scores", f"{tid('summary')} h2", f"{tid('summary')} td")
    for page in phones:
        if page.locator(tid("reveal-skip")).is_visible():
            tap(page, tid("reveal-skip"))
        page.wait_for_selector(tid("summary"))
    found.words(host, "pm-reveal")
    for page in phones:
        tap(page, tid("confirm"))
    for page in tvs:
        page.wait_for_selector(tid("pm-over"))
        wait_in_view(page, tid("winners"))
    tv_check(tvs, found, "pm-over", tid("winners"), f"{tid('winners')} li")
    host.wait_for_selector(tid("pm-over"))
    found.words(host, "pm-over")


def incognito_round(srv: ServerProcess, phones: list[Page], tvs: list[Page], lang: str,
                    found: Findings) -> None:
    host, guest = phones[0], phones[1]
    seat_everyone(srv, "incognito", lang, phones, tvs)
    start_game(host, tid("ig-drawing"))
    for page in phones:
        page.wait_for_selector(tid("ig-canvas"))
    found.canvas(host, "ig-host")
    found.canvas(guest, "ig-guest")
    for i, page in enumerate(phones):
        scribble(page, "[data-testid=ig-canvas] .ink-surface")
        if i < 2:
            found.layout(page, f"ig-drawing-{i}")
            found.words(page, f"ig-drawing-{i}")
    shot(host, f"table-{lang}-ig-drawing-host")
    tv_check(tvs, found, "ig-drawing", "[data-testid=ig-player]", ".ig-player-name")
    for page in phones:
        press(page, tid("ig-done-drawing"))
    for page in tvs:
        page.wait_for_selector(tid("ig-voting"))
    tv_check(tvs, found, "ig-voting", "[data-testid^=ig-drawing-]",
             ".ig-drawing-name, .ig-tile-word")
    for page in phones:
        page.wait_for_selector(tid("ig-voting"))
    found.words(host, "ig-voting")  # a page that scrolls, under a sticky tile panel
    for page in phones:
        press(page, tid("ig-done-voting"))
    for page in tvs:
        page.wait_for_selector(tid("ig-over"))
        wait_in_view(page, ".ig-reveal-card.current")
    tv_check(tvs, found, "ig-reveal-turning", ".ig-reveal-card.current",
             ".ig-reveal-card.current .name-tag, .ig-reveal-card.current .ig-reveal-location, "
             ".ig-reveal-card .ig-vote, .ig-reveal-card .face-down, .ig-bonus")
    for page in tvs:
        wait_in_view(page, tid("ig-winners"), timeout=120_000)
    tv_check(tvs, found, "ig-over", tid("ig-winners"), f"{tid('ig-winners')} li")
    host.wait_for_selector(tid("ig-over"))
    found.words(host, "ig-over")


# Every tile of the others' drawings: its drawing's width, and whether the tile
# lies wholly inside the viewport.
TILES_JS = """() => [...document.querySelectorAll('[data-testid=drawings] .tile')].map((t) => {
  const r = t.getBoundingClientRect();
  const frame = t.querySelector('.canvas-frame').getBoundingClientRect();
  return [Math.round(frame.width), r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1
          && r.bottom <= innerHeight + 1];
})"""
SCROLLS_JS = "() => document.scrollingElement.scrollHeight > innerHeight + 1"
MIN_SPECTATOR_TILE = 110  # css px: the old grid's three columns at 360 px, the least a phone gets


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_a_spectators_phone_shows_every_drawing_first(
    browser: Browser, module_server: ServerProcess, lang: str, phone: ViewportSize
) -> None:
    """Six draw, one more watches on a phone: all six drawings in view at once,
    nothing scrolls, and the cards are one tap away (and back)."""
    errors: list[str] = []
    tall = phone["height"]
    found = Findings(f"spectator-{lang}-{tall}")
    host, watcher = new_phone(browser, lang, errors, phone), new_phone(browser, lang, errors, phone)
    names = NAMES[lang]
    bots: list[WsPlayer] = []
    try:
        code = make_room(module_server, "pictomania", drawing_settings("pictomania", lang), lang,
                         host)
        join_page(host, f"{module_server.http}/r/{code}", names[0], COLOURS[0])
        for i in range(1, 6):
            bot = WsPlayer(module_server.ws, code)
            bot.join(names[i], COLOURS[i])
            bots.append(bot)
        watcher.goto(f"{module_server.http}/r/{code}")
        watcher.wait_for_selector(tid("lobby-join"))
        into_drawing("pictomania", host, [host], bots)
        watcher.wait_for_selector(f"{tid('drawings')} .tile >> nth=5")
        tiles = watcher.evaluate(TILES_JS)
        found.figures["spectator-tiles"] = [w for w, _ in tiles]
        assert len(tiles) == 6
        for width, inside in tiles:
            if not inside or width < MIN_SPECTATOR_TILE:
                found.problems.append(f"spectator: a drawing {width} px wide, in view: {inside}")
        if watcher.evaluate(SCROLLS_JS):
            found.problems.append("spectator: the page scrolls")
        assert watcher.locator(tid("cards-panel")).is_hidden()
        found.layout(watcher, "spectator-drawings")
        found.words(watcher, "spectator-drawings")
        shot(watcher, f"table-{lang}-{tall}-spectator-drawings")

        tap(watcher, tid("pane-toggle"))
        watcher.wait_for_selector(f"{tid('cards-panel')} .word-card")
        cards = watcher.locator(tid("cards-panel")).bounding_box()
        assert cards and cards["y"] < tall / 2, cards  # the cards take the screen
        for width, inside in watcher.evaluate(TILES_JS):
            if not inside:  # the drawings stay in view as a strip
                found.problems.append(f"spectator cards: a drawing {width} px out of view")
        if watcher.evaluate(SCROLLS_JS):
            found.problems.append("spectator cards: the page scrolls")
        found.layout(watcher, "spectator-cards")
        found.words(watcher, "spectator-cards")
        shot(watcher, f"table-{lang}-{tall}-spectator-cards")
        tap(watcher, tid("pane-toggle"))
        watcher.wait_for_selector(tid("cards-panel"), state="hidden")
    finally:
        found.write()
        for bot in bots:
            bot.close()
        host.context.close()
        watcher.context.close()
    print(json.dumps(found.figures))
    assert not found.problems, "\n".join(found.problems)
    assert not errors, errors


@pytest.mark.parametrize("phone", PHONES, ids=lambda p: f"{p['width']}x{p['height']}")
@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_the_first_editions_enlarged_drawing_stays_large(
    browser: Browser, module_server: ServerProcess, lang: str, phone: ViewportSize
) -> None:
    """The first edition deals six cards, all beside the enlarged drawing a
    guess is made on (the decks' longest words): the drawing keeps at least
    240 px, and every word stays in view."""
    errors: list[str] = []
    tall = phone["height"]
    host = new_phone(browser, lang, errors, phone)
    names = NAMES[lang]
    bots: list[WsPlayer] = []
    try:
        settings = {**drawing_settings("pictomania", lang), "edition": "first",
                    "custom_cards": long_cards(lang, 6)}
        code = make_room(module_server, "pictomania", settings, lang, host)
        join_page(host, f"{module_server.http}/r/{code}", names[0], COLOURS[0])
        for i in (1, 2):
            bot = WsPlayer(module_server.ws, code)
            bot.join(names[i], COLOURS[i])
            bots.append(bot)
        into_drawing("pictomania", host, [host], bots)
        tap(host, f"{tid('drawings')} .tile")
        host.wait_for_selector(tid("focus"))
        enlarged = host.locator(tid("focus-canvas")).bounding_box()
        assert enlarged, "no enlarged drawing"
        print(json.dumps({f"pm1-focus-{lang}-{tall}": round(enlarged["width"])}))
        shot(host, f"table-{lang}-{tall}-pm1-focus")
        assert enlarged["width"] >= MIN_ENLARGED, enlarged
        assert enlarged["y"] >= 0 and enlarged["y"] + enlarged["height"] <= tall, enlarged
        assert host.locator(f"{tid('focus')} .word-card").count() == 6
        assert broken_words(host) == []
        # every word is reached by scrolling the cards alone: the drawing stays
        words = host.locator(f"{tid('focus')} button.word")
        assert words.count() == 42
        for i in range(words.count()):
            words.nth(i).scroll_into_view_if_needed()
            box = words.nth(i).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= tall, (i, box)
            assert host.locator(tid("focus-canvas")).bounding_box() == enlarged, i
    finally:
        for bot in bots:
            bot.close()
        host.context.close()
    assert not errors, errors
