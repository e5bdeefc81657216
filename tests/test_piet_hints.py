"""Piet hints on a real server: allowed against the computer, refused between
two people unless they agreed in the lobby, logged in the record, and the
engine's answer only for the position whose player asked."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from atelier.games.piet.ai import choose_move
from atelier.games.piet.coach import HINT_BUDGET, puzzles, seed_of
from atelier.games.piet.game import HINT_COMMENT
from atelier.games.piet.notation import format_move, read_record
from support.server import ServerProcess, create_room
from support.ws_players import WsPlayer


def refused(player: WsPlayer, action: dict[str, Any]) -> str:
    player.ws.send(json.dumps({"t": "act", "action": action, "id": 99}))
    reply = player.expect(lambda m: m.get("t") in ("ack", "error") and m.get("id") == 99)
    assert reply["t"] == "error", reply
    code: str = reply["code"]
    return code


def two_people(server: ServerProcess, settings: dict[str, Any]) -> tuple[str, WsPlayer, WsPlayer]:
    code = create_room(server.http, "piet", settings)
    ann, bob = WsPlayer(server.ws, code), WsPlayer(server.ws, code)
    ann.join("Ann", "red")
    bob.join("Bob", "blue")
    ann.request({"t": "start"})
    ann.state(lambda m: bool(m.get("game")) and m["game"]["phase"] == "painting")
    return code, ann, bob


def test_hints_are_refused_between_people_unless_both_agreed(server: ServerProcess) -> None:
    code, ann, bob = two_people(server, {})
    assert refused(ann, {"type": "hint"}) == "piet.hints_off"
    answer = httpx.get(f"{server.http}/api/rooms/{code}/advice/hint?lang=de")
    assert answer.status_code == 400
    assert answer.json()["code"] == "piet.hint_not_asked"
    assert "Tipp" in answer.json()["message"]
    for p in (ann, bob):
        p.close()

    code, ann, bob = two_people(server, {"hints": True})
    assert refused(bob, {"type": "hint"}) == "not_your_turn"
    ann.act({"type": "hint"})
    answer = httpx.get(f"{server.http}/api/rooms/{code}/advice/hint", timeout=60)
    assert answer.status_code == 200, answer.text
    ann.act({"type": "move", "move": answer.json()["move"]})
    # the position has moved on: its hint was for the one before
    assert httpx.get(f"{server.http}/api/rooms/{code}/advice/hint").status_code == 400
    state = bob.state(lambda m: len(m["game"]["moves"]) == 1)
    assert state["game"]["hinted"] == [0]
    record = state["game"]["record"].splitlines()
    assert record[2:4] == [HINT_COMMENT, answer.json()["move"]]
    for p in (ann, bob):
        p.close()


def test_a_hint_is_the_hard_computers_move_with_its_worth(server: ServerProcess) -> None:
    code = create_room(server.http, "piet", {"opponent": "easy"})
    ann = WsPlayer(server.ws, code)
    ann.join("Ann", "red")
    ann.request({"t": "start"})
    state = ann.state(lambda m: bool(m.get("game")) and m["game"]["to_move"] == 0)
    ann.act({"type": "hint"})
    mine = state["game"]["legal_moves"][0]
    answer = httpx.get(f"{server.http}/api/rooms/{code}/advice/hint",
                       params={"against": mine}, timeout=60)
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    record = state["game"]["record"]
    board = read_record(record).final
    assert hint["move"] == format_move(choose_move(board, "hard", seed_of(record), HINT_BUDGET))
    assert hint["against"]["move"] == mine
    assert isinstance(hint["margin"], float | int)
    # asked again: the same answer (kept, and deterministic anyway)
    assert httpx.get(f"{server.http}/api/rooms/{code}/advice/hint",
                     params={"against": mine}, timeout=60).json() == hint
    ann.close()


def test_a_record_is_reviewed_once_and_puzzles_are_tried(server: ServerProcess) -> None:
    record = "setup: beginner\nbrushes: off\na1b1c1>a1\na2b2c2>a1\n"
    url = f"{server.http}/api/games/piet/advice"
    review = httpx.post(f"{url}/review", json={"record": record}, timeout=60)
    assert review.status_code == 200, review.text
    body = review.json()
    assert [p["played"] for p in body["plies"]] == ["a1b1c1>a1", "a2b2c2>a1"]
    assert len(body["positions"]) == 3 and body["positions"][0]["palette"] == "RYBYBRBRY"
    # comments and spacing aside, the same record: the kept answer
    again = httpx.post(f"{url}/review", json={"record": "# mine\n" + record}, timeout=60)
    assert again.json() == body
    refused = httpx.post(f"{url}/try", json={"record": record, "move": "a3>a1"})
    assert refused.json()["code"] == "piet.no_puzzle"
    shipped = puzzles()
    listed = httpx.post(f"{url}/puzzles", json={}, timeout=60).json()["puzzles"]
    assert [p["id"] for p in listed] == [p["id"] for p in shipped]
    assert all("answer" not in p for p in listed)
    first = shipped[0]
    tried = httpx.post(f"{url}/try", json={"record": first["record"], "move": first["answer"]},
                       timeout=60).json()
    assert tried["correct"] is True and tried["move"] == first["answer"]
    illegal = httpx.post(f"{url}/try", json={"record": first["record"], "move": "Q"})
    assert illegal.status_code == 400


def test_a_review_outlives_the_server(server_factory: Any) -> None:
    first = server_factory()
    record = "setup: beginner\nbrushes: off\na1b1c1>a1\na2b2c2>a1\na3b3c3>a2\n"
    url = "/api/games/piet/advice/review"
    computed = httpx.post(first.http + url, json={"record": record}, timeout=60).json()
    first.stop()
    # the same database in a new process: the review comes from the store, not
    # computed again (its own measured time would differ)
    second = server_factory(db=first.db)
    again = httpx.post(second.http + url, json={"record": record}, timeout=60).json()
    assert again == computed


def test_other_rooms_answer_while_a_review_computes(server_factory: Any) -> None:
    srv = server_factory()
    record = (Path(__file__).resolve().parent.parent
              / "src/atelier/games/piet/sample_game.txt").read_text(encoding="utf-8")
    answer: dict[str, Any] = {}

    def review() -> None:
        answer["r"] = httpx.post(f"{srv.http}/api/games/piet/advice/review",
                                 json={"record": record}, timeout=300)

    code = create_room(srv.http, "piet", {})
    other = WsPlayer(srv.ws, code)
    other.join("Ann", "red")
    worker = threading.Thread(target=review)
    worker.start()
    slowest = 0.0
    pings = 0
    while worker.is_alive():
        started = time.monotonic()
        other.request({"t": "ping"})
        slowest = max(slowest, time.monotonic() - started)
        pings += 1
        worker.join(0.2)  # paced by the review's end: pings within the rate limit
    other.close()
    assert answer["r"].status_code == 200
    assert len(answer["r"].json()["plies"]) == 43
    # the review ran in the pool: the event loop kept answering the whole time
    assert pings > 5
    assert slowest < 1.0, slowest
