"""HTTP routes for a device's seats (docs/protocol.md, "Seats and nudges"):
the games it holds seats in ("My games"), moving a seat to another device with
a one-time link, and turning a seat's turn nudges (Web Push) on and off.

A seat is named by its player token, sent as ``Authorization: Bearer`` (or in
the body for the listing of many), never in a URL. A token that is not a
player of the room answers ``not_joined``, whichever way it is wrong."""

from __future__ import annotations

import secrets
import time
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from atelier.errors import RuleError, require
from atelier.games.core import CorrespondenceGame, ScoredGame, move_seconds, result_winners
from atelier.games.registry import get_game
from atelier.i18n import LANGUAGES
from atelier.jsonvalue import JSON
from atelier.server.http.errors import read_json_model
from atelier.server.http.qr import qr_svg
from atelier.server.push.sender import endpoint_allowed
from atelier.server.room.events import SeatMoved
from atelier.server.room.live_room import normal_code, valid_code
from atelier.server.room.model import (
    Player,
    RoomModel,
    decide_claim,
    decide_transfer,
    hash_token,
    replay_log,
)
from atelier.server.room.rooms import LiveRoom, Rooms
from atelier.store.push import Subscription

router = APIRouter()

MAX_SEATS_LISTED = 40
"""Seats one "My games" request may ask about (each is a room read from the log)."""
MAX_BODY = 16 * 1024
Token = Annotated[str, Field(min_length=8, max_length=128)]


class SeatRef(BaseModel):
    model_config = ConfigDict(extra="forbid")
    room: str = Field(max_length=16)
    token: Token


class SeatsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[SeatRef] = Field(max_length=MAX_SEATS_LISTED)


class ClaimBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    transfer: Token


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(min_length=40, max_length=128)
    auth: str = Field(min_length=16, max_length=64)


class PushSubscriptionBody(BaseModel):
    # the browser's PushSubscription.toJSON(); expirationTime is allowed and unused
    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(min_length=12, max_length=1024)
    keys: PushKeys


class PushBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subscription: PushSubscriptionBody
    lang: str = Field(default="en", max_length=8)


class PushOffBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(max_length=1024)


def _rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    require(scheme.lower() == "bearer" and bool(token.strip()), "not_joined")
    return token.strip()


async def _seat(request: Request, code: str) -> tuple[LiveRoom, Player]:
    room = await _rooms(request).get(code)
    if room is None:
        raise RuleError("unknown_room", room=code[:16])
    player = room.model.player_by_token(_bearer(request))
    require(player is not None, "not_joined")
    assert player is not None
    return room, player


def _address(request: Request) -> str:
    address: str = request.app.state.address_of(request)
    return address


def seat_summary(model: RoomModel, player: Player, now: float) -> dict[str, JSON]:
    """What "My games" shows of one seat: the opponents, whose turn, the time
    left, the result. Everything here is public in the room already."""
    game, state = model.game, model.state
    seat = model.seat_of(player.id)
    others = [p.name for p in model.all_players() if p.id != player.id]
    out: dict[str, JSON] = {
        "room": model.code, "game": game.name, "phase": model.phase, "seat": seat,
        "name": player.name, "opponents": others, "your_turn": False, "deadline": None,
        "move_days": model.settings.get("move_days"), "result": None,
        "correspondence": move_seconds(game, model.settings) is not None,
    }
    if model.phase == "playing" and isinstance(game, CorrespondenceGame):
        out["your_turn"] = seat is not None and game.seat_to_move(state) == seat
        deadline = game.deadline(state)
        out["deadline"] = deadline
        out["seconds_left"] = None if deadline is None else max(0.0, deadline - now)
    if model.phase == "over" and state is not None and seat is not None:
        scores = game.final_scores(state) if isinstance(game, ScoredGame) else []
        won = result_winners(game, state, scores)
        view = game.view(state, seat)
        result = view.get("result") if isinstance(view, dict) else None
        how = result.get("by") if isinstance(result, dict) else None
        out["result"] = {"outcome": "draw" if len(won) > 1 else
                         "won" if seat in won else "lost", "by": how, "scores": scores}
    return out


@router.post("/api/my-games")
async def my_games(request: Request) -> Response:
    """The seats a device holds (the tokens it keeps), each read from the log:
    any process can answer, and nothing is loaded into memory. A token that is
    not a player of its room is left out."""
    body = await read_json_model(request, SeatsBody, MAX_BODY, "seats")
    rooms = _rooms(request)
    addresses = request.app.state.addresses
    refusal = addresses.take_lookup(_address(request))
    if refusal is not None:
        raise refusal
    now = time.time()
    found: list[dict[str, JSON]] = []
    for ref in body.seats:
        code = normal_code(ref.room)
        if not valid_code(code):
            continue
        live = rooms.loaded.get(code)
        if live is not None:
            model = live.model
        else:
            rows = await rooms.store.load_events(code)
            if not rows or rows[0].kind != "created":
                continue
            model = replay_log(code, get_game(rows[0].data["game"]), rows)
        player = model.player_by_token(ref.token)
        if player is not None:
            found.append(seat_summary(model, player, now))
    return JSONResponse({"games": found, "now": now})


@router.post("/api/rooms/{code}/transfer")
async def offer_transfer(code: str, request: Request) -> Response:
    """A one-time link (and its QR code) that moves the caller's seat to the
    device that opens it. A new link replaces one not yet used."""
    room, player = await _seat(request, code)
    transfer = secrets.token_urlsafe(24)
    await _rooms(request).commit(
        room, lambda m: (decide_transfer(m, player.id, hash_token(transfer)), None))
    url = str(request.base_url).rstrip("/") + f"/r/{room.model.code}#transfer={transfer}"
    return JSONResponse({"url": url, "qr": qr_svg(url).decode()},
                        headers={"Cache-Control": "no-store"})


@router.post("/api/rooms/{code}/claim")
async def claim_transfer(code: str, request: Request) -> Response:
    """Use a transfer link: this device gets the seat under a new token; the old
    device's token and the link stop working (a second use: ``transfer_used``)."""
    room = await _rooms(request).get(code)
    if room is None:
        raise RuleError("unknown_room", room=code[:16])
    body = await read_json_model(request, ClaimBody, 1024, "transfer")
    # a wrong link costs the address one of its room lookups, as a wrong code does:
    # guessing links is as slow as guessing rooms
    addresses, address = request.app.state.addresses, _address(request)
    refusal = addresses.no_lookups(address)
    if refusal is not None:
        raise refusal
    token = secrets.token_urlsafe(24)
    try:
        moved = await _rooms(request).commit(
            room, lambda m: (decide_claim(m, body.transfer, hash_token(token)), None))
    except RuleError:
        addresses.take_lookup(address)
        raise
    assert isinstance(moved, SeatMoved)
    player = moved.player
    await _rooms(request).store.push.unsubscribe(room.model.code, player)  # the old device's
    return JSONResponse({"token": token, "player": player, "room": room.model.code},
                        headers={"Cache-Control": "no-store"})


@router.get("/api/push/key")
async def push_key(request: Request) -> Response:
    """The server's VAPID public key, the ``applicationServerKey`` of a subscription."""
    return JSONResponse({"public_key": _rooms(request).push.public_key},
                        headers={"Cache-Control": "max-age=3600"})


@router.post("/api/rooms/{code}/push", status_code=204)
async def push_on(code: str, request: Request) -> Response:
    """Turn nudges on for the caller's seat in a correspondence game."""
    room, player = await _seat(request, code)
    body = await read_json_model(request, PushBody, 4096, "subscription, lang")
    model = room.model
    require(move_seconds(model.game, model.settings) is not None, "push_live_game")
    require(model.phase != "over", "game_over")
    push = _rooms(request).push
    require(endpoint_allowed(body.subscription.endpoint, push.config.services),
            "push_endpoint")
    lang = body.lang if body.lang in LANGUAGES else model.language
    sub = Subscription(body.subscription.endpoint, body.subscription.keys.p256dh,
                       body.subscription.keys.auth, model.code, player.id, lang)
    kept = await push.store.subscribe(sub, _address(request), push.config.per_address)
    require(kept, "too_many_subscriptions", max=push.config.per_address)
    return Response(status_code=204)


@router.post("/api/rooms/{code}/push/off", status_code=204)
async def push_off(code: str, request: Request) -> Response:
    room, player = await _seat(request, code)
    body = await read_json_model(request, PushOffBody, 2048, "endpoint")
    await _rooms(request).push.store.unsubscribe(room.model.code, player.id, body.endpoint)
    return Response(status_code=204)
