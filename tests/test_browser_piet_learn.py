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
    # the two moves were valued on the same games, with a verdict the page words
    verdict = phone.get_attribute(tid("piet-hint-against"), "data-verdict")
    assert verdict in ("same", "worse", "equal", "better"), verdict
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
        bob.page.get_by_label("Ich bin mit Hinweisen einverstanden").check()
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
    chart_reads_without_a_screen_reader(phone, turning)
    played_ring_shows_on_a_piece(phone)
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


def chart_reads_without_a_screen_reader(page: Any, turning: int) -> None:
    """A scale with numbers, the axes, a caption and a legend on the screen;
    each turning point a button of at least 24 px that shows its move."""
    chart = tid("piet-review-chart")
    assert page.locator(f"{chart} .piet-chart-axis").count() == 2
    scale = page.locator(f"{chart} text.piet-chart-scale").all_text_contents()
    assert "0" in scale and any(x.startswith("+") for x in scale), scale
    assert any(x.startswith("-") for x in scale) and "1" in scale, scale
    assert page.locator(f"{chart} .piet-chart-caption").is_visible()
    legend = page.locator(tid("piet-review-legend"))
    assert legend.is_visible() and legend.locator("li").count() == 3
    for li in legend.locator("li").all():
        b = li.bounding_box()
        assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"]
    targets = page.locator(tid("piet-chart-turn"))
    assert targets.count() == turning
    for k in range(targets.count()):
        b = targets.nth(k).bounding_box()
        assert b is not None and b["width"] >= 24 and b["height"] >= 24, b
    # a tap on the chart shows the move nearest it: the first, at the left end
    svg = box_of(page, f"{chart} svg")
    page.mouse.click(svg["x"] + svg["width"] * 31 / 320, svg["y"] + svg["height"] / 2)
    assert page.locator(f"{tid('piet-review-move')}.here").get_attribute("data-ply") == "0"
    if turning:
        last = targets.nth(turning - 1)
        last.click()
        ply = page.locator(f"{tid('piet-review-move')}.here").get_attribute("data-ply")
        assert page.locator(f"{tid('piet-review-move')}.turning[data-ply='{ply}']").count() == 1
        assert page.locator(tid("piet-chart-turn")).nth(turning - 1).get_attribute(
            "aria-pressed") == "true"


def box_of(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def changed_pixels(before: bytes, after: bytes) -> int:
    from io import BytesIO

    from PIL import Image, ImageChops

    a = Image.open(BytesIO(before)).convert("RGB")
    b = Image.open(BytesIO(after)).convert("RGB")
    diff = ImageChops.difference(a, b).convert("L")
    return sum(diff.point(lambda v: 255 if v > 40 else 0).histogram()[255:])


def played_ring_shows_on_a_piece(page: Any) -> None:
    """The played move's ring on a palette cell that holds a piece: drawn
    above the piece, so it changes the cell's pixels (it once changed 4)."""
    painted = page.locator(tid("piet-review-move")).filter(has_text=">")
    painted.first.locator("button").click()
    cell = page.locator(f"{tid('piet-review-palette')} .piet-cell.played").first
    with_ring = cell.screenshot()
    cell.evaluate("(el) => el.classList.remove('played')")
    without = cell.screenshot()
    cell.evaluate("(el) => el.classList.add('played')")
    box = cell.bounding_box()
    assert box is not None
    # a 3 px ring round the cell at a device scale of 2: well over a thousand pixels
    assert changed_pixels(with_ring, without) > 4 * (box["width"] * 2) * 3, box


READY = """() => {
    const coach = document.querySelector('[data-testid=piet-coach]');
    const m = document.querySelector('[data-testid=piet]');
    if (!coach || !m) return false;
    if (coach.hidden || document.querySelector('[data-testid=piet-coach-next]')) return true;
    const doing = ['pick', 'place', 'confirm', 'chain', 'empty', 'fill'];
    return m.dataset.actor === '0' && doing.includes(coach.dataset.step);
}"""

STEPS = ["palette", "pick", "place", "confirm", "computer", "chain", "points", "empty", "fill",
         "order", "masters", "end"]


def moves_now(page: Any) -> str:
    return page.get_attribute(tid("piet"), "data-moves") or ""


def until_moved(page: Any, before: str) -> None:
    page.wait_for_function(
        "(n) => document.querySelector('[data-testid=piet]')?.dataset.moves !== n", arg=before)


def in_view(page: Any, selector: str, above: float | None = None) -> None:
    """The element is on the screen without scrolling (and above ``above``,
    the top of the guide's sheet, when given)."""
    b = box_of(page, selector)
    bottom = PHONE["height"] if above is None else above
    assert b["y"] >= 0 and b["y"] + b["height"] <= bottom + 0.5, (selector, b, bottom)


def tap(page: Any, selector: str) -> None:
    """A tap on something the guide asks for: it is in view above the sheet."""
    in_view(page, selector, above=box_of(page, tid("piet-coach"))["y"])
    page.locator(selector).first.click()


def follow_the_guide(page: Any, srv: ServerProcess, code: str) -> dict[str, Any]:
    """Does what each step says, by the rings it shows, checking on the way
    that the guide's sentence and buttons are in view and its counter counts
    one by one: what it saw."""
    seen: list[str] = []
    counts: list[int] = []
    out: dict[str, Any] = {"steps": seen, "played": 0}
    ringed = f"{tid('piet-palette')} .piet-cell.coach"
    target = f"{tid('piet-canvas-0')} .piet-cell.coach"
    while True:
        page.wait_for_function(READY)
        coach = page.locator(tid("piet-coach"))
        if coach.is_hidden():
            return out
        step = coach.get_attribute("data-step") or ""
        count = int(coach.get_attribute("data-index") or "0")
        if not seen or seen[-1] != step:
            seen.append(step)
            counts.append(count)
            assert count == len(seen), (count, seen)  # the counter never jumps
            assert page.inner_text(tid("piet-coach-count")).count(str(count)) >= 1
            lang = page.evaluate("document.documentElement.lang")
            page.screenshot(path=str(ARTIFACTS / f"piet-guide-{lang}-{count:02}-{step}.png"))
        # the sentence and its buttons are on the screen, wherever the page is
        in_view(page, tid("piet-coach-text"))
        in_view(page, tid("piet-coach-leave"))
        if page.locator(tid("piet-coach-next")).count():
            in_view(page, tid("piet-coach-next"))
            if step == "points":
                assert axe_problems(page) == []  # the sheet over the board, too
                view = server_view(srv, code)
                mine = [m for m in view["moves"] if m["seat"] == 0 and ">" in m["move"]]
                out["chain"] = mine[-1]
                assert page.locator(target).count() >= 2  # the cells that scored
            page.click(tid("piet-coach-next"))
        elif step == "fill":
            before = moves_now(page)
            tap(page, f"{tid('piet-actions')} .piet-colour:not([disabled])")
            tap(page, ringed)
            until_moved(page, before)
            out["played"] += 1
        elif page.locator(tid("piet-place")).count():
            before = moves_now(page)
            picked = page.locator(f"{tid('piet-palette')} .piet-cell.selected").count()
            out.setdefault("pieces", []).append((step, picked))
            tap(page, tid("piet-place"))
            until_moved(page, before)
            out["played"] += 1
        elif page.locator(target).count():
            # every ringed cell works: take the last one
            rings = page.locator(target).count()
            out.setdefault("rings", []).append(rings)
            tap(page, f"{target} >> nth={rings - 1}")
            page.wait_for_selector(tid("piet-pending"))
        else:
            tap(page, ringed)


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("de-DE", "de"), ("uk-UA", "uk")])
def test_the_guided_first_game_teaches_step_by_step(module_server: ServerProcess, browser: Any,
                                                    locale: str, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(module_server.http)
    page.click(tid("piet-tutorial-start"))
    # the guided game's room says what to do first, before its code and link
    page.wait_for_selector(tid("piet-tutorial-lobby"))
    assert box_of(page, tid("piet-tutorial-lobby"))["y"] < box_of(page, tid("room-code"))["y"]
    page.fill(tid("join-name"), "Ann")
    page.click(tid("join-submit"))
    page.click(tid("start-game"))
    page.wait_for_selector(f"{tid('piet-coach')}[data-step=palette]")
    code = page.url.rstrip("/").split("/")[-1]
    assert page.evaluate("document.documentElement.lang") == lang
    no_wider_than_the_phone(page)
    assert axe_problems(page) == []
    # the computer's caption is the whole translated template, and the name's
    # last letter stays on one line with what follows it ("’s canvas")
    template = catalog()[lang]["pietui.canvas_of"]
    assert isinstance(template, str)
    name = page.inner_text(f"{tid('piet-player-1')} .piet-name-text")
    caption = page.locator(f"{tid('piet-caption-1')} .piet-caption-text")
    assert caption.inner_text() == template.replace("{name}", name)
    after = template.index("{name}") + len(name)
    if after < len(template.replace("{name}", name)) and not template.endswith("{name}"):
        tops = caption.evaluate("""(el, at) => {
            const text = el.firstChild, r = document.createRange();
            const top = (i) => { r.setStart(text, i); r.setEnd(text, i + 1);
                                 return r.getBoundingClientRect().top; };
            return [top(at - 1), top(at)];
        }""", after)
        assert tops[0] == tops[1], tops
    seen = follow_the_guide(page, module_server, code)
    steps = seen["steps"]
    assert steps == STEPS, steps
    # the first move took the three ringed pieces, and every later suggestion too
    # where three were ringed
    assert seen["pieces"][0] == ("confirm", 3), seen["pieces"]
    view = server_view(module_server, code)
    first = next(m for m in view["moves"] if m["seat"] == 0)
    assert len(first["move"].split(">")[0]) == 6, first
    # one step showed a chain scoring more than its pieces
    chain = seen["chain"]
    assert chain["points"] > len(chain["move"].split(">")[0]) // 2, chain
    assert page.evaluate("localStorage.getItem('atelier.piet.tutorial.done')") == "1"
    page.screenshot(path=str(ARTIFACTS / f"piet-tutorial-{lang}.png"), full_page=True)
    print(f"guided game ({lang}): {len(steps)} steps, {seen['played']} moves by the player, "
          f"chain {chain['move']} +{chain['points']}, rings {seen.get('rings')}")
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
    answer = str(first["answer"])
    board = read_record(str(first["record"])).final
    seat = board.to_move
    wrong = next(m for m in (format_move(x, brush=False) for x in legal_moves(board))
                 if m != answer.split(" !")[0])
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
    assert answer in phone.inner_text(tid("piet-puzzle-shown"))
    assert phone.locator(f"{tid('piet-puzzle')} .piet-cell.hinted").count() >= 1
    # the winning move solves it, and the list remembers
    play_by_clicking(phone, answer, seat)
    phone.wait_for_selector(tid("piet-puzzle-solved"))
    assert "solved" in (phone.get_attribute(tid(f"piet-puzzle-{first['id']}"), "class") or "")
    solved = phone.evaluate("JSON.parse(localStorage.getItem('atelier.piet.puzzles.solved'))")
    assert solved == [first["id"]]
