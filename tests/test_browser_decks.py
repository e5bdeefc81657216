"""Own cards in the lobby, in real browsers: the host pastes or uploads a deck
and sees its summary or the server's error in their language; a guest sees
the summary and downloads the deck; the host removes it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from atelier.content.custom import parse_deck
from atelier.i18n import translate
from support.browser import CHROMIUM, join, new_player

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
BROKEN = (
    "level,theme,word1,word2,word3,word4,word5,word6,word7\n"
    "1,Pets,cat,dog,hamster,rabbit,parrot,goldfish,tortoise\n"
    "2,Birds,owl,eagle,owl,crow,robin,swan,duck\n"
)


def test_host_pastes_uploads_and_removes_a_deck(browser: Any, server: Any) -> None:
    host = new_player(browser, "Hanna", "red", locale="de-DE")
    guest = new_player(browser, "Gus", "blue")
    try:
        host.page.goto(server.http)
        host.click("create-room")
        host.wait("lobby-join")
        url = host.page.url
        join(host, url)
        host.wait("deck-none")

        # A broken deck: the error names the card and the problem, in German.
        host.page.fill("[data-testid=deck-text]", BROKEN)
        host.click("deck-use")
        host.wait("deck-error")
        expected = translate("error.deck_word_twice", "de", card=2, word="owl", first=1,
                             second=3)
        assert host.page.inner_text("[data-testid=deck-error]") == expected
        assert host.page.locator("[data-testid=deck-summary]").count() == 0
        # What was typed survives the re-render when someone joins.
        join(guest, url)
        host.page.wait_for_selector("[data-testid=lobby-player][data-name=Gus]")
        assert host.page.input_value("[data-testid=deck-text]") == BROKEN

        # Pasting a good deck: the summary, per level, for everyone.
        text = (EXAMPLES / "custom-deck.csv").read_text(encoding="utf-8")
        host.page.fill("[data-testid=deck-text]", text)
        host.click("deck-use")
        host.page.wait_for_selector("[data-testid=deck-summary][data-cards='3']")
        assert host.page.locator("[data-testid=deck-error]").count() == 0
        levels = host.page.inner_text("[data-testid=deck-levels]")
        assert translate("level.1", "de") in levels
        guest.page.wait_for_selector("[data-testid=deck-summary][data-cards='3']")
        assert guest.page.locator("[data-testid=deck-use]").count() == 0
        assert guest.page.locator("[data-testid=deck-remove]").count() == 0

        # The guest downloads it; the file reads back as the same cards.
        with guest.page.expect_download() as info:
            guest.click("deck-export-csv")
        saved = Path(info.value.path()).read_text(encoding="utf-8")
        assert [c.words for c in parse_deck(saved)] == [c.words for c in parse_deck(text)]

        # A file instead of pasting, used instead of the built-in cards... too few for that.
        host.page.set_input_files("[data-testid=deck-file]", str(EXAMPLES / "custom-deck.json"))
        host.wait("deck-file-name")
        host.page.check("[data-testid=deck-mode-instead]")
        host.click("deck-use")
        host.wait("deck-error")
        assert host.page.inner_text("[data-testid=deck-error]") == translate(
            "error.deck_too_few", "de", rounds=4, needed=12, count=3)
        host.page.check("[data-testid=deck-mode-alongside]")
        host.click("deck-use")
        host.wait("deck-error", "detached")
        host.wait("deck-notice")

        host.click("deck-remove")
        guest.wait("deck-none")
        host.wait("deck-none")
        assert not host.errors and not guest.errors, host.errors + guest.errors
    finally:
        host.context.close()
        guest.context.close()
