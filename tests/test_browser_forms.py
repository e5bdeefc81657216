"""Every form a newcomer fills works with its defaults: on a 360 px phone, in
each language, every game is created through the start page with every option
ticked at the value the form offers, every option of the lobby's settings
ticked too, then started by the host with friends who came through the link.
A number the browser refuses says why, next to the field, in the page's language."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from atelier.games.registry import get_game
from atelier.i18n import LANGUAGES, translate
from support.browser import CHROMIUM, Player, join_page, new_player, shot, tid

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

LOCALES = {"en": "en-GB", "de": "de-DE", "uk": "uk-UA"}
GUESTS = ["Oleksandra", "Maximilian", "Wolodymyr", "Bartholomäus", "Christiane"]


@dataclass(frozen=True)
class Variant:
    """One way to start a game from the start page: its selects set so (every
    checkbox is ticked regardless)."""

    game: str
    selects: tuple[tuple[str, str], ...] = ()
    computer: bool = False

    @property
    def id(self) -> str:
        return "-".join([self.game, *(value for _, value in self.selects)])


VARIANTS = [
    Variant("pictomania", (("setting-edition", "second"),)),
    Variant("pictomania", (("setting-edition", "first"),)),
    Variant("incognito"),
    Variant("piet", (("setting-opponent", "friend"),)),
    Variant("piet", (("setting-opponent", "easy"),), computer=True),
]
SCREEN = {"pictomania": "main.pm", "incognito": "main.ig", "piet": "[data-testid=piet]"}
"""What each game's screen shows once it has started."""


def test_the_variants_cover_every_game_the_server_offers(server: Any) -> None:
    games = [g["name"] for g in httpx.get(f"{server.http}/api/games").json()["games"]]
    assert sorted({v.game for v in VARIANTS}) == sorted(games)
    assert set(SCREEN) == set(games)


TICK_NEXT = """(root) => {
  const box = root.querySelector('input[type=checkbox]:not(:checked):not(:disabled)');
  if (!box) return null;
  box.click();
  box.dataset.tickedHere = 'yes';
  return box.id;
}"""
# The box is ticked and, where the page redraws from the server's state (the
# lobby), drawn anew from a state that has it ticked: the box clicked is
# checked at once, before the server has taken the change.
TICKED = """([id, redrawn]) => {
  const box = document.getElementById(id);
  return Boolean(box?.checked && (!redrawn || !box.dataset.tickedHere));
}"""


def tick_everything(page: Any, scope: str, redrawn: bool) -> list[str]:
    """Ticks every checkbox under ``scope``, one at a time, each waited for
    (in the lobby, until the server's state has it) before the next."""
    ticked: list[str] = []
    while (box := page.eval_on_selector(scope, TICK_NEXT)) is not None:
        assert box not in ticked, f"{box} would not stay ticked"
        ticked.append(box)
        page.wait_for_function(TICKED, arg=[box, redrawn])
    return ticked


REFUSED_NUMBERS = """(root) => [...root.querySelectorAll('input[type=number]')]
  .filter((n) => !n.disabled && !n.validity.valid).map((n) => [n.id, n.value])"""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_a_newcomer_creates_and_starts_every_game_with_every_option(
        browser: Any, server: Any, variant: Variant, lang: str) -> None:
    host = new_player(browser, "Anastasiia", "red", phone=True, locale=LOCALES[lang])
    guests: list[Player] = []
    try:
        page = host.page
        page.goto(server.http)
        page.click(tid(f"game-{variant.game}"))
        for select, value in variant.selects:
            page.select_option(tid(select), value)
        form = tid("create-form")
        tick_everything(page, form, redrawn=False)
        assert page.eval_on_selector(form, REFUSED_NUMBERS) == []
        page.click(tid("create-room"))  # a person's tap, not the API
        page.wait_for_url("**/r/*")
        url = page.url
        join_page(page, url, host.name)

        needed = 1 if variant.computer else get_game(variant.game).min_seats
        share = page.get_attribute(tid("share-link"), "href")
        assert share == url
        for i in range(needed - 1):
            guest = new_player(browser, GUESTS[i], "", phone=True, locale=LOCALES[lang])
            guests.append(guest)
            guest.page.goto(share)
            join_page(guest.page, share, guest.name)
        everyone = [host, *guests]

        lobby = tid("lobby")
        ticked = tick_everything(page, lobby, redrawn=True)
        for guest in guests:  # their own agreements (Piet's hints between two people)
            tick_everything(guest.page, lobby, redrawn=True)
        assert page.eval_on_selector(lobby, REFUSED_NUMBERS) == []
        # the room has what the boxes say: every ticked option is on
        for box in ticked:
            page.wait_for_function("(id) => document.getElementById(id)?.checked", arg=box)

        page.click(tid("start-game"))
        for p in everyone:
            p.page.wait_for_selector(SCREEN[variant.game])
            assert p.page.locator(lobby).count() == 0
            assert p.errors == [], p.errors
    finally:
        for p in [host, *guests]:
            p.context.close()


def create_form_message(page: Any, value: str) -> str:
    """Types ``value`` in Incognito's drawing time and taps Create room: the page
    stays, and the message under the field is returned."""
    field = tid("setting-drawing_time_limit-value")
    page.fill(field, value)
    page.click(tid("create-room"))
    message = tid("setting-drawing_time_limit-value-error")
    page.wait_for_selector(message)
    # the refused field has focus, is marked invalid and described by the message
    page.wait_for_function("() => document.activeElement.id === 'setting-drawing_time_limit-value'")
    assert page.get_attribute(field, "aria-invalid") == "true"
    assert page.get_attribute(field, "aria-describedby") == "setting-drawing_time_limit-value-error"
    assert page.url.rstrip("/").count("/r/") == 0
    return str(page.inner_text(message))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_number_says_why_next_to_the_field(browser: Any, server: Any, lang: str) -> None:
    host = new_player(browser, "Anna", "red", phone=True, locale=LOCALES[lang])
    try:
        page = host.page
        page.goto(server.http)
        page.click(tid("game-incognito"))
        page.check(tid("setting-drawing_time_limit"))
        assert page.input_value(tid("setting-drawing_time_limit-value")) == "180"

        text = create_form_message(page, "7")
        assert text == translate("settings.invalid_step", lang, step=5, lower=5, upper=10)
        text = create_form_message(page, "4000")
        assert text == translate("settings.invalid_range", lang, min=5, max=3600)
        # the message sits under its field, inside the phone's width
        field = page.locator(tid("setting-drawing_time_limit-value")).bounding_box()
        box = page.locator(tid("setting-drawing_time_limit-value-error")).bounding_box()
        assert field and box and box["y"] >= field["y"] + field["height"] - 1
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
        shot(page, f"form-refused-{lang}")

        # a right value clears the message, and the room is created with it
        page.fill(tid("setting-drawing_time_limit-value"), "185")
        assert page.locator(tid("setting-drawing_time_limit-value-error")).is_hidden()
        page.click(tid("create-room"))
        page.wait_for_url("**/r/*")
        join_page(page, page.url, host.name)
        assert page.input_value(tid("setting-drawing_time_limit-value")) == "185"

        # the lobby's form says why too, and sends nothing it refuses
        page.fill(tid("setting-rounds"), "11")
        page.dispatch_event(tid("setting-rounds"), "change")
        page.wait_for_selector(tid("setting-rounds-error"))
        assert page.inner_text(tid("setting-rounds-error")) == translate(
            "settings.invalid_range", lang, min=1, max=10)
        assert host.errors == [], host.errors
    finally:
        host.context.close()
