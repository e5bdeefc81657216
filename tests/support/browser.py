"""Helpers for the real-browser tests: Debian's chromium through Playwright,
players in their own browser contexts, drawing with real pointer input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from atelier.games.registry import get_game
from atelier.server.room.model import replay_log
from support.log import logged_events

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"  # the repository's, ignored by git
PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
TIMEOUT_MS = 15_000
CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => {
  const what = `CSP blocked ${e.effectiveDirective}: ${e.blockedURI} ${e.sample || ""}`;
  setTimeout(() => { throw new Error(what); });
});"""


@contextmanager
def checked_page(browser: Browser, timeout_ms: int = TIMEOUT_MS, **context: Any) -> Iterator[Page]:
    """A page in a fresh context; a script error on it fails the test at the end."""
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(timeout_ms)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert errors == [], errors


AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe_serious(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
    return [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def tid(testid: str) -> str:
    """The selector of the element with this ``data-testid``."""
    return f"[data-testid={testid}]"


def shot(page: Page, name: str) -> None:
    """A screenshot in artifacts/, to look at after a run."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@dataclass
class Player:
    name: str
    colour: str
    context: BrowserContext
    page: Page
    phone: bool = False
    errors: list[str] = field(default_factory=list)

    def watch(self) -> None:
        """Collects uncaught page errors: a test fails on any. A script, style or
        connection the Content-Security-Policy blocks counts as one."""
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.add_init_script(CSP_WATCH)

    def click(self, testid: str) -> None:
        self.page.click(tid(testid))

    def wait(self, testid: str, state: str = "visible") -> None:
        self.page.wait_for_selector(tid(testid), state=state)  # type: ignore[arg-type]


def new_player(browser: Browser, name: str, colour: str, *, phone: bool = False,
               locale: str = "en-GB") -> Player:
    if phone:
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, locale=locale)
    else:
        context = browser.new_context(viewport=DESKTOP, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    player = Player(name, colour, context, context.new_page(), phone)
    player.watch()
    return player


def join(player: Player, url: str) -> None:
    join_page(player.page, url, player.name, player.colour)


def join_page(page: Page, url: str, name: str, colour: str | None = None) -> None:
    """Sit down in the room at ``url`` from its lobby (with the colour offered
    first unless ``colour`` is given); opens ``url`` unless the page is there."""
    if page.url != url:
        page.goto(url)
    page.wait_for_selector(tid("lobby-join"))
    page.fill(tid("join-name"), name)
    if colour is not None:
        page.click(tid(f"colour-{colour}"))
    page.click(tid("join-submit"))
    page.wait_for_selector(tid("leave"))


def set_setting(host: Player, field: str, value: str) -> None:
    sel = f"[data-testid=setting-{field}]"
    tag = host.page.eval_on_selector(sel, "el => el.tagName")
    if tag == "SELECT":
        host.page.select_option(sel, value)
    else:
        host.page.fill(sel, value)
        host.page.dispatch_event(sel, "change")


def scribble(player: Player, selector: str, seed: int, strokes: int = 2) -> None:
    """Draws a few strokes inside the element: mouse on a desktop, a finger
    (real touch events through the DevTools protocol) on a phone."""
    box = player.page.locator(selector).bounding_box()
    assert box, selector
    points = []
    for s in range(strokes):
        line = []
        for i in range(12):
            fx = 0.15 + 0.7 * i / 11
            fy = 0.2 + 0.6 * ((seed * 7 + s * 3 + i * (seed % 3 + 1)) % 10) / 10
            line.append((box["x"] + fx * box["width"], box["y"] + fy * box["height"]))
        points.append(line)
    if player.phone:
        cdp = player.context.new_cdp_session(player.page)
        for line in points:
            x, y = line[0]
            cdp.send("Input.dispatchTouchEvent",
                     {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            for x, y in line[1:]:
                cdp.send("Input.dispatchTouchEvent",
                         {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        mouse = player.page.mouse
        for line in points:
            mouse.move(*line[0])
            mouse.down()
            for x, y in line[1:]:
                mouse.move(x, y, steps=2)
            mouse.up()


INKED_JS = """(root) => {
  let inked = 0;
  for (const c of root.querySelectorAll('canvas')) {
    if (!c.width) continue;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 16) if (data[i] > 0) { inked++; break; }
  }
  return inked > 0;
}"""


def has_ink(page: Page, selector: str) -> bool:
    return bool(page.eval_on_selector(selector, INKED_JS))


def wait_ink(page: Page, selector: str) -> None:
    page.wait_for_function(
        f"() => {{ const el = document.querySelector({json.dumps(selector)}); "
        f"return el && ({INKED_JS})(el); }}"
    )


def secret(player: Player) -> tuple[str, int]:
    """(card label, number) of this player's word, from the page."""
    el = player.page.locator(".secret-text")
    return el.get_attribute("data-letter") or "", int(el.get_attribute("data-number") or 0)


def seat_of(viewer: Player, name: str) -> int:
    """The seat of the player called ``name``, from their tile on ``viewer``'s page."""
    tile = viewer.page.locator(f".tile[data-name='{name}']")
    return int(tile.get_attribute("data-seat") or -1)


def guess(player: Player, target: Player, label: str, number: int) -> None:
    seat = seat_of(player, target.name)
    player.click(f"tile-{seat}")
    player.wait("focus")
    player.page.click(f"[data-testid=focus] [data-testid=word-{label}-{number}]")
    player.page.wait_for_selector(f"[data-testid=tile-{seat}] [data-testid=my-guess]")


MUST_FIT = ", ".join([
    ".ink-surface", "[data-testid=action-bar]", "[data-testid=secret]",
    "[data-testid=tools] .btn", "[data-testid=drawings]",
])


def no_overflow(page: Page) -> dict[str, Any]:
    """Sizes that show whether anything spills out of the viewport."""
    sizes: dict[str, Any] = page.evaluate(
        """(selector) => {
      const vw = window.innerWidth, vh = window.innerHeight;
      const outside = [];
      for (const el of document.querySelectorAll(selector)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
          outside.push(el.className || el.dataset.testid);
        }
      }
      const doc = document.documentElement;
      return {scrollW: doc.scrollWidth, scrollH: doc.scrollHeight, vw, vh, outside,
              surfaces: document.querySelectorAll('.ink-surface').length};
    }""",
        MUST_FIT,
    )
    return sizes


def replay_totals(db: str, code: str) -> tuple[list[str], list[int]]:
    """The final totals recomputed by the engine from the server's log, replayed
    the way a restarted server replays it."""
    events = logged_events(db, code)
    assert events and events[0].kind == "created", "no room in the log"
    room = replay_log(code, get_game(events[0].data["game"]), events)
    view: Any = room.game.view(room.state, None)
    return [p.name for p in room.all_players()], list(view["totals"])


def server_view(srv: Any, code: str) -> dict[str, Any]:
    """The game as the server sends it to a spectator (``srv`` has ``.ws``)."""
    from websockets.sync.client import connect

    with connect(f"{srv.ws}/ws/{code}") as ws:
        ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        while True:
            msg = json.loads(ws.recv(timeout=20))
            if msg["t"] == "state":
                view: dict[str, Any] = msg["game"]
                return view


# Words whole on every screen: a word whose letters lie on two lines (cut by
# overflow-wrap, word-break or hyphenation) is broken. Text shortened with an
# ellipsis is fine only where its full text is still there for everyone: a
# title, an accessible name, or visually hidden text beside it. A <select> must
# show its chosen option whole.
WORDS_JS = r"""(root) => {
  root = root || document.body;
  const out = [];
  const name = (el) => (el.dataset && el.dataset.testid ? `[${el.dataset.testid}]` : "")
      + el.tagName.toLowerCase() + (typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\s+/).join(".") : "");
  const hiddenText = (el) => el.closest(
      "[hidden], .sr-only, script, style, template, noscript, option, select, "
      + "dialog:not([open]), details:not([open]) > :not(summary)");
  // Shown: not hidden, and not a 1px box that clips (visually hidden text). A
  // box squeezed to nothing with its text spilling out is shown all the same.
  const shown = (el) => {
    if (hiddenText(el)) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 || getComputedStyle(el).overflowX === "visible";
  };
  // The lines a range's boxes lie on (boxes whose middles are within half a
  // line of each other share one).
  const lines = (rects) => {
    const mids = [];
    for (const r of rects) {
      if (r.width < 0.5 || r.height < 0.5) continue;
      const mid = (r.top + r.bottom) / 2;
      if (!mids.some((m) => Math.abs(m - mid) < r.height / 2)) mids.push(mid);
    }
    return mids.length;
  };
  const range = document.createRange();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const seenBroken = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.data.trim() || !shown(el)) continue;
    for (const m of node.data.matchAll(/\S+/g)) {
      if (m[0].length < 2) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (lines(range.getClientRects()) < 2) continue;
      // where it breaks: the letters of each line, joined with a slash
      let shownWord = "", top = null;
      for (let i = 0; i < m[0].length; i++) {
        range.setStart(node, m.index + i);
        range.setEnd(node, m.index + i + 1);
        const r = range.getClientRects()[0];
        if (r && top !== null && Math.abs(r.top - top) > r.height / 2) shownWord += "/";
        if (r) top = r.top;
        shownWord += m[0][i];
      }
      const key = `${name(el)} ${shownWord}`;
      if (!seenBroken.has(key)) out.push(`broken word: ${name(el)} "${shownWord}"`);
      seenBroken.add(key);
    }
  }
  // Text shortened with an ellipsis (one line, or clamped to a few): only
  // where the full text is available.
  const fullText = (el, text) => {
    const has = (s) => Boolean(s) && s.replace(/\s+/g, " ").includes(text);
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (has(a.getAttribute("title")) || has(a.getAttribute("aria-label"))) return true;
      const by = a.getAttribute("aria-labelledby");
      if (by && by.split(/\s+/).some((id) => has(document.getElementById(id)?.textContent))) {
        return true;
      }
      if ([...a.querySelectorAll(".sr-only")].some((s) => has(s.textContent))) return true;
      if (a.matches("button, a, label, li, td, th, figcaption, [role]")) break;
    }
    return false;
  };
  for (const el of root.querySelectorAll("*")) {
    if (!shown(el)) continue;
    const cs = getComputedStyle(el);
    const oneLine = cs.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1;
    const clamped = cs.webkitLineClamp !== "none" && cs.webkitLineClamp !== ""
        && el.scrollHeight > el.clientHeight + 1;
    if (!oneLine && !clamped) continue;
    const text = el.textContent.replace(/\s+/g, " ").trim();
    if (text && !fullText(el, text)) out.push(`cut without its full text: ${name(el)} "${text}"`);
  }
  // A menu shows its chosen option whole.
  for (const sel of root.querySelectorAll("select")) {
    if (sel.closest("[hidden]") || !sel.getBoundingClientRect().width) continue;
    const text = sel.selectedOptions[0]?.textContent.trim() || "";
    const cs = getComputedStyle(sel);
    const probe = document.createElement("span");
    probe.textContent = text;
    probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${cs.font};`
        + `letter-spacing:${cs.letterSpacing}`;
    document.body.append(probe);
    const need = probe.getBoundingClientRect().width;
    probe.remove();
    // the room the option has: the box minus its padding, borders and the arrow
    const arrow = 20;
    const room = sel.getBoundingClientRect().width - parseFloat(cs.paddingLeft)
        - parseFloat(cs.paddingRight) - parseFloat(cs.borderLeftWidth)
        - parseFloat(cs.borderRightWidth) - arrow;
    if (need > room + 0.5) {
      out.push(`menu cut: ${name(sel)} "${text}" needs ${Math.ceil(need)}px, `
          + `has ${Math.floor(room)}px`);
    }
  }
  return out;
}"""


def words_problems(page: Page, root: str | None = None) -> list[str]:
    """Broken words, text cut without its full text, and cut menus on ``page``
    (under the element ``root`` selects, or the whole body)."""
    found: list[str] = page.evaluate(
        f"(sel) => ({WORDS_JS})(sel ? document.querySelector(sel) : document.body)", root)
    return found
