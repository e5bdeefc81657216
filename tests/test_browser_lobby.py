"""The room before and around the start, in real browsers: sharing, joining
with a free colour, the host's powers, languages, rules, spectators."""

from __future__ import annotations

import os
from typing import Any

import pytest

from atelier.i18n import translate
from support.browser import CHROMIUM, join, new_player, set_setting

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]


def test_host_powers_languages_rules_and_spectators(browser: Any, server: Any) -> None:
    a = new_player(browser, "Anna", "red")
    b = new_player(browser, "Bohdan", "blue", locale="de-DE")
    c = new_player(browser, "Clara", "green")
    d = new_player(browser, "Dora", "yellow", phone=True)
    everyone = [a, b, c, d]
    try:
        a.page.goto(server.http)
        a.click("create-room")
        a.wait("lobby-join")
        url = a.page.url
        code = url.rstrip("/").rsplit("/", 1)[1]
        assert a.page.inner_text("[data-testid=room-code]") == code
        assert a.page.get_attribute("[data-testid=share-link]", "href") == url
        # Joining by the short code from the start page.
        c.page.goto(server.http)
        c.page.fill("[data-testid=join-code]", code.lower())
        c.click("join-room")
        c.page.wait_for_url(f"**/r/{code}")
        for p in (a, b, c):
            join(p, url)

        # A colour taken is not offered; a name taken is refused in the player's language.
        d.page.goto(url)
        d.wait("lobby-join")
        assert d.page.is_disabled("[data-testid=colour-red]")
        d.page.select_option("[data-testid=lang-select]", "uk")
        d.page.wait_for_function("() => document.documentElement.lang === 'uk'")
        d.page.fill("[data-testid=join-name]", "anna")
        d.click("colour-yellow")
        d.click("join-submit")
        d.page.wait_for_selector("[data-testid=toast].show")
        assert d.page.inner_text("[data-testid=toast]") == translate("error.name_taken", "uk")

        # Rules summary from the lobby, in the reader's language.
        b.click("rules-open")
        b.wait("rules-dialog")
        assert translate("rules.pictomania.title", "de") in b.page.inner_text(
            "[data-testid=rules-dialog]"
        )
        b.click("rules-close")

        # Only the host edits settings; everyone sees them.
        set_setting(a, "edition", "first")
        b.page.wait_for_function(
            "() => document.querySelector('[data-testid=setting-edition]')"
            "?.textContent.includes('1.')"
        )
        assert b.page.locator("select[data-testid=setting-edition]").count() == 0
        # The form's bounds and choices are the server's own (its settings schema).
        bounds = {
            field: (a.page.get_attribute(f"[data-testid={field}]", "min"),
                    a.page.get_attribute(f"[data-testid={field}]", "max"))
            for field in ("setting-rounds", "setting-card_swaps", "setting-time_limit-value")
        }
        assert bounds == {"setting-rounds": ("1", "12"), "setting-card_swaps": ("0", "20"),
                          "setting-time_limit-value": ("10", "3600")}
        assert a.page.eval_on_selector_all(
            "[data-testid=setting-language] option", "os => os.map(o => o.value)"
        ) == ["en", "de", "uk"]

        # The host hands the role on; the new host removes a player.
        a.page.click("[data-testid='make-host-Bohdan']")
        b.wait("start-game")
        a.wait("wait-host")
        b.page.click("[data-testid='kick-Clara']")
        c.wait("lobby-join")  # back to watching, may join again
        assert c.page.locator("[data-testid=lobby-player][data-name=Clara]").count() == 0
        join(c, url)

        # After the start, a late visitor watches the round as a spectator.
        b.click("start-game")
        for p in (a, b, c):
            p.wait("pm-display")
        d.wait("pm-display")
        assert d.page.locator("[data-testid=ready]").count() == 0
        assert d.page.locator("[data-testid=word-card]").count() == 6
        for p in everyone:
            assert p.errors == [], p.errors
    finally:
        for p in everyone:
            p.context.close()
