"""Leaving in the browser forgets the seat: the server no longer says "kicked" to a
player who left by themselves, so the page drops its token when its state says it
watches now; a reload does not try the old token."""

from __future__ import annotations

import os
from typing import Any

import pytest

from support.browser import CHROMIUM, join, new_player
from support.server import ServerProcess, create_room

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]


def test_leaving_forgets_the_token(browser: Any, server: ServerProcess) -> None:
    code = create_room(server.http)
    p = new_player(browser, "Ann", "red")
    try:
        join(p, f"{server.http}/r/{code}")
        key = p.page.evaluate("Object.keys(localStorage).find((k) => k.includes('token'))")
        assert key and p.page.evaluate(f"localStorage.getItem({key!r})")
        p.click("leave")
        p.wait("lobby-join")
        p.page.wait_for_function(f"() => localStorage.getItem({key!r}) === null")
        p.page.reload()
        p.wait("lobby-join")
        assert p.page.locator("[data-testid=toast].show").count() == 0  # no bad_token
        assert p.errors == [], p.errors
    finally:
        p.context.close()
