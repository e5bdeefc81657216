"""Correspondence Piet in Debian's chromium: two players on phones play a game
to its end across a server restart, each move announced to the other by Web
Push; another game ends on time; My games shows them in en, de and uk at
360 px; a push reaches the service worker and shows a notification whose
click opens the game; resigning; a plain-HTTP LAN address.

Headless chromium cannot subscribe at a real push service (there is no
network), so the test stands in for the browser's push service: the
subscription the server gets is the test's (support/push_service.py, which
checks VAPID and decrypts each push), and each push it receives is handed to
the page's service worker over CDP (``ServiceWorker.deliverPushMessage``)."""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page

from atelier.games.piet.ending import DAY_SECONDS
from atelier.i18n import catalog, translate
from atelier.server.cli import lan_addresses
from support.browser import CHROMIUM, Player, axe_serious, join_page, new_player, tid
from support.clock import age_turn
from support.push_service import PushService, Sub
from support.server import ServerProcess, create_room
from test_browser_piet import play_one_move
from test_browser_pwa import fits_phone, switch_language

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

STRINGS = catalog()
SAMPLE = Path(__file__).resolve().parents[1] / "src/atelier/games/piet/sample_game.txt"


def near_the_end(left: int = 6) -> str:
    """The sample game's record without its last ``left`` moves."""
    lines = [ln for ln in SAMPLE.read_text().splitlines() if ln and not ln.startswith("#")]
    return "\n".join(lines[:-left]) + "\n"


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


class Device:
    """A player's phone: its page, and its service worker as CDP sees it."""

    def __init__(self, player: Player, origin: str) -> None:
        self.player = player
        self.origin = origin
        player.context.grant_permissions(["notifications"], origin=origin)
        self.cdp: Any = None
        self.registrations: list[dict[str, Any]] = []
        self.redelivered = 0

    @property
    def page(self) -> Page:
        return self.player.page

    def token(self, code: str) -> str:
        token = self.page.evaluate("(code) => localStorage.getItem(`atelier.token.${code}`)", code)
        assert token, code
        return str(token)

    def subscribe(self, srv: ServerProcess, code: str, sub: Sub, lang: str) -> None:
        """What the page does once the browser's push service gave it a subscription."""
        answer = httpx.post(f"{srv.http}/api/rooms/{code}/push",
                            json={"subscription": sub.json(), "lang": lang},
                            headers={"Authorization": f"Bearer {self.token(code)}"})
        assert answer.status_code == 204, answer.text

    def push(self, payload: dict[str, Any], body: str) -> dict[str, Any]:
        """Delivers a push and waits for its notification. Headless chromium loses
        push handed over CDP now and then (twice in some forty deliveries while
        this test was written, the worker running and answering a message just
        before); a push service redelivers what a browser did not take, and so
        does this, at most twice, counting it in ``redelivered``."""
        for attempt in range(3):
            self.deliver(payload)
            try:
                return self.notified(body, 5 if attempt < 2 else 15)
            except TimeoutError:
                self.redelivered += 1
        raise AssertionError("unreachable")

    def deliver(self, payload: dict[str, Any]) -> None:
        """The push service hands a push to this browser: its worker gets it."""
        self.page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        if self.cdp is None:
            self.cdp = self.player.context.new_cdp_session(self.page)
            self.cdp.on("ServiceWorker.workerRegistrationUpdated",
                        lambda e: self.registrations.extend(e["registrations"]))
            self.cdp.send("ServiceWorker.enable")
        end = time.monotonic() + 15
        while not [r for r in self.registrations if not r["isDeleted"]]:
            assert time.monotonic() < end, "no service worker registration"
            self.page.evaluate("() => 0")  # lets Playwright take the CDP events
        live = [r for r in self.registrations if not r["isDeleted"]][-1]
        # a worker idle for a while is stopped; a push handed to a stopped one over
        # CDP can be lost, where a push service's would start it: start it first,
        # by a message it answers
        self.page.evaluate("""async () => {
            const worker = (await navigator.serviceWorker.ready).active;
            const channel = new MessageChannel();
            const answered = new Promise((done) => { channel.port1.onmessage = done; });
            worker.postMessage({t: "version"}, [channel.port2]);
            await answered;
        }""")
        self.cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": self.origin, "registrationId": live["registrationId"],
            "data": json.dumps(payload)})

    def notified(self, body: str, seconds: float = 15) -> dict[str, Any]:
        """Waits for a notification with this text; its title, tag and data."""
        end = time.monotonic() + seconds
        while True:
            found = self.page.evaluate(
                """async (body) => {
                    const list = await (await navigator.serviceWorker.ready).getNotifications();
                    const n = list.find((x) => x.body === body);
                    return n ? {title: n.title, tag: n.tag, data: n.data} : null;
                }""", body)
            if found is not None:
                value: dict[str, Any] = found
                return value
            if time.monotonic() > end:
                raise TimeoutError(f"no notification {body[:30]!r}")
            self.page.wait_for_timeout(20)  # (polling: the worker shows it on its own time)


def wait_pushes(service: PushService, sub: Sub, count: int) -> list[str]:
    end = time.monotonic() + 30
    while len(service.to(sub)) < count:
        assert time.monotonic() < end, f"push {count} not received: {service.refused}"
        time.sleep(0.02)  # a thread of the test's own receives them
    return [r.payload["text"] for r in service.to(sub)]


def text(language: str, key: str, **params: Any) -> str:
    found = STRINGS[language][key]
    assert isinstance(found, str), key
    return found.format(**params)


def attr(page: Page, key: str) -> str:
    return page.get_attribute(tid("piet"), f"data-{key}") or ""


def test_a_game_by_correspondence_to_its_end_across_a_restart_and_one_on_time(
        browser: Any, server_factory: Callable[..., ServerProcess],
        push_service: PushService, tmp_path: Path) -> None:
    db = str(tmp_path / "corr.sqlite3")
    args = ("--push-service", push_service.url)
    srv = server_factory(*args, db=db)
    push_service.server_key = httpx.get(f"{srv.http}/api/push/key").json()["public_key"]
    ann = Device(new_player(browser, "Ann", "red", phone=True, locale="en-GB"), srv.http)
    bob = Device(new_player(browser, "Bob", "blue", phone=True, locale="de-DE"), srv.http)
    langs = {id(ann): "en", id(bob): "de"}
    try:
        # --- game 1: from near the end of a recorded game, one day per move
        code = create_room(srv.http, "piet", {"move_days": 1, "record": near_the_end()})
        subs: dict[int, Sub] = {}
        for device in (ann, bob):
            join_page(device.page, f"{srv.http}/r/{code}", device.player.name,
                      device.player.colour)
            subs[id(device)] = push_service.subscription()
            device.subscribe(srv, code, subs[id(device)], langs[id(device)])
        ann.page.click(tid("start-game"))
        for device in (ann, bob):
            device.page.wait_for_selector(tid("piet-clock"))
        assert ann.page.inner_text(tid("piet-clock")) in (  # a minute may have passed, or not
            text("en", "corr.time_left", left="23 hours 59 minutes"),
            text("en", "corr.time_left", left="1 day"))
        received = {id(d): 0 for d in (ann, bob)}
        moves = 0
        restarted = False
        while attr(ann.page, "phase") != "over":
            mover = ann if attr(ann.page, "actor") != "" else bob
            if attr(bob.page, "actor") != "":
                mover = bob
            other = bob if mover is ann else ann
            before = int(attr(mover.page, "moves"))
            play_one_move(mover.page, attr(mover.page, "actor"))
            other.page.wait_for_function(
                "(n) => Number(document.querySelector('[data-testid=piet]').dataset.moves) > n",
                arg=before)
            moves += 1
            if attr(other.page, "phase") == "over":
                break
            if attr(other.page, "actor") == "":
                continue  # a paintbrush: the mover moves again, nobody is nudged
            # the other player is told it is their turn, in their language
            received[id(other)] += 1
            got = wait_pushes(push_service, subs[id(other)], received[id(other)] + (
                1 if other is ann else 0))  # Ann also heard the game begin
            expected = text(langs[id(other)], "push.turn", room=code)
            assert got[-1] == expected
            shown = other.push(push_service.to(subs[id(other)])[-1].payload, expected)
            assert shown["title"] == "Atelier" and shown["data"] == {"url": f"/r/{code}"}
            if moves == 2 and not restarted:
                # the server goes away and comes back: the pages reconnect by themselves
                srv.stop()
                srv = server_factory(*args, db=db, port=srv.port)
                restarted = True
                for device in (ann, bob):
                    device.page.wait_for_function(
                        "() => document.body.dataset.connection === 'open'", timeout=60_000)
        assert restarted and moves >= 3
        for device in (ann, bob):
            device.page.wait_for_selector(tid("piet-result"))
        view = httpx.get(f"{srv.http}/api/rooms/{code}").json()
        assert view["phase"] == "over"
        won = {p["name"]: p["won"] for p in view["played"][-1]["players"]}
        for device in (ann, bob):
            lang = langs[id(device)]
            key = "push.won" if won[device.player.name] and not all(won.values()) else (
                "push.draw" if all(won.values()) else "push.lost")
            last = push_service.to(subs[id(device)])
            end = time.monotonic() + 30
            while not last or last[-1].payload["text"] != text(lang, key, room=code):
                assert time.monotonic() < end, [r.payload for r in last]
                time.sleep(0.02)
                last = push_service.to(subs[id(device)])
        # exactly once: nobody got the same push twice
        for device in (ann, bob):
            texts_ = [r.payload["text"] for r in push_service.to(subs[id(device)])]
            assert len(texts_) == len({(i, t) for i, t in enumerate(texts_)})

        # --- game 2: Bob's three days run out while the server is down
        code2 = create_room(srv.http, "piet", {"move_days": 3})
        for device in (ann, bob):
            join_page(device.page, f"{srv.http}/r/{code2}", device.player.name,
                      device.player.colour)
        ann.page.click(tid("start-game"))
        ann.page.wait_for_function("() => document.querySelector('[data-testid=piet]')"
                                   "?.dataset.actor === '0'")
        play_one_move(ann.page, "0")
        bob.page.wait_for_function("() => document.querySelector('[data-testid=piet]')"
                                   "?.dataset.actor === '1'")
        srv.stop()
        age_turn(db, code2, 3 * DAY_SECONDS + 1)
        srv = server_factory(*args, db=db, port=srv.port)
        # (the pages reconnect with their backoff, up to some seconds)
        ann.page.wait_for_selector(tid("piet-result"), timeout=60_000)
        assert ann.page.inner_text(tid("piet-turn-text")).startswith("Ann wins on time")
        bob.page.wait_for_selector(tid("piet-result"), timeout=60_000)
        assert "gewinnt durch Zeitüberschreitung" in bob.page.inner_text(tid("piet-turn-text"))

        # --- game 3: running, Ann to move: first in her list
        code3 = create_room(srv.http, "piet", {"move_days": 7})
        for device in (ann, bob):
            join_page(device.page, f"{srv.http}/r/{code3}", device.player.name,
                      device.player.colour)
        ann.page.click(tid("start-game"))
        ann.page.wait_for_selector(tid("piet-clock"))

        # --- My games, at 360 px, in three languages
        ann_won = won["Ann"]
        outcome = "draw" if all(won.values()) else "won" if ann_won else "lost"
        page = ann.page
        page.goto(srv.http)
        page.wait_for_selector(f"{tid('my-games')}:not([hidden])")
        for language in ("en", "de", "uk"):
            switch_language(page, language)
            page.wait_for_selector(tid(f"my-game-{code3}"))
            rows = page.locator(f"{tid('my-games-list')} > li")
            assert rows.count() == 3
            order = [rows.nth(i).get_attribute("data-testid") for i in range(3)]
            assert order[0] == f"my-game-{code3}"  # your turn first
            status = page.inner_text(f"{tid(f'my-game-{code3}')} {tid('my-game-status')}")
            assert status == text(language, "mygames.your_turn")
            left = page.inner_text(f"{tid(f'my-game-{code3}')} {tid('my-game-left')}")
            week = " ".join((translate("corr.days", language, n=6),
                             translate("corr.hours", language, n=23)))
            # a minute or so gone, or (the page's clock reads the server's to the
            # second) none at all
            assert left in (text(language, "mygames.left", left=week),
                            text(language, "mygames.left",
                                 left=translate("corr.days", language, n=7)))
            on_time = page.inner_text(f"{tid(f'my-game-{code2}')} {tid('my-game-status')}")
            assert on_time == (f"{text(language, 'mygames.won')} "
                               f"{text(language, 'mygames.by.time')}")
            first = page.inner_text(f"{tid(f'my-game-{code}')} {tid('my-game-status')}")
            assert first == text(language, f"mygames.{outcome}")
            fits_phone(page, tid("my-games"))
            assert axe_serious(page) == [], language
        # a finished game can be removed from the list; a running one cannot
        assert page.locator(f"{tid(f'my-game-{code3}')} {tid('my-game-remove')}").count() == 0
        page.click(f"{tid(f'my-game-{code2}')} {tid('my-game-remove')}")
        page.wait_for_selector(tid(f"my-game-{code2}"), state="detached")
        page.reload()
        page.wait_for_selector(tid(f"my-game-{code3}"))
        assert page.locator(tid(f"my-game-{code2}")).count() == 0
        # the running game opens from the list
        page.click(f"{tid(f'my-game-{code3}')} a")
        page.wait_for_selector(tid("piet-clock"))
        assert page.url.endswith(f"/r/{code3}")
        assert ann.player.errors == [] and bob.player.errors == []
        assert push_service.refused == []
    finally:
        ann.player.context.close()
        bob.player.context.close()


def test_a_push_shows_a_notification_and_tapping_it_opens_the_game(
        browser: Any, server: ServerProcess) -> None:
    code = create_room(server.http, "piet", {"move_days": 1})
    device = Device(new_player(browser, "Ann", "red", phone=True), server.http)
    try:
        page = device.page
        page.goto(server.http)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=60_000)
        text_ = f"Your turn in room {code}."
        shown = device.push({"room": code, "text": text_}, text_)
        assert shown == {"title": "Atelier", "tag": f"room-{code}", "data": {"url": f"/r/{code}"}}
        # Tapping it: the worker's notificationclick handler opens the room's page.
        # Headless chromium has no notification to tap, so the click is dispatched
        # in the worker; a page can be opened only by a real tap (the browser's
        # rule), so what is checked is the page the handler asks the browser for.
        worker = device.player.context.service_workers[0]
        asked = worker.evaluate("""async () => {
            const asked = [];
            self.clients.openWindow = async (url) => { asked.push(url); return null; };
            const [n] = await self.registration.getNotifications();
            const event = new NotificationEvent("notificationclick", {notification: n});
            let done = Promise.resolve();
            event.waitUntil = (p) => { done = p; };
            self.dispatchEvent(event);
            await done;
            return {asked, left: (await self.registration.getNotifications()).length};
        }""")
        assert asked == {"asked": [f"{server.http}/r/{code}"], "left": 0}
        # a payload that is not a nudge shows nothing of it: no room, no link elsewhere
        odd = device.push({"room": "../evil", "text": "x" * 500}, "x" * 200)
        assert odd["data"] == {"url": "/"}
        assert device.player.errors == []
    finally:
        device.player.context.close()


def test_resigning_a_live_game_and_moving_a_seat_to_another_device(
        browser: Any, server: ServerProcess) -> None:
    code = create_room(server.http, "piet", {})
    ann = new_player(browser, "Ann", "red", phone=True)
    bob = new_player(browser, "Bob", "blue", phone=True, locale="uk-UA")
    other = new_player(browser, "Ann", "red", phone=True)
    late = new_player(browser, "Eve", "green", phone=True)
    try:
        for p in (ann, bob):
            join_page(p.page, f"{server.http}/r/{code}", p.name, p.colour)
        ann.click("start-game")
        ann.wait("piet-resign-ask")
        # a live game: no time, no nudges, no moving the seat; resigning is there
        assert ann.page.locator(tid("piet-clock")).count() == 0
        assert ann.page.locator(tid("piet-nudges")).count() == 0
        # Bob resigns although it is Ann's turn; he is asked first
        bob.click("piet-resign-ask")
        confirm = bob.page.inner_text(tid("piet-resign"))
        assert "Ann" in confirm and "Здатися" in confirm
        bob.click("piet-resign-yes")
        ann.wait("piet-result")
        assert ann.page.inner_text(tid("piet-turn-text")).startswith("Ann wins by resignation")
        bob.wait("piet-result")
        assert bob.page.inner_text(tid("piet-turn-text")).startswith(
            "Ann: перемога, партію здано")
        assert axe_serious(bob.page) == []

        # a correspondence game: Ann moves her seat to her other phone
        code2 = create_room(server.http, "piet", {"move_days": 7})
        for p in (ann, bob):
            join_page(p.page, f"{server.http}/r/{code2}", p.name, p.colour)
        ann.click("start-game")
        ann.click("seat-move-offer")
        ann.wait("seat-move-qr")
        link = ann.page.input_value(tid("seat-move-link"))
        assert link.startswith(f"{server.http}/r/{code2}#transfer=")
        fits_phone(ann.page, tid("seat-move"))
        # the sticky header covers whatever the page was scrolled under it, which
        # axe counts as an obscured target: check the page from its top
        ann.page.evaluate("window.scrollTo(0, 0)")
        assert axe_serious(ann.page) == []
        other.page.goto(link)
        other.wait("piet-resign-ask")  # seated: the seat's tools are there
        assert "#transfer" not in other.page.url  # the link left the address bar
        assert other.page.get_attribute(tid("piet"), "data-actor") == "0"
        # the old phone now watches, and says why
        ann.page.wait_for_function(
            "() => document.querySelector('[data-testid=toast]')?.textContent"
            ".includes('another device')")
        ann.page.wait_for_selector(tid("piet-seat-tools"), state="detached")
        # the link works once
        late.page.goto(link)
        late.page.wait_for_function(
            "() => document.querySelector('[data-testid=toast]')?.textContent"
            ".includes('has been used already')")
        late.page.wait_for_selector(tid("piet"))
        assert late.page.get_attribute(tid("piet"), "data-actor") == ""
        for p in (ann, bob, other, late):
            assert p.errors == [], p.errors
    finally:
        for p in (ann, bob, other, late):
            p.context.close()


def test_nudges_are_asked_for_only_on_a_tap_and_a_plain_http_lan_address_says_why_not(
        browser: Any, server_factory: Callable[..., ServerProcess]) -> None:
    with socket.socket() as free:  # free on every interface, not only on 127.0.0.1
        free.bind(("0.0.0.0", 0))
        port = int(free.getsockname()[1])
    srv = server_factory("--host", "0.0.0.0", port=port)
    code = create_room(srv.http, "piet", {"move_days": 3})
    asks = "window.__asks = 0; const real = Notification.requestPermission.bind(Notification);" \
        " Notification.requestPermission = () => { window.__asks++; return real(); };"
    ann = new_player(browser, "Ann", "red", phone=True)
    bob = new_player(browser, "Bob", "blue", phone=True)
    try:
        ann.page.add_init_script(asks)
        ann.context.grant_permissions(["notifications"], origin=srv.http)
        for p in (ann, bob):
            join_page(p.page, f"{srv.http}/r/{code}", p.name, p.colour)
        ann.click("start-game")
        ann.wait("piet-nudges-ask")
        assert ann.page.evaluate("() => window.__asks") == 0  # nothing asked on load
        ann.click("piet-nudges-ask")
        ann.page.wait_for_function("() => window.__asks === 1")
        # this headless browser has no push service to subscribe at: it says so
        ann.page.wait_for_function(
            "(text) => document.querySelector('[data-testid=toast]')?.textContent === text",
            arg=text("en", "corr.notify_failed"))
        # from a plain-HTTP LAN address the browser has no service worker and no
        # push: the seat's tools say what it needs instead, in every language
        lan = f"http://{lan_addresses()[0]}:{srv.port}"
        code2 = create_room(srv.http, "piet", {"move_days": 3})
        cy = new_player(browser, "Cy", "green", phone=True)
        dee = new_player(browser, "Dee", "yellow", phone=True)
        try:
            for p in (cy, dee):
                join_page(p.page, f"{lan}/r/{code2}", p.name, p.colour)
            cy.click("start-game")
            cy.wait("piet-nudges-unsupported")
            assert cy.page.evaluate("() => [isSecureContext, 'serviceWorker' in navigator]") \
                == [False, False]
            for language in ("en", "de", "uk"):
                switch_language(cy.page, language)
                assert cy.page.inner_text(tid("piet-nudges-unsupported")) == text(
                    language, "corr.notify_unsupported")
                fits_phone(cy.page, tid("piet-seat-tools"))
                assert axe_serious(cy.page) == [], language
            assert cy.errors == [] and dee.errors == []
        finally:
            cy.context.close()
            dee.context.close()
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.context.close()
        bob.context.close()
