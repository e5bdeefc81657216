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

    def deliver(self, payload: dict[str, Any]) -> None:
        """The push service hands a push to this browser: its worker gets it."""
        self.page.wait_for_function("async () => Boolean(await navigator.serviceWorker.ready)")
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
        self.cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": self.origin, "registrationId": live["registrationId"],
            "data": json.dumps(payload)})

    def notified(self, body: str) -> dict[str, Any]:
        """Waits for a notification with this text; its title, tag and data."""
        found = self.page.wait_for_function(
            """async (body) => {
                const list = await (await navigator.serviceWorker.ready).getNotifications();
                const n = list.find((x) => x.body === body);
                return n ? {title: n.title, tag: n.tag, data: n.data} : null;
            }""", arg=body)
        value: dict[str, Any] = found.json_value()
        return value


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
            other.deliver(push_service.to(subs[id(other)])[-1].payload)
            shown = other.notified(expected)
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
            assert left == text(language, "mygames.left", left=week)  # a minute or so gone
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
