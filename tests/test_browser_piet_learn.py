"""Learning Piet in a real browser on a 360x740 phone: a hint shown on the
board, the review of a finished game with its chart, the guided first game
in all three languages, and a puzzle solved; axe-core finds no serious issue
on these screens."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from atelier.games.piet.ai import choose_move
from atelier.games.piet.coach import HINT_BUDGET, puzzles, seed_of
from atelier.games.piet.notation import Record, format_move, read_record
from atelier.games.piet.rules import OVER, Move, legal_moves, new_game, play
from atelier.i18n import catalog
from support.browser import (
    ARTIFACTS,
    PHONE,
    axe_serious,
    checked_page,
    join,
    new_player,
    server_view,
    tid,
)
from support.server import ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="needs Debian's chromium"),
]

TIMEOUT_MS = 30_000


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    with checked_page(browser, TIMEOUT_MS, viewport=PHONE, device_scale_factor=2,
                      is_mobile=True, has_touch=True, locale="en-GB") as pg:
        yield pg


def axe_problems(page: Any) -> list[str]:
    return [f"{v['id']}: {[n['target'][0] for n in v['nodes'][:3]]}" for v in axe_serious(page)]


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


def test_two_people_who_both_agree_get_hints(module_server: ServerProcess, browser: Any) -> None:
    r = httpx.post(module_server.http + "/api/rooms", json={"game": "piet", "settings": {}})
    assert r.status_code == 201, r.text
    url = f"{module_server.http}/r/{r.json()['code']}"
    ann = new_player(browser, "Ann", "red", phone=True)
    bob = new_player(browser, "Bob", "blue", phone=True, locale="de-DE")
    try:
        for player in (ann, bob):
            join(player, url)
        # the host's form has no hints: each player ticks their own box
        ann.page.wait_for_selector(tid("piet-agree"))
        assert ann.page.locator(tid("setting-hints")).count() == 0
        ann.page.get_by_label("I agree to hints").check()
        bob.page.wait_for_selector(f"{tid('piet-agreed')} li.yes")
        assert bob.page.locator(tid("piet-agree-all")).count() == 0
        bob.page.get_by_label("Ich bin mit Tipps einverstanden").check()
        for player in (ann, bob):
            player.page.wait_for_selector(tid("piet-agree-all"))
            no_wider_than_the_phone(player.page)
        assert axe_problems(bob.page) == []
        ann.click("start-game")
        ann.page.wait_for_selector(f"{tid('piet')}[data-actor='0']")
        ann.click("piet-hint")
        ann.page.wait_for_selector(tid("piet-hint-move"))
        assert server_view(module_server, r.json()["code"])["hinted"] == [0]
        assert ann.errors == [] and bob.errors == []
    finally:
        for player in (ann, bob):
            player.context.close()


def nearly_over(human: int = 0) -> str:
    """A record of an easy-against-easy game stopped a few moves before its end,
    at a position where ``human`` is to move (the room's computer has the other seat)."""
    board = new_game()
    moves: list[Move] = []
    boards = [board]
    seed = 0
    while board.phase != OVER:
        move = choose_move(board, "easy", seed)
        seed += 1
        board, _ = play(board, move)
        moves.append(move)
        boards.append(board)
    cut = next(k for k in range(len(moves) - 3, 0, -1)
               if boards[k].to_move == human and boards[k].phase != OVER)
    return Record("beginner", False, moves[:cut]).text()


def play_to_the_end(page: Any) -> None:
    while True:
        page.wait_for_function("""() => {
            const m = document.querySelector('[data-testid=piet]');
            return m && (m.dataset.phase === 'over' || m.dataset.actor === '0');
        }""")
        if page.get_attribute(tid("piet"), "data-phase") == "over":
            return
        moves = page.get_attribute(tid("piet"), "data-moves")
        if page.get_attribute(tid("piet"), "data-phase") == "painting":
            page.click(f"{tid('piet-palette')} .piet-cell:not([disabled])")
            page.click(f"{tid('piet-canvas-0')} .piet-cell.target")
            page.click(tid("piet-place"))
        else:
            page.click(f"{tid('piet-actions')} .piet-colour:not([disabled])")
            page.click(f"{tid('piet-palette')} .piet-cell.fillable")
        page.wait_for_function(
            "(n) => document.querySelector('[data-testid=piet]')?.dataset.moves !== n", arg=moves)


def test_the_review_opens_from_game_over_and_at_once_the_second_time(
        module_server: ServerProcess, phone: Any) -> None:
    r = httpx.post(module_server.http + "/api/rooms", json={
        "game": "piet", "settings": {"opponent": "easy", "record": nearly_over()}})
    code = r.json()["code"]
    phone.goto(f"{module_server.http}/r/{code}")
    phone.fill(tid("join-name"), "Ann")
    phone.click(tid("join-submit"))
    phone.click(tid("start-game"))
    # a hint before the first move: the review says which move followed it
    phone.click(tid("piet-hint"))
    phone.wait_for_selector(tid("piet-hint-move"))
    hinted_ply = int(phone.get_attribute(tid("piet"), "data-moves") or "")
    play_to_the_end(phone)
    phone.click(tid("piet-review-open"))
    phone.wait_for_selector(f"{tid('piet-review')}[data-ready='1']", timeout=120_000)
    total = len(server_view(module_server, code)["moves"])
    assert phone.locator(tid("piet-review-move")).count() == total
    assert phone.locator(f"{tid('piet-review-chart')} polyline").count() == 1
    marked = phone.locator(f"{tid('piet-review-move')}:has({tid('piet-review-hinted')})")
    assert marked.count() == 1 and marked.get_attribute("data-ply") == str(hinted_ply)
    turning = phone.locator(f"{tid('piet-review-move')}.turning").count()
    assert phone.locator(f"{tid('piet-review-chart')} .piet-chart-turn").count() >= turning - 1
    # "show the best move here": the position before that move, the best move ringed
    last = phone.locator(tid("piet-review-move")).nth(total - 1)
    last.locator("button").click()
    assert "here" in (last.get_attribute("class") or "")
    assert last.locator("button").get_attribute("aria-pressed") == "true"
    best = phone.locator(f"{tid('piet-review-board')} .piet-cell.hinted, "
                         f"{tid('piet-review-palette')} .piet-cell.hinted")
    assert best.count() >= 1
    no_wider_than_the_phone(phone)
    assert axe_problems(phone) == []
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "piet-review-phone.png"), full_page=True)
    # back to the game, and the room's link with ?review opens it again, computed already
    phone.click(tid("piet-review-close"))
    phone.wait_for_selector(tid("piet-result"))
    started = time.monotonic()
    token = phone.evaluate("(code) => localStorage.getItem(`atelier.token.${code}`)", code)
    again = httpx.get(f"{module_server.http}/api/rooms/{code}/advice/review", timeout=60,
                      headers={"Authorization": f"Bearer {token}"})
    assert again.status_code == 200 and time.monotonic() - started < 2.0
    phone.goto(f"{module_server.http}/r/{code}?review")
    phone.wait_for_selector(f"{tid('piet-review')}[data-ready='1']")
    assert len(again.json()["plies"]) == total


READY = """() => {
    const coach = document.querySelector('[data-testid=piet-coach]');
    const m = document.querySelector('[data-testid=piet]');
    if (!coach || !m) return false;
    if (coach.hidden || document.querySelector('[data-testid=piet-coach-next]')) return true;
    const doing = ['pick', 'place', 'confirm', 'empty', 'fill'];
    return m.dataset.actor === '0' && doing.includes(coach.dataset.step);
}"""


def moves_now(page: Any) -> str:
    return page.get_attribute(tid("piet"), "data-moves") or ""


def until_moved(page: Any, before: str) -> None:
    page.wait_for_function(
        "(n) => document.querySelector('[data-testid=piet]')?.dataset.moves !== n", arg=before)


def follow_the_guide(page: Any) -> tuple[list[str], int]:
    """Does what each step says, by the rings it shows: the steps seen, and the
    moves the player made."""
    seen: list[str] = []
    played = 0
    while True:
        page.wait_for_function(READY)
        coach = page.locator(tid("piet-coach"))
        if coach.is_hidden():
            return seen, played
        step = coach.get_attribute("data-step") or ""
        if not seen or seen[-1] != step:
            seen.append(step)
        ringed = f"{tid('piet-palette')} .piet-cell.coach"
        target = f"{tid('piet-canvas-0')} .piet-cell.coach"
        if page.locator(tid("piet-coach-next")).count():
            page.click(tid("piet-coach-next"))
        elif step == "fill":
            before = moves_now(page)
            page.click(f"{tid('piet-actions')} .piet-colour:not([disabled])")
            page.click(f"{ringed} >> nth=0")
            until_moved(page, before)
            played += 1
        elif step == "confirm" or page.locator(tid("piet-place")).count():
            before = moves_now(page)
            page.click(tid("piet-place"))
            until_moved(page, before)
            played += 1
        elif page.locator(target).count():
            page.click(f"{target} >> nth=0")
        else:
            page.click(f"{ringed} >> nth=0")


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("de-DE", "de"), ("uk-UA", "uk")])
def test_the_guided_first_game_completes(module_server: ServerProcess, browser: Any,
                                         locale: str, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(module_server.http)
    page.click(tid("piet-tutorial-start"))
    page.fill(tid("join-name"), "Ann")
    page.click(tid("join-submit"))
    page.wait_for_selector(tid("piet-tutorial-lobby"))
    page.click(tid("start-game"))
    page.wait_for_selector(f"{tid('piet-coach')}[data-step=palette]")
    assert page.evaluate("document.documentElement.lang") == lang
    no_wider_than_the_phone(page)
    assert axe_problems(page) == []
    steps, played = follow_the_guide(page)
    # every step shown, in order (the computer's may pass unseen: it moved already)
    assert [s for s in steps if s != "computer"] == [
        "palette", "pick", "place", "confirm", "points", "empty", "fill", "order", "masters",
        "end"], steps
    assert page.evaluate("localStorage.getItem('atelier.piet.tutorial.done')") == "1"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"piet-tutorial-{lang}.png"), full_page=True)
    print(f"guided game ({lang}): {len(steps)} steps, {played} moves by the player")
    # remembered on the device: the start page offers to take it again
    page.goto(module_server.http)
    assert page.inner_text(tid("piet-tutorial-start")) == catalog()[lang]["learn.tutorial.again"]
    context.close()
    assert errors == [], errors


def play_by_clicking(page: Any, move: str, seat: int) -> None:
    """A move in notation, made on the board as a person would."""
    if "@" in move:
        colour, cell = move.split("@")
        page.click(tid(f"piet-fill-{colour}"))
        page.click(tid(f"piet-palette-{cell}"))
        return
    head, _, brush = move.partition(" !")
    cells, target = head.split(">")
    for k in range(0, len(cells), 2):
        page.click(tid(f"piet-palette-{cells[k:k + 2]}"))
    page.click(tid(f"piet-canvas-{seat}-{target}"))
    if brush:
        cell, colour = brush.split("=")
        page.click(tid(f"piet-canvas-{1 - seat}-{cell}"))
        page.click(tid(f"piet-brush-{colour}"))
    page.click(tid("piet-place"))


def test_a_puzzle_is_solved_on_the_board(module_server: ServerProcess, phone: Any) -> None:
    shipped = puzzles()
    assert shipped, "no puzzles shipped"
    first = shipped[0]
    board = read_record(first["record"]).final
    seat = board.to_move
    wrong = next(m for m in (format_move(x, brush=False) for x in legal_moves(board))
                 if m != first["answer"].split(" !")[0])
    phone.goto(module_server.http)
    phone.click(tid("piet-puzzles-open"))
    phone.wait_for_selector(f"{tid('piet-puzzles')}[data-ready='1']")
    assert phone.locator(f"{tid('piet-puzzle-list')} li").count() == len(shipped)
    phone.click(tid(f"piet-puzzle-{first['id']}"))
    phone.wait_for_selector(f"{tid('piet-puzzle')}[data-id={first['id']}]")
    # a move that does not win says so, with its worth, and offers the answer
    play_by_clicking(phone, wrong, seat)
    phone.wait_for_selector(tid("piet-puzzle-wrong"))
    assert wrong in phone.inner_text(tid("piet-puzzle-wrong"))
    no_wider_than_the_phone(phone)
    assert axe_problems(phone) == []
    phone.click(tid("piet-puzzle-answer"))
    phone.wait_for_selector(tid("piet-puzzle-shown"))
    assert first["answer"] in phone.inner_text(tid("piet-puzzle-shown"))
    assert phone.locator(f"{tid('piet-puzzle')} .piet-cell.hinted").count() >= 1
    # the winning move solves it, and the list remembers
    play_by_clicking(phone, first["answer"], seat)
    phone.wait_for_selector(tid("piet-puzzle-solved"))
    assert "solved" in (phone.get_attribute(tid(f"piet-puzzle-{first['id']}"), "class") or "")
    solved = phone.evaluate("JSON.parse(localStorage.getItem('atelier.piet.puzzles.solved'))")
    assert solved == [first["id"]]
