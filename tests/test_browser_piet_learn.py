"""Learning Piet in a real browser on a 360x740 phone: a hint shown on the
board, the review of a finished game with its chart, the guided first game
in all three languages, and a puzzle; axe-core finds no serious issue."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from atelier.games.piet.ai import choose_move
from atelier.games.piet.coach import HINT_BUDGET, seed_of
from atelier.games.piet.notation import format_move, read_record
from browser_helpers import PHONE, server_view
from conftest import ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's chromium"),
]

TIMEOUT_MS = 30_000


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == [], errors


def tid(name: str) -> str:
    return f"[data-testid={name}]"


def axe_problems(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": [
        "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}})
    return [f"{v['id']}: {[n['target'][0] for n in v['nodes'][:3]]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def no_wider_than_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def seated_against_the_computer(srv: ServerProcess, page: Any, level: str = "easy") -> str:
    r = httpx.post(srv.http + "/api/rooms", json={"game": "piet", "settings": {"opponent": level}})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    page.goto(f"{srv.http}/r/{code}")
    page.fill(tid("join-name"), "Ann")
    page.click(tid("join-submit"))
    page.click(tid("start-game"))
    page.wait_for_selector(f"{tid('piet')}[data-actor='0']")
    return code


def test_a_hint_shows_the_hard_computers_move_on_the_board(module_server: ServerProcess,
                                                           phone: Any) -> None:
    code = seated_against_the_computer(module_server, phone)
    # the player has a move in mind: the hint says what it is worth beside the best
    phone.click(f"{tid('piet-palette')} .piet-cell:not([disabled])")
    phone.click(f"{tid('piet-canvas-0')} .piet-cell.target")
    mine = phone.inner_text(tid("piet-pending"))
    phone.click(tid("piet-hint"))
    phone.wait_for_selector(tid("piet-hint-move"))
    shown = phone.inner_text(tid("piet-hint-move"))
    game = server_view(module_server, code)
    board = read_record(game["record"]).final
    assert shown == format_move(choose_move(board, "hard", seed_of(game["record"]), HINT_BUDGET))
    assert mine in phone.inner_text(tid("piet-hint-against"))
    hinted = phone.locator(f"{tid('piet-palette')} .piet-cell.hinted")
    assert hinted.count() == len(shown.split(">")[0]) // 2
    assert phone.locator(f"{tid('piet-canvas-0')} .piet-cell.hinted").count() == hinted.count()
    assert game["hinted"] == [0] and "# hint" in game["record"]
    no_wider_than_the_phone(phone)
    assert axe_problems(phone) == []
