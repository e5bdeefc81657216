"""The engine's advice over HTTP on a real server, against the attacks of
issue 33 and the consent of issue 29: a flood from one address, a page posting
text/plain, a killed worker, a stop with a full queue, an outsider with the
room code, and a review that would advise a live game nobody agreed to."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from atelier.games.piet.notation import format_move, read_record
from atelier.games.piet.rules import OVER, legal_moves, play
from atelier.server.cli import SHUTDOWN_GRACE
from atelier.server.room.rooms import STOP_SECONDS
from support.server import ServerProcess, create_room
from support.ws_players import WsPlayer

START = "setup: beginner\nbrushes: off\n"
REVIEW = "/api/games/piet/advice/review"


def played_out(record: str, seed: int) -> str:
    """``record`` played on to the game's end with moves picked by ``seed``."""
    state = read_record(record).final
    moves: list[str] = []
    pick = random.Random(seed)
    while state.phase != OVER:
        move = pick.choice(sorted(legal_moves(state), key=format_move))
        state = play(state, move)[0]
        moves.append(format_move(move))
    return record.rstrip("\n") + "\n" + "".join(f"{m}\n" for m in moves)


def first_moves() -> list[str]:
    return sorted(format_move(m) for m in legal_moves(read_record(START).final))


def engine(srv: ServerProcess) -> dict[str, Any]:
    stats: dict[str, Any] = httpx.get(srv.http + "/healthz", timeout=10).json()["engine"]
    return stats


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"{what}: not within {timeout} s"
        time.sleep(0.05)


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def engine_server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    # two engine processes as on the smallest machine; X-Forwarded-For believed
    # from the test, so one test speaks from many addresses. The engine in Python
    # (as installed without a C compiler): these tests hang up on, kill and
    # stop reviews while they run, and compiled, a review here lasts a quarter of a second.
    return server_factory("--engine-workers", "2", "--forwarded-allow-ips", "127.0.0.1",
                          env={"ATELIER_PURE_PYTHON": "1"})


def hinted_room(srv: ServerProcess, address: str) -> tuple[str, WsPlayer]:
    """A game against the computer whose player to move asked for a hint."""
    code = create_room(srv.http, "piet", {"opponent": "easy"})
    ann = WsPlayer(srv.ws, code)
    ann.join("Ann", "red")
    ann.request({"t": "start"})
    ann.state(lambda m: bool(m.get("game")) and m["game"]["to_move"] == 0)
    ann.act({"type": "hint"})
    return code, ann


def test_a_text_plain_or_form_review_is_refused_with_415(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = engine_server(server_factory)
    body = '{"record": "setup: beginner\\n"}'
    for media in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        refused = httpx.post(srv.http + REVIEW + "?lang=de", content=body,
                             headers={"Content-Type": media})
        assert refused.status_code == 415, (media, refused.text)
        assert refused.json()["code"] == "json_required"
        assert "JSON" in refused.json()["message"] and "Sende" in refused.json()["message"]
    assert engine(srv)["workers"] == 0  # nothing was started for them


def test_eight_reviews_from_one_address_then_a_hang_up_leave_others_their_hints(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = engine_server(server_factory)
    code, ann = hinted_room(srv, "198.51.100.2")
    records = [played_out(START, seed) for seed in range(8)]
    answers: list[Any] = [None] * 8

    def review(n: int) -> None:
        try:  # the attacker hangs up after 4 s
            answers[n] = httpx.post(srv.http + REVIEW, json={"record": records[n]},
                                    headers=from_address("203.0.113.66"), timeout=4)
        except httpx.TimeoutException:
            answers[n] = "hung up"

    flood = [threading.Thread(target=review, args=(n,)) for n in range(8)]
    for thread in flood:
        thread.start()
    wait_for(lambda: sum(a is not None for a in answers) >= 6, "the refusals")
    refused = [a for a in answers if isinstance(a, httpx.Response)]
    assert len(refused) == 6
    for answer in refused:  # its share is two: the rest refused at once, saying when
        assert answer.status_code == 429 and answer.json()["code"] == "advice_too_many"
        assert int(answer.headers["Retry-After"]) >= 1
    # another address's hint while the attacker's two reviews run
    hint = httpx.get(f"{srv.http}/api/rooms/{code}/advice/hint", headers={
        **ann.bearer, **from_address("198.51.100.2")}, timeout=60)
    assert hint.status_code == 200, hint.text
    assert hint.json()["move"] in ann.state(lambda m: True)["game"]["legal_moves"]
    for thread in flood:
        thread.join()
    assert answers.count("hung up") == 2
    # the attacker has gone: its searches stop, nothing is left running or queued
    wait_for(lambda: engine(srv)["running"] == 0 and engine(srv)["queued"]["study"] == 0,
             "the hung-up reviews stopped", timeout=20)
    assert engine(srv)["replaced"] >= 1
    # and the engine answers the next asker (another address, a whole review)
    ok = httpx.post(srv.http + REVIEW, json={"record": records[0]},
                    headers=from_address("198.51.100.3"), timeout=120)
    assert ok.status_code == 200, ok.text
    ann.close()


def test_a_killed_worker_gives_a_clear_error_then_working_advice(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = engine_server(server_factory)
    record = played_out(START, 11)
    answer: dict[str, httpx.Response] = {}

    def review() -> None:
        answer["r"] = httpx.post(srv.http + REVIEW + "?lang=uk", json={"record": record},
                                 timeout=120)

    asker = threading.Thread(target=review)
    asker.start()
    wait_for(lambda: engine(srv)["running"] == 1, "the review running")
    killed = engine(srv)["pids"]
    for pid in killed:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    asker.join()
    failed = answer["r"]
    assert failed.status_code == 503, failed.text
    assert failed.json()["code"] == "engine_failed" and failed.headers["Retry-After"] == "1"
    assert "перезапущений" in failed.json()["message"]
    wait_for(lambda: len(engine(srv)["pids"]) == 2
             and not set(engine(srv)["pids"]) & set(killed), "new workers")
    again = httpx.post(srv.http + REVIEW, json={"record": record}, timeout=120)
    assert again.status_code == 200, again.text
    assert len(again.json()["plies"]) == len(read_record(record).states) - 1


def test_sigterm_with_a_full_queue_stops_within_the_grace(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = engine_server(server_factory)
    answers: list[Any] = []

    def review(n: int) -> None:
        try:
            answers.append(httpx.post(srv.http + REVIEW, json={"record": played_out(START, n)},
                                      headers=from_address(f"203.0.113.{n // 2}"), timeout=60))
        except httpx.HTTPError as error:
            answers.append(error)

    askers = [threading.Thread(target=review, args=(n,)) for n in range(24)]
    for thread in askers:
        thread.start()
    wait_for(lambda: engine(srv)["queued"]["study"] + engine(srv)["running"] >= 20,
             "a full queue")
    assert srv.proc is not None
    started = time.monotonic()
    srv.proc.send_signal(signal.SIGTERM)
    srv.proc.wait(SHUTDOWN_GRACE + STOP_SECONDS + 5)
    took = time.monotonic() - started
    for thread in askers:
        thread.join()
    assert took < SHUTDOWN_GRACE + STOP_SECONDS, took
    # every asker heard: the engine is stopping (or the connection closed with the server)
    stopping = [a for a in answers if isinstance(a, httpx.Response)]
    assert all(a.status_code == 503 and a.json()["code"] == "engine_stopping" for a in stopping)


def test_only_seated_players_read_or_start_a_rooms_advice(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = engine_server(server_factory)
    code, ann = hinted_room(srv, "198.51.100.2")
    watcher = WsPlayer(srv.ws, code)  # a spectator: has the room code, sits nowhere
    url = f"{srv.http}/api/rooms/{code}/advice/hint"
    mine = ann.state(lambda m: True)["game"]["legal_moves"][0]
    before = engine(srv)
    for headers in ({}, {"Authorization": "Bearer not-a-token"},
                    {"Authorization": f"Basic {ann.token}"}):
        for params in ({}, {"against": mine}):
            outsider = httpx.get(url, params={**params, "lang": "de"}, headers=headers)
            assert outsider.status_code == 403, outsider.text
            assert outsider.json()["code"] == "advice_players_only"
            assert "Partie" in outsider.json()["message"]
    review = httpx.get(f"{srv.http}/api/rooms/{code}/advice/review")
    assert review.status_code == 403
    after = engine(srv)  # none of them started any work
    assert (after["done"], after["running"]) == (before["done"], before["running"])
    seated = httpx.get(url, params={"against": mine}, headers=ann.bearer, timeout=60)
    assert seated.status_code == 200 and seated.json()["against"]["move"] == mine
    for p in (ann, watcher):
        p.ws.close()


def test_no_review_reaches_a_live_game_between_people_who_did_not_agree(
        server_factory: Callable[..., ServerProcess]) -> None:
    srv = engine_server(server_factory)
    code = create_room(srv.http, "piet", {})
    ann, bob = WsPlayer(srv.ws, code), WsPlayer(srv.ws, code)
    ann.join("Ann", "red")
    bob.join("Bob", "blue")
    ann.request({"t": "start"})
    state = ann.state(lambda m: bool(m.get("game")) and m["game"]["to_move"] == 0)
    assert state["game"]["hints"] is False
    ann_move = state["game"]["legal_moves"][0]
    ann.act({"type": "move", "move": ann_move})
    state = bob.state(lambda m: bool(m.get("game")) and len(m["game"]["moves"]) == 1)
    live = state["game"]["record"]
    # the room's record plus one legal move: unfinished, refused
    plus_one = live.rstrip("\n") + "\n" + state["game"]["legal_moves"][0] + "\n"
    refused = httpx.post(srv.http + REVIEW, json={"record": plus_one})
    assert refused.status_code == 400 and refused.json()["code"] == "piet.review_not_over"
    # played on to the end: it passes the live position, refused too
    whole = played_out(live, 3)
    refused = httpx.post(srv.http + REVIEW + "?lang=de", json={"record": whole})
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "piet.review_live_game"
    assert "Partie" in refused.json()["message"]
    # the room's own review is for after the game, for its players
    early = httpx.get(f"{srv.http}/api/rooms/{code}/advice/review", headers=bob.bearer)
    assert early.status_code == 400 and early.json()["code"] == "piet.review_not_over"
    # a finished game that never passes the live position is reviewed meanwhile
    opening = next(m for m in first_moves() if m != ann_move)
    unrelated = played_out(START + opening + "\n", 99)
    reviewed = httpx.post(srv.http + REVIEW, json={"record": unrelated}, timeout=120)
    assert reviewed.status_code == 200, reviewed.text
    for p in (ann, bob):
        p.ws.close()
