"""The installable app in Debian's chromium: Chrome's own installability check,
the service worker and what opens with no network (the start page, the rules,
a puzzle, a finished game's replay; a room says it has no network and comes
back by itself), a new client version picked up without mixing files, and the
screen kept awake during a round (server/pwa.py, web/sw.js, web/pwa.js,
web/wake.js)."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image
from playwright.sync_api import BrowserContext, Page

from atelier.i18n import catalog
from atelier.server.app import WEB_DIR
from atelier.server.cli import lan_addresses
from support.browser import (
    CHROMIUM,
    INKED_JS,
    LAUNCH_ARGS,
    PHONE,
    TIMEOUT_MS,
    axe_serious,
    join_page,
    new_player,
    shot,
    tid,
)
from support.server import create_room
from support.ws_players import WsPlayer, phase_is
from test_browser_piet import play_one_move, wait_for_turn
from test_browser_replay import play_one_round
from test_server_leak import CARDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

STRINGS = catalog()


def text(language: str, key: str) -> str:
    """An interface string that counts nothing."""
    found = STRINGS[language][key]
    assert isinstance(found, str), key
    return found
PICTOMANIA = {"rounds": 1, "levels": [1], "custom_cards": CARDS}


def app_context(browser: Any, profile: Path) -> BrowserContext:
    """A phone-sized context with a profile of its own: Chrome refuses to call
    any page of an incognito context installable, and every ``new_context`` is one."""
    context: BrowserContext = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=LAUNCH_ARGS, viewport=PHONE,
        device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    return context


def controlled(page: Page) -> None:
    """Waits until the service worker serves this page (the first visit's
    worker takes the page over once it has kept the shell)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)


def kept(page: Page, url: str) -> None:
    """Waits until the worker keeps ``url`` in one of its caches."""
    page.wait_for_function("async (url) => Boolean(await caches.match(url))", arg=url,
                           timeout=30_000)


def switch_language(page: Page, code: str) -> None:
    page.select_option(tid("lang-select"), code)
    page.wait_for_function("(code) => document.documentElement.lang === code", arg=code)


def fits_phone(page: Page, selector: str) -> None:
    """No sideways scrolling, and the element inside 360 px."""
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    box = page.locator(selector).bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


def test_the_manifest_and_icons(server: Any) -> None:
    answer = httpx.get(f"{server.http}/manifest.webmanifest", headers={"Accept-Language": "uk"})
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["lang"] == "uk" and manifest["description"] == STRINGS["uk"]["start.tagline"]
    assert [manifest[k] for k in ("start_url", "scope", "display")] == ["/", "/", "standalone"]
    assert manifest["theme_color"] and manifest["background_color"]
    assert httpx.get(f"{server.http}/manifest.webmanifest?lang=de").json()["lang"] == "de"
    sizes = set()
    for icon in manifest["icons"]:
        png = httpx.get(server.http + icon["src"])
        assert png.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(png.content))
        assert f"{image.width}x{image.height}" == icon["sizes"]
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    # the worker from the root (its scope is the whole site), never from a cache
    worker = httpx.get(f"{server.http}/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    version = httpx.get(f"{server.http}/api/version").json()["version"]
    assert f'const VERSION = "{version}";' in worker.text
    policy = worker.headers["content-security-policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_installable_and_open_with_no_network(browser: Any, server: Any, tmp_path: Path) -> None:
    finished = create_room(server.http, "pictomania", PICTOMANIA)
    players = play_one_round(server, finished)
    for p in players:
        p.act({"type": "confirm"})
    live = create_room(server.http, "pictomania", PICTOMANIA)
    context = app_context(browser, tmp_path / "profile")
    page = context.pages[0]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.http)
        page.wait_for_selector(tid("start-page"))
        controlled(page)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        assert cdp.send("Page.getAppManifest")["errors"] == []
        assert page.evaluate("async () => (await navigator.serviceWorker.ready).active.state") \
            == "activated"

        # A finished game seen once online: the page keeps it, the worker its drawings.
        page.goto(f"{server.http}/r/{finished}")
        page.wait_for_selector(tid("pm-over"))
        kept(page, f"/api/rooms/{finished}/drawings/round-1/0.ink")
        kept(page, f"/api/rooms/{finished}/drawings/round-1/0.json")

        context.set_offline(True)
        page.goto(server.http)
        page.wait_for_selector(tid("start-page"))
        page.click(tid("rules-open"))
        page.wait_for_selector(f"{tid('rules-dialog')} h2")
        title = page.inner_text(f"{tid('rules-dialog')} h2")
        assert title == STRINGS["en"]["rules.pictomania.title"]
        page.click(tid("rules-close"))

        # The puzzles, though never opened online; trying a move needs the server.
        page.click(tid("piet-puzzles-open"))
        page.wait_for_selector(f"{tid('piet-puzzles')}[data-ready='1']")
        page.locator("[data-testid^=piet-puzzle-]").filter(has_text="1").first.click()
        page.wait_for_selector(tid("piet-puzzle"))

        # The finished game as it ended, and its replay with the guesses on it.
        page.goto(f"{server.http}/r/{finished}")
        page.wait_for_selector(tid("pm-over"))
        page.click("[data-testid=gallery-item][data-seat='0'] [data-testid=replay-open]")
        page.wait_for_selector("[data-testid=replay][data-loaded=true]")
        assert page.locator(tid("replay-mark")).count() == 2
        page.click(tid("replay-speed-4"))  # it plays by itself
        page.wait_for_function(
            "() => { const r = document.querySelector('[data-testid=replay]');"
            " return r.dataset.vt === r.dataset.duration; }")
        assert page.eval_on_selector(tid("replay-canvas"), INKED_JS)
        page.click(tid("replay-close"))

        # A room that needs the server says so, in every language, on a phone.
        page.goto(f"{server.http}/r/{live}")
        page.wait_for_selector(tid("room-offline"))
        for code in ("en", "de", "uk"):
            switch_language(page, code)  # the strings come from the worker's cache
            assert text(code, "room.offline_body") in page.inner_text(tid("room-offline"))
            fits_phone(page, tid("room-offline"))
            assert axe_serious(page) == [], code
            shot(page, f"pwa-offline-room-{code}")
        switch_language(page, "en")

        # The network comes back: the room connects by itself, no reload.
        context.set_offline(False)
        page.wait_for_selector(tid("lobby"))

        # A room open when the network goes: the badge says so, then it comes back.
        context.set_offline(True)
        page.wait_for_selector(f"body[data-connection=offline] {tid('connection')}")
        assert page.inner_text(tid("connection")) == STRINGS["en"]["room.offline"]
        for code in ("de", "uk"):
            switch_language(page, code)
            page.wait_for_selector(tid("connection"))
            assert page.inner_text(tid("connection")) == STRINGS[code]["room.offline"]
            fits_phone(page, tid("connection"))
            assert axe_serious(page) == [], code
        context.set_offline(False)
        page.wait_for_selector(tid("connection"), state="hidden")
        assert page.locator(tid("lobby")).count() == 1
        assert errors == [], errors
    finally:
        context.close()
        for p in players:
            p.close()


MARK_JS = "() => getComputedStyle(document.documentElement).getPropertyValue('--client-mark')"
VERSION_JS = "() => import('/static/pwa.js').then((m) => m.clientVersion())"


def new_version(web: Path, mark: str) -> None:
    """A deploy: one web file changes."""
    with (web / "styles.css").open("a", encoding="utf-8") as css:
        css.write(f'\n:root {{ --client-mark: "{mark}"; }}\n')


def test_a_new_version_is_announced_and_taken_on_the_next_load(
        browser: Any, server_factory: Any, tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    srv = server_factory("--web-dir", str(web))

    def deploy(mark: str) -> str:
        nonlocal srv
        srv.stop()
        new_version(web, mark)
        srv = server_factory("--web-dir", str(web), db=srv.db, port=srv.port)
        version: str = httpx.get(f"{srv.http}/api/version").json()["version"]
        return version

    first = httpx.get(f"{srv.http}/api/version").json()["version"]
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(srv.http)
        page.wait_for_selector(tid("start-page"))
        controlled(page)
        assert page.evaluate(VERSION_JS) == first

        second = deploy("two")
        assert second != first
        # The open page learns of it on its next navigation: it keeps running
        # the files it started with (from the old version's cache) and says so.
        page.reload()
        page.wait_for_selector(tid("update-ready"), timeout=60_000)
        assert page.evaluate(MARK_JS) == ""
        assert page.evaluate(VERSION_JS) == first
        for code in ("en", "de", "uk"):
            switch_language(page, code)
            page.wait_for_selector(tid("update-ready"))
            assert page.inner_text(f"{tid('update-ready')} p") == STRINGS[code]["app.update_ready"]
            fits_phone(page, tid("update-ready"))
            assert axe_serious(page) == [], code
            shot(page, f"pwa-update-{code}")
        switch_language(page, "en")

        # "Reload now": the new version takes over and the page runs on it.
        page.click(tid("update-reload"))
        page.wait_for_function(f"{MARK_JS} === '\"two\"'", timeout=30_000)
        assert page.evaluate(VERSION_JS) == second
        assert page.locator(tid("update-ready")).count() == 0

        # Another deploy, and no button pressed: the next load takes it.
        third = deploy("three")
        page.reload()
        page.wait_for_selector(tid("update-ready"), timeout=60_000)
        assert page.evaluate(MARK_JS) == '"two"'  # still one version's files
        page.reload()
        page.wait_for_function(f"{MARK_JS} === '\"three\"'", timeout=30_000)
        page.wait_for_selector(tid("start-page"))
        assert page.evaluate(VERSION_JS) == third
        # and only the version in use is kept
        names = page.evaluate("() => caches.keys()")
        assert [n for n in names if n.startswith("atelier-shell-")] == [f"atelier-shell-{third}"]
        assert errors == [], errors
    finally:
        context.close()


# Every lock the page takes, to see from outside whether it is held.
LOCKS_JS = """(() => {
  window.__locks = [];
  if (!("wakeLock" in navigator)) return;
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    const lock = await request(type);
    window.__locks.push(lock);
    return lock;
  };
})();"""
HELD_JS = "() => window.__locks.filter((lock) => !lock.released).length"


def allow_wake_lock(context: BrowserContext, page: Page, origin: str) -> None:
    """Headless chromium asks no one: the permission is granted as a user would."""
    context.new_cdp_session(page).send(
        "Browser.setPermission", {"permission": {"name": "screen-wake-lock"},
                                  "setting": "granted", "origin": origin})


def held(page: Page, count: int) -> None:
    page.wait_for_function(f"() => ({HELD_JS})() === {count}")


def test_the_screen_stays_on_during_a_round(browser: Any, server: Any) -> None:
    code = create_room(server.http, "pictomania", PICTOMANIA)
    anna = new_player(browser, "Anna", "red", phone=True)
    page = anna.page
    page.add_init_script(LOCKS_JS)
    others: list[WsPlayer] = []
    try:
        page.goto(server.http)
        allow_wake_lock(anna.context, page, server.http)
        join_page(page, f"{server.http}/r/{code}", "Anna", "red")  # the first seated: host
        for name, colour in (("Bob", "blue"), ("Cat", "green")):
            others.append(WsPlayer(server.ws, code))
            others[-1].join(name, colour)
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=lobby-player]').length === 3")
        assert page.evaluate("() => window.__locks.length") == 0  # the lobby: no lock
        assert page.locator(tid("awake-note")).count() == 0  # a secure page needs no note

        anna.click("start-game")
        anna.wait("pm-display")
        held(page, 1)
        anna.click("ready")
        for p in others:
            p.act({"type": "ready"})
        anna.wait("pm-drawing")
        held(page, 1)

        # The system takes the lock (as when the page is hidden): the next thing
        # that happens in the round takes it again.
        page.evaluate("() => window.__locks[0].release()")
        held(page, 0)
        others[0].act({"type": "done"})
        held(page, 1)
        assert page.evaluate("() => window.__locks.length") == 2

        others[1].act({"type": "done"})
        anna.click("done")
        anna.wait("pm-review")
        held(page, 1)  # the reveal is part of the round
        for p in others:
            p.state(phase_is("review"))
            p.act({"type": "confirm"})
        if page.locator(tid("reveal-skip")).is_visible():
            anna.click("reveal-skip")
        anna.click("confirm")
        anna.wait("pm-over")
        held(page, 0)  # after the game: let go
        assert anna.errors == [], anna.errors
    finally:
        anna.context.close()
        for p in others:
            p.close()


def awake_page(browser: Any, server: Any, **context: Any) -> tuple[BrowserContext, Page]:
    """A page that records its wake locks, allowed to take them."""
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.add_init_script(LOCKS_JS)
    allow_wake_lock(ctx, page, server.http)
    return ctx, page


def test_piet_keeps_the_screen_on_while_it_is_your_move(browser: Any, server: Any) -> None:
    code = create_room(server.http, "piet", {})
    url = f"{server.http}/r/{code}"
    ann_ctx, ann = awake_page(browser, server, viewport=PHONE)
    bob_ctx, bob = awake_page(browser, server, viewport=PHONE)
    try:
        join_page(ann, url, "Ann")
        join_page(bob, url, "Bob")
        for pg in (ann, bob):
            assert pg.evaluate("() => window.__locks.length") == 0
        ann.click(tid("start-game"))
        for pg in (ann, bob):
            pg.wait_for_selector(tid("piet-palette"))
        held(ann, 1)  # Ann's move
        held(bob, 0)
        play_one_move(ann, "0")
        wait_for_turn(bob, 0)
        held(bob, 1)  # Bob's move now
        held(ann, 0)
    finally:
        ann_ctx.close()
        bob_ctx.close()


@pytest.mark.skipif(not lan_addresses(), reason="needs an address other than loopback")
def test_a_plain_http_lan_address_says_how_to_keep_the_screen_on(
        browser: Any, server_factory: Any) -> None:
    """Browsers keep the wake lock (and service workers) from insecure pages:
    the lobby says once what to do instead."""
    srv = server_factory("--host", "0.0.0.0")
    lan = f"http://{lan_addresses()[0]}:{srv.port}"
    code = create_room(srv.http, "pictomania", PICTOMANIA)
    for language in ("en", "de", "uk"):
        anna = new_player(browser, "Anna", "red", phone=True, locale=language)
        page = anna.page
        try:
            page.goto(f"{lan}/r/{code}")
            anna.wait("awake-note")
            secure = page.evaluate("() => [isSecureContext, 'wakeLock' in navigator]")
            assert secure == [False, False]
            assert page.inner_text(f"{tid('awake-note')} p") == STRINGS[language]["app.awake_note"]
            fits_phone(page, tid("awake-note"))
            assert axe_serious(page) == [], language
            anna.click("awake-note-ok")
            page.reload()
            anna.wait("lobby")
            assert page.locator(tid("awake-note")).count() == 0  # said once
            assert anna.errors == [], anna.errors
        finally:
            anna.context.close()


def test_the_worker_keeps_the_shell_it_is_given(server: Any) -> None:
    """Every URL the worker keeps answers, so its install cannot fail on one."""
    worker = httpx.get(f"{server.http}/sw.js").text
    shell = json.loads(worker.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    assert "/" in shell and "/static/app.js" in shell and "/api/strings/uk" in shell
    assert "/static/sw.js" not in shell
    with httpx.Client(base_url=server.http) as client:
        assert [url for url in shell if client.get(url).status_code != 200] == []
