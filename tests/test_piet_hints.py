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


def error_of(player: WsPlayer, msg: dict[str, Any]) -> dict[str, Any]:
    """The error ``msg`` is refused with (the test fails on an ack)."""
    player.ws.send(json.dumps({**msg, "id": 98}))
    reply: dict[str, Any] = player.expect(
        lambda m: m.get("t") in ("ack", "error") and m.get("id") == 98)
    assert reply["t"] == "error", reply
    return reply


def agreed(state: dict[str, Any]) -> dict[str, list[str]]:
    return {p["name"]: p["agreed"] for p in state["room"]["players"]}


def lobby_of_two(server: ServerProcess, agree: tuple[str, ...] = ()) -> tuple[
        str, WsPlayer, WsPlayer]:
    """Ann (host) and Bob in a Piet lobby; the named ones agreed to hints."""
    code = create_room(server.http, "piet", {})
    ann, bob = WsPlayer(server.ws, code), WsPlayer(server.ws, code)
    ann.join("Ann", "red")
    bob.join("Bob", "blue")
    for player, name in ((ann, "Ann"), (bob, "Bob")):
        if name in agree:
            player.request({"t": "agree", "name": "hints", "on": True})
    ann.state(lambda m: all(("hints" in v) == (k in agree) for k, v in agreed(m).items())
              and len(agreed(m)) == 2)
    return code, ann, bob


def two_people(server: ServerProcess, agree: tuple[str, ...] = ()) -> tuple[
        str, WsPlayer, WsPlayer]:
    code, ann, bob = lobby_of_two(server, agree)
    ann.request({"t": "start"})
    ann.state(lambda m: bool(m.get("game")) and m["game"]["phase"] == "painting")
    return code, ann, bob


def test_hints_are_refused_between_people_unless_both_agreed(server: ServerProcess) -> None:
    for agree in ((), ("Ann",), ("Bob",)):
        code, ann, bob = two_people(server, agree)
        state = ann.state(lambda m: m["room"]["phase"] == "playing")
        assert state["game"]["hints"] is False and state["room"]["settings"]["hints"] is False
        assert refused(ann, {"type": "hint"}) == "piet.hints_off", agree
        answer = httpx.get(f"{server.http}/api/rooms/{code}/advice/hint?lang=de",
                           headers=ann.bearer)
        assert answer.status_code == 400
        assert answer.json()["code"] == "piet.hint_not_asked"
        assert "Hinweis" in answer.json()["message"]
        for p in (ann, bob):
            p.close()

    code, ann, bob = two_people(server, ("Ann", "Bob"))
    assert refused(bob, {"type": "hint"}) == "not_your_turn"
    ann.act({"type": "hint"})
    answer = httpx.get(f"{server.http}/api/rooms/{code}/advice/hint", timeout=60,
                       headers=ann.bearer)
    assert answer.status_code == 200, answer.text
    ann.act({"type": "move", "move": answer.json()["move"]})
    # the position has moved on: its hint was for the one before
    assert httpx.get(f"{server.http}/api/rooms/{code}/advice/hint",
                     headers=bob.bearer).status_code == 400
    state = bob.state(lambda m: len(m["game"]["moves"]) == 1)
    assert state["game"]["hinted"] == [0]
    record = state["game"]["record"].splitlines()
    assert record[2:4] == [HINT_COMMENT, answer.json()["move"]]
    for p in (ann, bob):
        p.close()


def test_an_agreement_taken_back_or_lost_by_leaving_does_not_count(
        server: ServerProcess) -> None:
    _, ann, bob = lobby_of_two(server, ("Ann", "Bob"))
    bob.request({"t": "agree", "name": "hints", "on": False})
    ann.state(lambda m: agreed(m) == {"Ann": ["hints"], "Bob": []})
    bob.request({"t": "agree", "name": "hints", "on": True})
    bob.request({"t": "leave"})
    ann.state(lambda m: agreed(m) == {"Ann": ["hints"]})
    # Bob sits down again: a new player, who has agreed to nothing yet
    bob.join("Bob", "blue")
    ann.state(lambda m: agreed(m) == {"Ann": ["hints"], "Bob": []})
    ann.request({"t": "start"})
    state = bob.state(lambda m: m["room"]["phase"] == "playing")
    assert state["game"]["hints"] is False
    for p in (ann, bob):
        p.close()


def test_agreeing_outside_the_lobby_or_to_nothing_changes_nothing(server: ServerProcess) -> None:
    code, ann, bob = lobby_of_two(server, ("Ann",))
    seq = ann.state(lambda m: True)["seq"]
    unknown = error_of(bob, {"t": "agree", "name": "record", "on": True})
    assert unknown["code"] == "agree_unknown" and "record" in unknown["message"]
    assert error_of(bob, {"t": "agree", "name": "hints", "on": "yes"})["code"] == "bad_message"
    watcher = WsPlayer(server.ws, code)  # not seated: agrees for nobody
    assert error_of(watcher, {"t": "agree", "name": "hints", "on": True})["code"] == "not_joined"
    ann.request({"t": "ping"})
    assert ann.state(lambda m: True)["seq"] == seq
    ann.request({"t": "start"})
    ann.state(lambda m: m["room"]["phase"] == "playing")
    late = error_of(bob, {"t": "agree", "name": "hints", "on": True})
    assert late["code"] == "agree_not_in_lobby"
    state = bob.state(lambda m: m["room"]["phase"] == "playing")
    assert state["game"]["hints"] is False and agreed(state)["Bob"] == []
    assert refused(ann, {"type": "hint"}) == "piet.hints_off"
    for p in (ann, bob, watcher):
        p.close()


def test_the_host_cannot_set_hints(server: ServerProcess) -> None:
    _, ann, bob = lobby_of_two(server)
    refusal = error_of(ann, {"t": "settings", "settings": {"hints": True}})
    assert refusal["code"] == "agree_not_a_setting" and "hints" in refusal["message"]
    created = httpx.post(f"{server.http}/api/rooms",
                         json={"game": "piet", "settings": {"hints": True}, "language": "de"})
    assert created.status_code == 400 and created.json()["code"] == "agree_not_a_setting"
    # the form leaves it out: the lobby says which settings are the players' own
    state = ann.state(lambda m: True)
    assert state["room"]["agreements"] == ["hints"]
    for p in (ann, bob):
        p.close()


def test_agreements_outlive_a_restart(server_factory: Any) -> None:
    srv = server_factory()
    code, ann, bob = lobby_of_two(srv, ("Ann", "Bob"))
    tokens = [p.log[[m.get("t") for m in p.log].index("joined")]["token"] for p in (ann, bob)]
    for p in (ann, bob):
        p.close()
    srv.kill()
    srv.start()
    back = WsPlayer(srv.ws, code, tokens[0])
    state = back.state(lambda m: True, timeout=30)
    assert agreed(state) == {"Ann": ["hints"], "Bob": ["hints"]}
    back.request({"t": "start"})
    state = back.state(lambda m: m["room"]["phase"] == "playing")
    assert state["game"]["hints"] is True
    back.act({"type": "hint"})
    back.close()


def test_a_hint_is_the_hard_computers_move_with_its_worth(server: ServerProcess) -> None:
    code = create_room(server.http, "piet", {"opponent": "easy"})
    ann = WsPlayer(server.ws, code)
    ann.join("Ann", "red")
    ann.request({"t": "start"})
    state = ann.state(lambda m: bool(m.get("game")) and m["game"]["to_move"] == 0)
    ann.act({"type": "hint"})
    mine = state["game"]["legal_moves"][0]
    answer = httpx.get(f"{server.http}/api/rooms/{code}/advice/hint",
                       params={"against": mine}, timeout=60, headers=ann.bearer)
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    record = state["game"]["record"]
    board = read_record(record).final
    assert hint["move"] == format_move(choose_move(board, "hard", seed_of(record), HINT_BUDGET))
    assert hint["against"]["move"] == mine
    assert isinstance(hint["margin"], float | int)
    # asked again: the same answer (kept, and deterministic anyway)
    assert httpx.get(f"{server.http}/api/rooms/{code}/advice/hint",
                     params={"against": mine}, timeout=60, headers=ann.bearer).json() == hint
    ann.close()


def finished_record() -> str:
    """A whole game (the sample game of docs/piet.md): a review is of games that ended."""
    return (Path(__file__).resolve().parent.parent
            / "src/atelier/games/piet/sample_game.txt").read_text(encoding="utf-8")


def test_a_record_is_reviewed_once_and_puzzles_are_tried(server: ServerProcess) -> None:
    record = "setup: beginner\nbrushes: off\na1b1c1>a1\na2b2c2>a1\n"
    url = f"{server.http}/api/games/piet/advice"
    unfinished = httpx.post(f"{url}/review", json={"record": record}, timeout=60)
    assert unfinished.status_code == 400
    assert unfinished.json()["code"] == "piet.review_not_over"
    whole = finished_record()
    review = httpx.post(f"{url}/review", json={"record": whole}, timeout=120)
    assert review.status_code == 200, review.text
    body = review.json()
    moves = [line.strip() for line in whole.splitlines()
             if line.strip() and ":" not in line and not line.startswith("#")]
    assert [p["played"] for p in body["plies"]] == moves
    assert len(body["positions"]) == len(body["plies"]) + 1
    assert body["positions"][0]["palette"] == "RYBYBRBRY"
    # comments and spacing aside, the same record: the kept answer
    again = httpx.post(f"{url}/review", json={"record": "# mine\n" + whole}, timeout=60)
    assert again.json() == body
    refused = httpx.post(f"{url}/try", json={"record": record, "move": "a3>a1"})
    assert refused.json()["code"] == "piet.no_puzzle"
    shipped = puzzles()
    answer = httpx.post(f"{url}/puzzles", json={}, timeout=60)
    assert answer.status_code == 200, answer.text
    listed = answer.json()["puzzles"]
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
    record = finished_record()
    url = "/api/games/piet/advice/review"
    computed = httpx.post(first.http + url, json={"record": record}, timeout=120).json()
    first.stop()
    # the same database in a new process: the review comes from the store, not
    # computed again (its own measured time would differ)
    second = server_factory(db=first.db)
    again = httpx.post(second.http + url, json={"record": record}, timeout=60).json()
    assert again == computed


def test_other_rooms_answer_while_a_review_computes(server_factory: Any) -> None:
    srv = server_factory(env={"ATELIER_PURE_PYTHON": "1"})  # a review of seconds, not one
    record = finished_record()
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
