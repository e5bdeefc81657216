"""Turn nudges by Web Push, end to end: a real server (two workers), the tests'
own push service checking each push by the standards (support/push_service.py),
and days passing by moving a turn's start back in the store (support/clock.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from atelier.games.piet.ending import DAY_SECONDS
from support.client import Client, open_client
from support.clock import age_turn
from support.log import _read
from support.push_service import PushService, Sub
from support.server import ServerProcess, create_room, wait_until


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService().start()
    yield service
    service.stop()


def subscribe(srv: ServerProcess, code: str, token: str, sub: Sub,
              lang: str = "en") -> httpx.Response:
    return httpx.post(f"{srv.http}/api/rooms/{code}/push",
                      json={"subscription": sub.json(), "lang": lang},
                      headers={"Authorization": f"Bearer {token}"})


async def corr_room(clients: list[Client], srv: ServerProcess, service: PushService,
                    langs: tuple[str, str] = ("en", "de"), days: int = 1,
                    ) -> tuple[str, list[Client], list[Sub]]:
    """A correspondence Piet room, both players subscribed, then started."""
    service.server_key = httpx.get(f"{srv.http}/api/push/key").json()["public_key"]
    code = create_room(srv.http, "piet", {"move_days": days})
    players, subs = [], []
    for name, colour, lang in (("Ann", "red", langs[0]), ("Bob", "blue", langs[1])):
        c = await open_client(clients, srv, code)
        assert (await c.join(name, colour))["t"] == "joined"
        sub = service.subscription()
        assert c.token is not None
        answer = subscribe(srv, code, c.token, sub, lang)
        assert answer.status_code == 204, answer.text
        players.append(c)
        subs.append(sub)
    assert (await players[0].request({"t": "start"}))["t"] == "ack"
    return code, players, subs


def texts(service: PushService, sub: Sub) -> list[str]:
    return [r.payload["text"] for r in service.to(sub)]


async def test_each_turn_and_the_end_are_pushed_once_to_the_right_player_with_two_workers(
        server_factory: Callable[..., ServerProcess], clients: list[Client],
        push_service: PushService) -> None:
    srv = server_factory("--workers", "2", "--push-service", push_service.url)
    code, (ann, bob), (ann_sub, bob_sub) = await corr_room(clients, srv, push_service)
    # the game begins: Ann (player 1) is told it is her turn, in her language
    await wait_until(lambda: len(push_service.to(ann_sub)) == 1, 20, "Ann's first nudge")
    first = push_service.to(ann_sub)[0]
    assert first.payload == {"room": code, "text": f"Your turn in room {code}."}
    assert first.ttl > 0 and first.claims["sub"].startswith("mailto:")
    state = await ann.state(lambda m: m["game"] and m["game"]["to_move"] == 0)
    move = state["game"]["legal_moves"][0]
    assert (await ann.act(type="move", move=move))["t"] == "ack"
    await wait_until(lambda: len(push_service.to(bob_sub)) == 1, 20, "Bob's nudge")
    assert texts(push_service, bob_sub) == [f"Du bist dran im Raum {code}."]  # Bob reads German
    # Bob resigns: both hear the game ended, each their own outcome
    assert (await bob.act(type="resign"))["t"] == "ack"
    await wait_until(lambda: len(push_service.to(ann_sub)) == 2
                     and len(push_service.to(bob_sub)) == 2, 20, "the game-over nudges")
    assert texts(push_service, ann_sub)[1] == f"Game over in room {code}: you won."
    assert texts(push_service, bob_sub)[1] == f"Partie im Raum {code} zu Ende: Du hast verloren."
    # exactly once: one claim per push in the store, and no second copy arrived
    claims = _read(srv.db or "", lambda s: _claims(s, code))
    assert len(claims) == 4 == len(push_service.received), claims
    assert push_service.refused == []


async def _claims(store: Any, code: str) -> list[str]:
    from sqlalchemy import select
    sent = store.push.t.sent
    async with store.engine.connect() as conn:
        return [r.key for r in (await conn.execute(select(sent.c.key).where(sent.c.room == code)))]


async def _subs(store: Any, code: str) -> int:
    return len(await store.push.subscriptions(code))


async def test_a_quarter_left_then_the_loss_on_time_across_restarts(
        server_factory: Callable[..., ServerProcess], clients: list[Client],
        push_service: PushService, tmp_path: Any) -> None:
    db = str(tmp_path / "corr.sqlite3")
    args = ("--push-service", push_service.url)
    srv = server_factory(*args, db=db)
    code, (ann, bob), (ann_sub, bob_sub) = await corr_room(clients, srv, push_service,
                                                            ("en", "uk"))
    await wait_until(lambda: len(push_service.to(ann_sub)) == 1, 20, "Ann's first nudge")
    state = await ann.state(lambda m: m["game"] and m["game"]["to_move"] == 0)
    assert (await ann.act(type="move", move=state["game"]["legal_moves"][0]))["t"] == "ack"
    await wait_until(lambda: len(push_service.to(bob_sub)) == 1, 20, "Bob's nudge")
    await ann.close()
    await bob.close()
    srv.stop()
    # 0.8 of Bob's day has passed while the server was down
    age_turn(db, code, 0.8 * DAY_SECONDS)
    srv = server_factory(*args, db=db, port=srv.port)
    await wait_until(lambda: len(push_service.to(bob_sub)) == 2, 20, "the quarter nudge")
    assert texts(push_service, bob_sub)[1] == f"У кімнаті {code} лишилася чверть вашого часу."
    srv.stop()
    srv = server_factory(*args, db=db, port=srv.port)  # not sent twice after a restart
    age_turn(db, code, 0.0)  # (a round trip through the store: the restart has settled)
    srv.stop()
    age_turn(db, code, 0.3 * DAY_SECONDS)  # now past Bob's deadline
    srv = server_factory(*args, db=db, port=srv.port)
    await wait_until(lambda: len(push_service.to(bob_sub)) == 3, 20, "the game-over nudge")
    assert texts(push_service, bob_sub)[2] == f"Гру в кімнаті {code} завершено: ви програли."
    await wait_until(lambda: len(push_service.to(ann_sub)) == 2, 20, "Ann's game-over nudge")
    assert texts(push_service, ann_sub)[1] == f"Game over in room {code}: you won."
    watcher = await open_client(clients, srv, code)
    over = await watcher.state(lambda m: m["room"]["phase"] == "over")
    assert over["game"]["result"]["winner"] == 0 and over["game"]["result"]["by"] == "time"


async def test_a_room_out_of_memory_still_times_out(
        server_factory: Callable[..., ServerProcess], clients: list[Client],
        push_service: PushService, tmp_path: Any) -> None:
    """No restart: the room leaves memory when idle, and the due-room scan finds
    it in the store when its turn runs out."""
    db = str(tmp_path / "idle.sqlite3")
    srv = server_factory("--push-service", push_service.url, "--unload-idle", "0.3",
                         "--due-scan", "0.2", db=db)
    code, (ann, bob), (ann_sub, _) = await corr_room(clients, srv, push_service)
    await wait_until(lambda: len(push_service.to(ann_sub)) == 1, 20, "Ann's first nudge")
    await ann.close()
    await bob.close()
    await wait_until(lambda: httpx.get(f"{srv.http}/healthz").json()["rooms_loaded"] == 0,
                     20, "the room unloaded")
    age_turn(db, code, 1.01 * DAY_SECONDS)  # Ann's day is over
    await wait_until(lambda: len(push_service.to(ann_sub)) == 2, 20, "Ann's game-over nudge")
    assert texts(push_service, ann_sub)[1] == f"Game over in room {code}: you lost."


async def test_a_gone_subscription_is_deleted_and_refusals_are_clear(
        server_factory: Callable[..., ServerProcess], clients: list[Client],
        push_service: PushService) -> None:
    srv = server_factory("--push-service", push_service.url, "--max-subscriptions", "3")
    service = push_service
    service.server_key = httpx.get(f"{srv.http}/api/push/key").json()["public_key"]
    code = create_room(srv.http, "piet", {"move_days": 3})
    ann = await open_client(clients, srv, code)
    await ann.join("Ann", "red")
    assert ann.token
    gone = service.subscription()
    gone.answer = 410
    assert subscribe(srv, code, ann.token, gone).status_code == 204
    # refusals, each translated
    stranger = service.subscription()
    answer = subscribe(srv, code, "not-a-token-at-all", stranger)
    assert answer.status_code == 403 and answer.json()["code"] == "not_joined"
    elsewhere = service.subscription().json() | {"endpoint": "https://evil.example/x"}
    answer = httpx.post(f"{srv.http}/api/rooms/{code}/push?lang=de",
                        json={"subscription": elsewhere, "lang": "de"},
                        headers={"Authorization": f"Bearer {ann.token}"})
    assert answer.json()["code"] == "push_endpoint" and "Push-Dienst" in answer.json()["message"]
    for _ in range(2):
        assert subscribe(srv, code, ann.token, service.subscription()).status_code == 204
    answer = subscribe(srv, code, ann.token, service.subscription())
    assert answer.status_code == 429 and answer.json()["code"] == "too_many_subscriptions"
    live = create_room(srv.http, "piet", {})
    c = await open_client(clients, srv, live)
    await c.join("Cy", "red")
    assert c.token
    answer = subscribe(srv, live, c.token, service.subscription())
    assert answer.json()["code"] == "push_live_game"
    # the push service answers 410 for `gone`: the server deletes it, the others stay
    bob = await open_client(clients, srv, code)
    await bob.join("Bob", "blue")
    assert (await ann.request({"t": "start"}))["t"] == "ack"
    await wait_until(lambda: _read(srv.db or "", lambda s: _subs(s, code)) == 2, 20,
                     "the gone subscription deleted")
    # Ann's two other subscriptions got the nudge (sent beside the gone one's: wait)
    await wait_until(lambda: len(service.received) >= 2, 20, "both other pushes received")
    assert len(service.received) == 2
