"""Piet in a real browser (Debian's chromium) against a real server process:
a whole game against the computer played by clicking, two players on one
device (hot seat) starting from a record loaded in the lobby, with a reload
and a language switch, and a new room made from a record during a game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.browser import checked_page, join_page, server_view, tid
from support.server import ServerProcess, create_room

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's chromium"),
]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
TIMEOUT_MS = 20_000


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with checked_page(browser, TIMEOUT_MS, viewport={"width": 1280, "height": 860},
                      locale="en-GB", accept_downloads=True) as pg:
        yield pg


def data(page: Any, key: str) -> str:
    value: str = page.get_attribute(tid("piet"), f"data-{key}") or ""
    return value


def cell_classes(page: Any, board: str, cell: str) -> str:
    return page.get_attribute(tid(f"{board}-{cell}"), "class") or ""


def wait_for_turn(page: Any, moves_before: int) -> None:
    """Until a new position is shown in which this page moves, or the game is over."""
    page.wait_for_function(
        """(before) => {
            const m = document.querySelector('[data-testid=piet]');
            return m && (m.dataset.phase === 'over'
                || (Number(m.dataset.moves) > before && m.dataset.actor !== ''));
        }""",
        arg=moves_before,
    )


def play_one_move(page: Any, actor: str) -> None:
    """The simplest legal move by clicking: one piece on a free cell, or one fill."""
    if data(page, "phase") == "painting":
        page.click(f"{tid('piet-palette')} .piet-cell:not([disabled])")
        page.click(f"{tid(f'piet-canvas-{actor}')} .piet-cell.target")
        page.click(tid("piet-place"))
    else:
        page.click(f"{tid('piet-actions')} .piet-colour:not([disabled])")
        page.click(f"{tid('piet-palette')} .piet-cell.fillable")


def test_complete_game_against_the_computer(module_server: ServerProcess, page: Any,
                                            tmp_path: Path) -> None:
    # The room is made on the start page: Piet against the easy computer.
    page.goto(module_server.http)
    page.click(tid("game-piet"))
    page.select_option(tid("setting-opponent"), "easy")
    page.click(tid("create-room"))
    page.wait_for_selector(tid("lobby-join"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    summary = httpx.get(f"{module_server.http}/api/rooms/{code}").json()
    assert summary["settings"]["opponent"] == "easy"
    join_page(page, page.url, "Ann")
    page.click(tid("start-game"))
    page.wait_for_selector(tid("piet-palette"))
    assert data(page, "actor") == "0"
    assert page.text_content(tid("piet-phase")) == "Painting"

    # Two connected pieces; the preview shows where they land, and where not.
    page.click(tid("piet-palette-a1"))
    page.click(tid("piet-palette-c3"))  # not connected to a1: starts a new choice
    assert "selected" not in cell_classes(page, "piet-palette", "a1")
    page.click(tid("piet-palette-a1"))
    page.click(tid("piet-palette-b1"))
    assert "selected" in cell_classes(page, "piet-palette", "b1")
    page.hover(tid("piet-canvas-0-d1"))  # b1's piece would fall off the canvas
    assert "preview-bad" in cell_classes(page, "piet-canvas-0", "d1")
    page.hover(tid("piet-canvas-0-b2"))
    assert "preview" in cell_classes(page, "piet-canvas-0", "b2")
    assert "preview" in cell_classes(page, "piet-canvas-0", "c2")
    page.click(tid("piet-canvas-0-a1"))
    assert page.inner_text(tid("piet-pending")) == "a1b1>a1"
    page.click(tid("piet-place"))
    wait_for_turn(page, 1)
    assert page.inner_text(f"{tid('piet-moves')} li:first-child code") == "a1b1>a1"
    assert page.get_attribute(tid("piet-canvas-0-b1"), "data-colour") == "Y"

    # Then the simplest moves until the game is over.
    for _ in range(80):
        if data(page, "phase") == "over":
            break
        before = int(data(page, "moves"))
        play_one_move(page, data(page, "actor"))
        wait_for_turn(page, before)
    assert data(page, "phase") == "over"

    shown = [int(page.inner_text(tid(f"piet-score-{s}"))) for s in (0, 1)]
    view = server_view(module_server, code)
    assert shown == list(view["scores"])
    result = page.inner_text(tid("piet-result"))
    assert f"{shown[0]} : {shown[1]}" in result
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "piet-game-over.png"), full_page=True)

    # The downloaded record replays to the same scores.
    with page.expect_download() as download:
        page.click(tid("piet-download-end"))
    path = tmp_path / "record.txt"
    download.value.save_as(path)
    assert download.value.suggested_filename == f"piet-{code}.txt"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("setup: beginner\nbrushes: off\na1b1>a1\n")
    out = subprocess.run([sys.executable, "-m", "atelier", "piet", "score", str(path)],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    replayed = json.loads(out.stdout)
    assert replayed["finished"] is True
    assert [replayed["scores"]["1"], replayed["scores"]["2"]] == shown


def test_two_players_on_one_device(module_server: ServerProcess, page: Any,
                                   tmp_path: Path) -> None:
    code = create_room(module_server.http, "piet", {})
    url = f"{module_server.http}/r/{code}"
    join_page(page, url, "Ann")

    # In the lobby the host loads a record; a broken one is refused with its line.
    broken = tmp_path / "broken.txt"
    broken.write_text("setup: beginner\na1>a1\nb1>a1\nc3>a1\n", encoding="utf-8")
    page.set_input_files(tid("piet-record-load-file"), str(broken))
    page.wait_for_selector(tid("piet-record-error"), state="visible")
    assert page.inner_text(tid("piet-record-error")) == (
        "Line 4 of the record: Canvas cell a1 is already painted.")
    assert not page.is_visible("[data-testid=toast].show")  # said once, next to the button
    record = tmp_path / "start.txt"
    record.write_text("# two opening moves\nsetup: beginner\nbrushes: on\n\nb1a1>b1\nc1>d4\n",
                      encoding="utf-8")
    page.set_input_files(tid("piet-record-load-file"), str(record))
    page.wait_for_selector(tid("piet-record-loaded"))
    assert "2 moves from the record." in page.inner_text(tid("piet-record-loaded"))
    # Its headers set the paintbrushes, which stay as the record says.
    assert page.is_checked(tid("setting-brushes")) and page.is_disabled(tid("setting-brushes"))
    assert not page.locator("label[for=setting-record]").is_visible()
    settings = httpx.get(f"{module_server.http}/api/rooms/{code}").json()["settings"]
    assert settings["brushes"] is True
    assert settings["record"] == "setup: beginner\nbrushes: on\na1b1>a1\nc1>d4\n"

    page.fill(tid("piet-hotseat-name"), "Bob")
    page.click(tid("piet-hotseat-join"))
    page.wait_for_selector(tid("piet-hotseat-on"))
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=lobby-player]').length === 2")
    page.click(tid("start-game"))
    page.wait_for_selector(tid("piet-palette"))
    assert data(page, "moves") == "2"
    codes = page.locator(f"{tid('piet-moves')} code").all_inner_texts()
    assert codes == ["a1b1>a1", "c1>d4"]
    assert page.get_attribute(tid("piet-canvas-1-d4"), "data-colour") == "B"

    # Ann paints and, before placing, spends a brush on Bob's blue d4.
    assert "Ann, your turn" in page.inner_text(tid("piet-turn-text"))
    page.click(tid("piet-palette-c2"))
    page.click(tid("piet-canvas-0-c1"))
    page.click(tid("piet-canvas-1-d4"))
    assert page.locator(tid("piet-brush-B")).count() == 0  # it is blue already
    page.click(tid("piet-brush-Y"))
    assert page.inner_text(tid("piet-pending")) == "c2>c1 !d4=Y"
    page.click(tid("piet-place"))
    wait_for_turn(page, 2)
    assert page.get_attribute(tid("piet-canvas-1-d4"), "data-colour") == "Y"
    assert page.inner_text(tid("piet-brushes-0")) == "✎ 1"

    # Then Bob, on the same page.
    assert "Bob, your turn" in page.inner_text(tid("piet-turn-text"))
    play_one_move(page, "1")
    wait_for_turn(page, 3)

    # Back after a reload: both seats still play here; German on request.
    page.reload()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=piet]')?.dataset.actor === '0'")
    # the second seat's own connection comes back after the page's: wait for both
    page.wait_for_function(
        "() => document.querySelector('[data-testid=piet-turn-text]')?.textContent"
        ".includes('Ann, your turn')")
    page.select_option(tid("lang-select"), "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=piet-turn-text]')?.textContent"
        ".includes('Ann, du bist dran')")
    view = server_view(module_server, code)
    assert view["scores"] == [int(page.inner_text(tid(f"piet-score-{s}"))) for s in (0, 1)]
    assert [m["move"] for m in view["moves"]][:3] == ["a1b1>a1", "c1>d4", "c2>c1 !d4=Y"]


def test_two_friends_through_the_link(module_server: ServerProcess, browser: Any) -> None:
    code = create_room(module_server.http, "piet", {})
    url = f"{module_server.http}/r/{code}"
    ann = browser.new_context(viewport={"width": 1280, "height": 860})
    bob = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True)
    try:
        a, b = ann.new_page(), bob.new_page()
        for pg in (a, b):
            pg.set_default_timeout(TIMEOUT_MS)
        join_page(a, url, "Ann")
        join_page(b, url, "Bob")
        a.click(tid("start-game"))
        for pg in (a, b):
            pg.wait_for_selector(tid("piet-palette"))
        assert data(b, "actor") == ""
        assert "Ann" in b.inner_text(tid("piet-turn-text"))
        # two people who did not agree to hints: no record to take to an engine,
        # no review of one, while their game runs
        for pg in (a, b):
            assert pg.locator(tid("piet-download")).is_hidden()
            assert pg.locator(tid("piet-review-record")).is_hidden()
            assert pg.locator(tid("piet-load")).is_visible()  # a new room from a file is fine
        play_one_move(a, "0")
        wait_for_turn(b, 0)
        assert data(b, "actor") == "1"
        b.tap(f"{tid('piet-palette')} .piet-cell:not([disabled])")
        b.tap(f"{tid('piet-canvas-1')} .piet-cell.target")
        ARTIFACTS.mkdir(exist_ok=True)
        b.screenshot(path=str(ARTIFACTS / "piet-phone-move.png"), full_page=True)
        b.tap(tid("piet-place"))
        wait_for_turn(a, 1)
        # Bob closes the tab and comes back through the link: same seat, same game.
        b.close()
        b = bob.new_page()
        b.goto(url)
        b.wait_for_selector(tid("piet-palette"))
        assert b.get_attribute(tid("piet"), "data-moves") == "2"
        assert "Bob" in b.inner_text(tid("piet-player-1"))
        assert b.locator(f"{tid('piet-player-1')} .badge.you").count() == 1
    finally:
        ann.close()
        bob.close()


def test_the_computer_can_start(module_server: ServerProcess, page: Any) -> None:
    code = create_room(module_server.http, "piet", {"opponent": "medium", "computer_seat": 0})
    join_page(page, f"{module_server.http}/r/{code}", "Ann")
    page.click(tid("start-game"))
    wait_for_turn(page, 0)
    assert data(page, "actor") == "1"
    assert "Computer" in page.inner_text(tid("piet-player-0"))
    assert page.locator(f"{tid('piet-moves')} li").count() == 1


def test_a_new_room_from_a_record_during_a_game(module_server: ServerProcess, page: Any,
                                                tmp_path: Path) -> None:
    code = create_room(module_server.http, "piet", {"opponent": "easy"})
    join_page(page, f"{module_server.http}/r/{code}", "Ann")
    page.click(tid("start-game"))
    page.wait_for_selector(tid("piet-palette"))
    play_one_move(page, "0")
    wait_for_turn(page, 1)
    # against the computer hints are allowed: so are the record and its review
    assert page.locator(tid("piet-download")).is_visible()
    assert page.locator(tid("piet-review-record")).is_visible()

    # A broken record leaves this game be and says why, in the page's language.
    page.select_option(tid("lang-select"), "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    broken = tmp_path / "broken.txt"
    broken.write_text("setup: empty\nb2>a1\n", encoding="utf-8")
    page.set_input_files(tid("piet-load-file"), str(broken))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=toast]')?.textContent.startsWith('Zeile 2')")
    assert "Jetzt wird die Palette gefüllt" in page.inner_text(tid("toast"))
    assert f"/r/{code}" in page.url

    # A good one opens a new room against the same computer, after its moves.
    record = tmp_path / "record.txt"
    record.write_text("a1b1>a1\nc1>d4\nc3>d4\n", encoding="utf-8")
    page.set_input_files(tid("piet-load-file"), str(record))
    page.wait_for_url(lambda url: f"/r/{code}" not in url and "/r/" in url)
    page.wait_for_selector(tid("piet-record-loaded"))
    assert "3 Züge aus der Partiedatei geladen" in page.inner_text(tid("piet-record-loaded"))
    new_code = page.url.rstrip("/").rsplit("/", 1)[1]
    summary = httpx.get(f"{module_server.http}/api/rooms/{new_code}").json()
    assert summary["settings"]["opponent"] == "easy"
    join_page(page, page.url, "Ann")
    page.click(tid("start-game"))
    # Player 2 (the computer) moves after the record's three moves, then Ann.
    wait_for_turn(page, 3)
    assert data(page, "actor") == "0"
    codes = page.locator(f"{tid('piet-moves')} code").all_inner_texts()
    assert codes[:3] == ["a1b1>a1", "c1>d4", "c3>d4"] and len(codes) == 4
    view = server_view(module_server, new_code)
    assert view["loaded_moves"] == 3 and view["record"].splitlines()[2:5] == codes[:3]
    # The old game is still there.
    assert server_view(module_server, code)["moves"][0]["seat"] == 0
