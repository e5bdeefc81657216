"""Every screen on a 360x740 touch phone in English, German and Ukrainian.

One progression per language through Pictomania (both editions), Incognito and
Piet, checking each screen as it is reached: no horizontal page overflow, no
block that scrolls sideways, no text a player needs cut off, the timer
readable, and axe-core (WCAG 2.2 AA rules) reports no serious or critical
violation. Names are 20 characters and the words the longest of the shipped
decks (custom decks made of them), so nothing depends on which words are dealt.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from atelier.i18n import translate
from support.actions import apply_json
from support.browser import (
    ARTIFACTS,
    CHROMIUM,
    axe_serious,
    join_page,
    shot,
    tid,
    words_problems,
)
from support.server import ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

PHONE: ViewportSize = {"width": 360, "height": 740}
TIMEOUT_MS = 20_000
LOCALES = {"en": "en-GB", "de": "de-DE", "uk": "uk-UA"}
# 20 characters each (the longest name a player may choose), no spaces to break at.
NAMES = {
    "en": ["Bartholomew-Fitzgera", "Maximiliana-Winterbo", "Christopher-Anderson"],
    "de": ["Hildegard-Schwarzkop", "Friedrich-Wilhelmsen", "Gottfried-Lichtenber"],
    "uk": ["Олександра-Костянтин", "Володимир-Святославо", "Ярославна-Мирославів"],
}
COLOURS = ["red", "blue", "green"]


# --- deterministic long content -------------------------------------------------------


def _longest(texts: list[str], n: int, lang: str | None = None) -> list[str]:
    """The ``n`` longest, half by whole length and half by their longest word;
    with ``lang``, none that one drawing could not tell apart (the server
    refuses such a custom deck)."""
    from atelier.content.check import confusable_words

    by_phrase = sorted(set(texts), key=lambda w: (-len(w), w))
    by_word = sorted(set(texts), key=lambda w: (-max(len(x) for x in w.split()), w))
    out: list[str] = []
    for a, b in zip(by_word, by_phrase, strict=False):
        for w in (a, b):
            if len(out) == n or w in out:
                continue
            cards = [(f"C{i}", [*out, w][i:i + 7]) for i in range(0, len(out) + 1, 7)]
            if lang and confusable_words(cards, lang):
                continue
            out.append(w)
    assert len(out) == n
    return out


def long_cards(lang: str, count: int) -> list[dict[str, Any]]:
    from atelier.games.pictomania.decks import pictomania_cards

    words = [w for cards in pictomania_cards(lang).values() for c in cards for w in c.words]
    chosen = _longest(words, 7 * count, lang)
    return [{"id": f"LONG-{i}", "level": 1, "words": chosen[7 * i:7 * i + 7]}
            for i in range(count)]


def long_incognito(lang: str) -> dict[str, Any]:
    from atelier.games.incognito.decks import incognito_content

    words, locations = incognito_content(lang)
    return {"custom_words": _longest([w.text for w in words], 12),
            "custom_locations": _longest([x.text for x in locations], 6)}


def near_end_piet_record() -> str:
    """A game between two computer players, stopped three moves before its end."""
    from atelier.games.registry import get_game

    game: Any = get_game("piet")
    settings = game.validate_settings({}, 2)
    states = [game.new(settings, ["a", "b"], 7)]
    while not game.is_over(states[-1]):
        view = game.view(states[-1], None)
        actor = int(view["to_move"])
        action = game.choose_move(states[-1], "easy", len(states))
        states.append(apply_json(game, states[-1], actor, action, 0.0))
    record: str = game.view(states[-4], None)["record"]
    return record


# --- the checks -----------------------------------------------------------------------

LAYOUT_JS = r"""() => {
  const vw = window.innerWidth;
  const doc = document.documentElement;
  const out = [];
  const name = (el) => (el.dataset.testid ? `[${el.dataset.testid}]` : "")
      + el.tagName.toLowerCase() + (el.className && typeof el.className === "string"
      ? "." + el.className.trim().split(/\s+/).join(".") : "")
      + ` "${(el.textContent || "").trim().slice(0, 30)}"`;
  if (doc.scrollWidth > vw) out.push(`page is ${doc.scrollWidth}px wide`);
  for (const el of document.body.querySelectorAll("*")) {
    const skip = "[hidden], .toast, .sr-only, canvas, svg, option, select, dialog:not([open])";
    if (el.closest(skip)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.width <= 1 && r.height <= 1) continue;  // visually hidden (for screen readers)
    const sideways = el.scrollWidth > el.clientWidth + 1;
    if (sideways && (cs.overflowX === "auto" || cs.overflowX === "scroll")) {
      out.push(`scrolls sideways: ${name(el)} ${el.scrollWidth}>${el.clientWidth}`);
    }
    // Text shortened with an ellipsis is judged by WORDS_JS (fine where its
    // full text is at hand); any other clipping cuts text off.
    const clips = (cs.overflowX === "hidden" || cs.overflowX === "clip")
        && cs.textOverflow !== "ellipsis";
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
        || el.querySelector("span, strong, b, small");
    if (sideways && clips && text && !el.classList.contains("ink-box")) {
      out.push(`cut: ${name(el)} ${el.scrollWidth}>${el.clientWidth}`);
    }
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    // what shows of it: its box, cut to the boxes of the ancestors that clip
    let left = r.left, right = r.right;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const ac = getComputedStyle(a);
      if (ac.overflowX === "visible") continue;
      const b = a.getBoundingClientRect();
      left = Math.max(left, b.left);
      right = Math.min(right, b.right);
    }
    if ((own || el.matches("button, input, a, select")) && right > left
        && (right > vw + 1 || left < -1)) {
      out.push(`off screen: ${name(el)} ${Math.round(left)}..${Math.round(right)}`);
    }
  }
  const timer = document.querySelector(
      "[data-testid=timer]:not([hidden]), [data-testid=ig-timer]:not([hidden])");
  if (timer) {
    const r = timer.getBoundingClientRect();
    const reads = timer.textContent.trim();
    if (!/^\d+:\d\d$/.test(reads)) out.push(`timer reads "${reads}"`);
    if (timer.scrollWidth > timer.clientWidth + 1 || r.width < 20) out.push("timer is cut");
    for (let a = timer.parentElement; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1) out.push(`timer clipped by ${name(a)}`);
    }
    if (r.right > vw || r.left < 0) out.push("timer off screen");
  }
  // Zoom is never disabled: what does not fit can still be reached.
  const viewport = document.querySelector("meta[name=viewport]")?.content || "";
  if (/user-scalable\s*=\s*(no|0)|maximum-scale/.test(viewport)) out.push(`no zoom: ${viewport}`);
  // Every drawing has a name (the canvas itself says nothing to a screen reader).
  for (const c of document.querySelectorAll("canvas")) {
    if (!c.width || c.closest("[hidden]") || !c.getBoundingClientRect().width) continue;
    if (!c.closest("[role=img][aria-label]")) out.push(`unnamed canvas: ${name(c.parentElement)}`);
  }
  // Words on the cards carry the deck's language (screen readers read them in it).
  const deckWords = ".word .text, .stack-word-text, [data-testid=gallery-word], "
      + "[data-testid=ig-secret-word], [data-testid=ig-location-text], .ig-tile-word";
  for (const el of document.querySelectorAll(deckWords)) {
    const langEl = el.closest("[lang]");
    if (!langEl || langEl.getAttribute("lang") !== document.body.dataset.deckLang) {
      out.push(`deck word without its lang: ${name(el)}`);
    }
  }
  return out;
}"""


class Checker:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.problems: dict[str, list[str]] = {}
        self.screens: list[str] = []
        self.axe_counts: dict[str, int] = {}

    def check(self, page: Page, screen: str, deck_lang: str | None = None) -> None:
        page.evaluate("(l) => { document.body.dataset.deckLang = l; }", deck_lang or self.lang)
        page.wait_for_timeout(0)
        issues: list[str] = page.evaluate(LAYOUT_JS)
        issues += words_problems(page)
        bad = axe_serious(page)
        for v in bad:
            targets = ", ".join(str(n["target"][0]) for n in v["nodes"][:4])
            issues.append(f"axe {v['id']} ({v['impact']}): {len(v['nodes'])} x {targets}")
        self.axe_counts[screen] = sum(len(v["nodes"]) for v in bad)
        self.screens.append(screen)
        if issues:
            self.problems[screen] = issues
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"phone-{self.lang}-{screen}.png"))

    def at_top(self, page: Page, screen: str, winners: str) -> None:
        """The game-over screen opens at its top, or at what matters (the
        winners), not where the last screen was scrolled to."""
        try:
            page.wait_for_function(
                """(s) => { const r = document.querySelector(s)?.getBoundingClientRect();
                   return r && r.top >= -1 && r.top < window.innerHeight - 60; }""",
                arg=winners, timeout=5000)
        except PlaywrightTimeout:
            y = page.evaluate("() => window.scrollY")
            self.problems.setdefault(f"{screen}-scroll", []).append(
                f"opens scrolled to {y}px, the winners out of sight")

    def report(self) -> str:
        lines = [f"{self.lang}: {len(self.screens)} screens: {', '.join(self.screens)}"]
        for screen, issues in self.problems.items():
            lines.append(f"  {screen}:")
            lines.extend(f"    {i}" for i in issues)
        return "\n".join(lines)


# --- fixtures and helpers -------------------------------------------------------------


def new_phone(browser: Browser, lang: str, errors: list[str],
              size: ViewportSize = PHONE) -> Page:
    # Reduced motion: each screen is checked as it stands, not halfway through a flip.
    context = browser.new_context(viewport=size, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale=LOCALES[lang], reduced_motion="reduce")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def make_room(srv: ServerProcess, game: str, settings: dict[str, Any], lang: str,
              host: Page) -> str:
    """A room made through the API; the host's browser keeps the host key, as the
    start page does."""
    r = httpx.post(srv.http + "/api/rooms",
                   json={"game": game, "settings": settings, "language": lang})
    assert r.status_code == 201, r.text
    body = r.json()
    host.goto(srv.http + "/")
    host.evaluate("([c, k]) => localStorage.setItem(`atelier.hostkey.${c}`, k)",
                  [body["code"], body["host_key"]])
    return str(body["code"])


def scribble(page: Page, selector: str) -> None:
    """A zigzag with a finger (real touch events through the DevTools protocol)."""
    box = page.locator(selector).bounding_box()
    assert box
    points = [(box["x"] + box["width"] * (0.2 + 0.06 * i),
               box["y"] + box["height"] * (0.3 + 0.3 * (i % 2))) for i in range(11)]
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent",
             {"type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]})
    for x, y in points[1:]:
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def tap(page: Page, selector: str) -> None:
    page.locator(selector).first.tap()


def start_game(host: Page, shown: str) -> None:
    """Tap start until the game's first screen shows. A lobby that re-renders
    (someone's presence changed) may swap the button between Playwright's checks
    and the tap; a tap on the old button is lost, so tap the new one."""
    for _ in range(3):
        tap(host, tid("start-game"))
        try:
            host.wait_for_selector(shown, timeout=20_000)
            return
        except PlaywrightTimeout:
            if not host.is_visible(tid("start-game")):
                raise
    host.wait_for_selector(shown)


def press(page: Page, selector: str) -> None:
    """A click on an Incognito button if it is still there: with no countdown,
    the phase ends as soon as all players but one are done, taking the last
    player's button away (a tap would wait for it in vain)."""
    page.evaluate("(s) => document.querySelector(s)?.click()", selector)


# --- the progressions -------------------------------------------------------------------


def pictomania(srv: ServerProcess, pages: list[Page], watcher: Page, lang: str,
               edition: str, check: Checker) -> None:
    host, b, c = pages
    names = NAMES[lang]
    cards = 3 if edition == "second" else 6
    settings = {"edition": edition, "rounds": 1, "time_limit": 600, "language": lang,
                "custom_cards": long_cards(lang, cards), "custom_mode": "instead"}
    code = make_room(srv, "pictomania", settings, lang, host)
    tag = f"pm{1 if edition == 'first' else 2}"
    first = edition == "second"  # the first progression checks the shared screens
    for i, page in enumerate(pages):
        page.goto(f"{srv.http}/r/{code}")
        page.wait_for_selector(tid("lobby-join"))
        if first and i == 1:
            check.check(page, "join")
    # A friend sits down before the creator: the creator is host all the same.
    join_page(b, f"{srv.http}/r/{code}", names[1], COLOURS[1])
    join_page(c, f"{srv.http}/r/{code}", names[2], COLOURS[2])
    join_page(host, f"{srv.http}/r/{code}", names[0], COLOURS[0])
    host.wait_for_selector(tid("start-game"))
    if first:
        check.check(host, "lobby-host")
        b.wait_for_selector(tid("wait-host"))
        check.check(b, "lobby-guest")
        watcher.goto(f"{srv.http}/r/{code}")
        watcher.wait_for_selector(tid("lobby-join"))
        check.check(watcher, "lobby-spectator")
    else:
        watcher.goto(f"{srv.http}/r/{code}")
    start_game(host, tid("pm-display"))

    for page in pages:
        page.wait_for_selector(tid("pm-display"))
    check.check(host, f"{tag}-display")
    for page in pages:
        tap(page, tid("ready"))
    for page in pages:
        page.wait_for_selector(tid("pm-drawing"))
        page.wait_for_selector(tid("secret-word"))
    # The button tapped is gone with the old screen: the focus moved to the new one.
    assert host.evaluate("() => document.activeElement?.tagName") == "MAIN"
    host.wait_for_selector(f"{tid('timer')}:not([hidden])")
    # Two draw (a 1st-edition token needs a drawing); the third leaves a blank one.
    for page in (host, b):
        scribble(page, "[data-testid=my-canvas] .ink-surface")
        page.wait_for_selector("[data-testid^=black-]")
    check.check(host, f"{tag}-drawing")
    watcher.wait_for_selector(tid("pm-drawing"))
    check.check(watcher, f"{tag}-drawing-spectator")

    # The guess: the enlarged drawing and the cards.
    tap(host, f"{tid('drawings')} .tile")
    host.wait_for_selector(tid("focus"))
    if edition == "second":
        host.wait_for_selector(tid("freeze-notice"))
    check.check(host, f"{tag}-guess")
    tap(host, f"{tid('focus')} button.word:not([disabled])")
    host.wait_for_selector(tid("my-guess"))
    if edition == "second":
        host.wait_for_selector(tid("canvas-locked"))
        tap(host, f"{tid('drawings')} .tile")
        host.wait_for_selector(tid("focus"))
        assert host.locator(tid("freeze-notice")).count() == 0  # said once is enough
        tap(host, tid("focus-close"))

    # Black tokens until the round ends; the host waits for the others first.
    tap(host, "[data-testid^=black-]")
    host.wait_for_selector(tid("finished"))
    check.check(host, f"{tag}-waiting")
    tap(b, "[data-testid^=black-]")
    if edition == "second":
        tap(c, tid("done"))

    for page in pages:
        page.wait_for_selector(tid("pm-review"))
    host.wait_for_selector(tid("stack-word"))
    if first:
        check.check(host, f"{tag}-reveal-turning")
    for page in pages:
        # the reveal may end by itself between a look at the button and a tap on it
        press(page, f"{tid('reveal-skip')}:not([hidden])")
        page.wait_for_selector(tid("summary"))
    check.check(host, f"{tag}-reveal")
    tap(b, "[data-testid^=void-]")  # a void vote (or admission) on the first drawing
    b.wait_for_selector("[data-testid^=void-][aria-pressed=true]")
    check.check(b, f"{tag}-void-vote")
    if first:
        watcher.wait_for_selector(tid("summary"))
        check.check(watcher, f"{tag}-reveal-spectator")
    for page in pages:
        tap(page, tid("confirm"))

    for page in pages:
        page.wait_for_selector(tid("pm-over"))
    host.wait_for_selector(tid("gallery-item"))
    check.at_top(host, f"{tag}-over", tid("winners"))
    check.check(host, f"{tag}-over")
    host.locator(tid("gallery")).scroll_into_view_if_needed()
    host.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=gallery-item] img')]"
        ".every((i) => i.complete && i.naturalWidth > 0)")
    check.check(host, f"{tag}-gallery")
    if first:
        watcher.wait_for_selector(tid("pm-over"))
        check.check(watcher, f"{tag}-over-spectator")


def incognito(srv: ServerProcess, pages: list[Page], watcher: Page, lang: str,
              check: Checker) -> None:
    host, b, c = pages
    names = NAMES[lang]
    settings = {"rounds": 2, "countdown": 0, "drawing_time_limit": 600, "language": lang,
                **long_incognito(lang)}
    code = make_room(srv, "incognito", settings, lang, host)
    for page, name, colour in zip(pages, names, COLOURS, strict=True):
        join_page(page, f"{srv.http}/r/{code}", name, colour)
    watcher.goto(f"{srv.http}/r/{code}")
    start_game(host, tid("ig-drawing"))  # the watcher's arrival may redraw the lobby
    for rnd in (1, 2):
        for page in pages:
            page.wait_for_selector(tid("ig-drawing"))
        if rnd == 1:
            check.check(host, "ig-drawing")
            watcher.wait_for_selector(tid("ig-drawing"))
            check.check(watcher, "ig-drawing-spectator")
        for page in pages:  # empty drawings: they are drawings all the same
            press(page, tid("ig-done-drawing"))
        for page in pages:
            page.wait_for_selector(tid("ig-voting"))
        if rnd == 1:
            check.check(host, "ig-voting")
        for page in pages:
            press(page, tid("ig-done-voting"))
        phase = "ig-scored" if rnd == 1 else "ig-over"
        for page in pages:
            page.wait_for_selector(tid(phase))
            page.evaluate(
                "() => document.querySelector('[data-testid=ig-reveal-skip]:not([hidden])')"
                "?.click()")
            page.wait_for_selector(tid("ig-score-table"))
        if rnd == 1:
            check.check(host, "ig-reveal")
            press(b, tid("ig-confirm"))
            press(c, tid("ig-confirm"))
            press(host, tid("ig-host-next"))
    host.wait_for_selector(tid("ig-final"))
    check.at_top(host, "ig-final", tid("ig-winners"))
    check.check(host, "ig-final")
    host.wait_for_selector(tid("ig-gallery"))
    host.locator(tid("ig-gallery")).scroll_into_view_if_needed()
    check.check(host, "ig-gallery")
    watcher.wait_for_selector(tid("ig-final"))
    check.check(watcher, "ig-final-spectator")


def piet(srv: ServerProcess, host: Page, watcher: Page, lang: str, check: Checker) -> None:
    settings = {"opponent": "easy", "record": near_end_piet_record()}
    code = make_room(srv, "piet", settings, lang, host)
    join_page(host, f"{srv.http}/r/{code}", NAMES[lang][0], COLOURS[0])
    host.wait_for_selector(tid("start-game"))
    check.check(host, "piet-lobby")
    watcher.goto(f"{srv.http}/r/{code}")
    start_game(host, tid("piet"))
    if lang != "en":  # the computer's name in the reader's language
        assert "(easy)" not in host.inner_text(tid("piet"))
    check.check(host, "piet-play")
    watcher.wait_for_selector(tid("piet"))
    check.check(watcher, "piet-spectator")
    for _ in range(10):
        # one reading of the screen: read one by one, the computer could move in
        # between (its phase and our turn would not belong together)
        seen = host.evaluate(
            """() => { const m = document.querySelector('[data-testid=piet]').dataset;
               return [m.phase, Number(m.moves || 0), m.actor]; }""")
        phase, moves, actor = str(seen[0]), int(seen[1]), seen[2]
        if phase == "over":
            break
        if actor == "0":
            if phase == "painting":
                tap(host, f"{tid('piet-palette')} .piet-cell:not([disabled])")
                tap(host, f"{tid('piet-canvas-0')} .piet-cell.target")
                tap(host, tid("piet-place"))
            else:
                tap(host, f"{tid('piet-actions')} .piet-colour:not([disabled])")
                tap(host, f"{tid('piet-palette')} .piet-cell.fillable")
        host.wait_for_function(
            """(before) => { const m = document.querySelector('[data-testid=piet]');
               return m && (m.dataset.phase === 'over' || Number(m.dataset.moves) > before); }""",
            arg=moves)
    host.wait_for_selector(f"{tid('piet')}[data-phase=over]")
    check.check(host, "piet-over")

    # An empty palette first (master rule 1), the human placing first: its free
    # cells are buttons that show their names, which must be readable.
    code = make_room(srv, "piet", {"opponent": "easy", "setup": "empty"}, lang, host)
    join_page(host, f"{srv.http}/r/{code}", NAMES[lang][0], COLOURS[0])
    start_game(host, f"{tid('piet')}[data-phase=filling]")
    host.wait_for_selector(f"{tid('piet-palette')} .piet-cell.fillable:not([disabled])")
    check.check(host, "piet-filling")


@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_every_screen_fits_a_phone(browser: Browser, module_server: ServerProcess,
                                   lang: str) -> None:
    errors: list[str] = []
    check = Checker(lang)
    pages = [new_phone(browser, lang, errors) for _ in range(3)]
    watcher = new_phone(browser, lang, errors)
    try:
        pages[0].goto(module_server.http + "/")
        pages[0].wait_for_selector(tid("start-page"))
        check.check(pages[0], "start")
        pictomania(module_server, pages, watcher, lang, "second", check)
        pictomania(module_server, pages, watcher, lang, "first", check)
        incognito(module_server, pages, watcher, lang, check)
        piet(module_server, pages[0], watcher, lang, check)
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"phone-{lang}.json").write_text(json.dumps(
            {"screens": check.screens, "axe": check.axe_counts, "problems": check.problems},
            ensure_ascii=False, indent=1))
        for page in [*pages, watcher]:
            page.context.close()
    print(check.report())
    assert not check.problems, check.report()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_start_page_shows_joining_first(browser: Browser, module_server: ServerProcess,
                                        lang: str) -> None:
    """Most people at a table join a room someone else made: on a phone the code
    field and its button are in view without scrolling, and the empty field
    does not show a sample code that reads as one already filled in."""
    errors: list[str] = []
    page = new_phone(browser, lang, errors)
    try:
        page.goto(module_server.http + "/")
        page.wait_for_selector(tid("start-page"))
        for what in ("join-code", "join-room"):
            box = page.locator(tid(what)).bounding_box()
            assert box and 0 <= box["y"] <= PHONE["height"] - box["height"], (what, box)
        field = page.locator(tid("join-code"))
        assert field.input_value() == ""
        hint = field.get_attribute("placeholder") or ""
        assert not re.fullmatch(r"[A-Z0-9]{4,8}", hint.replace(" ", "")), hint
        assert hint.strip() and hint != hint.upper(), hint  # words, not capitals like a code
        # its name comes from a visible label
        assert page.evaluate(
            "() => document.querySelector('[data-testid=join-code]').labels[0]?.textContent"
        ).strip()
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "de", "uk"])
def test_learn_piet_is_found_without_scrolling(browser: Browser, module_server: ServerProcess,
                                               lang: str) -> None:
    """The guided first game's card is the start page's last; a link at the top
    of a phone's screen names it and brings it into view, its button focused."""
    errors: list[str] = []
    page = new_phone(browser, lang, errors)
    try:
        page.goto(module_server.http + "/")
        page.wait_for_selector(tid("start-page"))
        link = page.locator(tid("jump-start-card-piet"))
        box = link.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
        assert box["height"] >= 24  # a target a finger hits
        title = translate("learn.tutorial.title", lang)
        assert link.inner_text().startswith(title)
        shot(page, f"phone-{lang}-start-top")
        card = page.locator(tid("piet-tutorial-offer"))
        card_box = card.bounding_box()
        assert card_box and card_box["y"] > PHONE["height"], "the card is far below"
        tap(page, tid("jump-start-card-piet"))
        page.wait_for_function(
            "() => { const r = document.querySelector('[data-testid=piet-tutorial-start]')"
            ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
        assert page.evaluate("() => document.activeElement.dataset.testid") == "piet-tutorial-start"
        assert page.evaluate("() => location.pathname") == "/"
        # joining still comes first: the code field stays above the fold
        page.evaluate("() => scrollTo(0, 0)")
        code = page.locator(tid("join-room")).bounding_box()
        assert code and code["y"] + code["height"] <= PHONE["height"], code
    finally:
        page.context.close()
    assert not errors, errors


def test_start_page_keys_time_limit_and_host(browser: Browser,
                                             module_server: ServerProcess) -> None:
    """Arrow keys in the game choice, the time limit typed on the start page is
    the room's, and the creator (who sits down last) is the host, from the
    start: a friend who sits down first never gets the Start button."""
    errors: list[str] = []
    creator = new_phone(browser, "de", errors)
    friend = new_phone(browser, "de", errors)
    try:
        creator.goto(module_server.http + "/")
        creator.wait_for_selector(tid("start-page"))
        creator.focus(tid("game-pictomania"))
        creator.keyboard.press("ArrowRight")
        assert creator.get_attribute(tid("game-incognito"), "aria-checked") == "true"
        assert creator.evaluate("() => document.activeElement.dataset.testid") == "game-incognito"
        creator.keyboard.press("ArrowLeft")
        assert creator.get_attribute(tid("game-pictomania"), "aria-checked") == "true"
        assert creator.get_attribute(tid("game-pictomania"), "tabindex") == "0"
        assert creator.get_attribute(tid("game-incognito"), "tabindex") == "-1"

        creator.check(tid("setting-time_limit"))
        creator.fill(tid("setting-time_limit-value"), "240")  # typed, never blurred
        creator.click(tid("create-room"))
        creator.wait_for_selector(tid("lobby-join"))
        code = creator.url.rstrip("/").rsplit("/", 1)[1]
        summary = httpx.get(f"{module_server.http}/api/rooms/{code}").json()
        assert summary["settings"]["time_limit"] == 240
        # The new screen is announced in the live region.
        creator.wait_for_function(
            "() => document.querySelector('[data-testid=announcer]')?.textContent.length > 0")
        # Before sitting, the creator is told to sit down to be host, not to wait for one.
        assert creator.locator(tid("host-decides")).inner_text() != ""

        join_page(friend, f"{module_server.http}/r/{code}", "Freundin", "blue")
        # The creator is in the room, not seated yet: the friend who sat down
        # first is no host, and gets no Start button.
        friend.wait_for_selector(tid("wait-host"))
        assert friend.locator(tid("start-game")).count() == 0
        assert httpx.get(f"{module_server.http}/api/rooms/{code}").json()["host"] is None
        join_page(creator, f"{module_server.http}/r/{code}", "Gastgeberin", "red")
        creator.wait_for_selector(tid("start-game"))
        friend.wait_for_selector(tid("wait-host"))
        assert friend.locator(tid("start-game")).count() == 0
    finally:
        creator.context.close()
        friend.context.close()
    assert not errors, errors
