"""HTTP routes for a room's custom deck (a game that takes one: CustomDeckGame,
Pictomania today): upload, remove, summary, export.

A deck can be up to 64 KB, more than a WebSocket text frame may carry, so it
travels over HTTP. Uploading and removing are ordinary settings changes made
with the host's token: they go through :meth:`Rooms.commit` with
:func:`decide_settings`, exactly like the WebSocket ``settings`` message, so
they are validated by the game, logged (and survive a restart) and pushed to
everyone in the room.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from atelier.content.custom import (
    MAX_BYTES,
    MODES,
    cards_from_settings,
    cards_to_settings,
    deck_summary,
    export_deck,
    parse_deck,
)
from atelier.content.decks import Card
from atelier.errors import RuleError
from atelier.games.core import CustomDeckGame
from atelier.jsonvalue import JSON
from atelier.server.http.errors import read_body
from atelier.server.room.model import decide_settings
from atelier.server.room.rooms import LiveRoom, Rooms

router = APIRouter()

FORMATS = ("json", "csv")
MEDIA_TYPES = {"json": "application/json", "csv": "text/csv; charset=utf-8"}
def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def _room(request: Request, code: str) -> LiveRoom:
    rooms: Rooms = request.app.state.rooms
    room = await rooms.get(code)
    if room is None:
        raise RuleError("unknown_room", room=code[:16])
    if not isinstance(room.model.game, CustomDeckGame):
        raise RuleError("deck_unsupported")
    return room


def _host_id(request: Request, room: LiveRoom) -> str:
    """The host's player id if the request carries the host's token.

    A missing, forged or non-host token all answer ``not_host``, so the
    answer does not tell which tokens exist. The comparison is constant-time
    (:meth:`RoomModel.player_by_token`)."""
    token = _bearer(request)
    player = room.model.player_by_token(token) if token else None
    if player is None or player.id != room.model.host:
        raise RuleError("not_host")
    if room.model.phase != "lobby":
        raise RuleError("game_started")
    return player.id


def _too_big(size: int) -> RuleError:
    return RuleError("custom_too_big", size=-(-size // 1024), max=MAX_BYTES // 1024)


async def _body_text(request: Request) -> str:
    """The request body as text, refused as soon as it exceeds the deck limit
    (Content-Length is not trusted: the stream is counted too)."""
    raw = await read_body(request, MAX_BYTES, _too_big)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RuleError("content_not_utf8") from None


def _summary(settings: Mapping[str, JSON]) -> dict[str, JSON]:
    cards = _room_cards(settings)
    return {
        "mode": settings.get("custom_mode", "alongside"),
        "cards": len(cards),
        "levels": {str(level): n for level, n in deck_summary(cards).items()},
    }


def _room_cards(settings: Mapping[str, JSON]) -> list[Card]:
    raw = settings.get("custom_cards") or []
    return cards_from_settings(raw) if raw else []


def _enough_for_instead(room: LiveRoom, cards: list[Card]) -> None:
    """Without built-in cards, every round needs its cards from this deck."""
    settings, game = room.model.settings, room.model.game
    assert isinstance(game, CustomDeckGame)  # _room checked
    needed = game.cards_needed(settings)
    if len(cards) < needed:
        raise RuleError(
            "deck_too_few", count=len(cards), needed=needed, rounds=settings["rounds"]
        )


async def _change(request: Request, room: LiveRoom, host: str, changes: dict[str, JSON]) -> None:
    rooms: Rooms = request.app.state.rooms
    await rooms.commit(room, lambda m: (decide_settings(m, host, changes), None))


@router.post("/api/rooms/{code}/deck")
async def upload_deck(code: str, request: Request) -> Response:
    """Body: the deck file as text (JSON or CSV). ``?mode=alongside|instead``,
    ``?format=json|csv`` (default: sniffed). Host only, in the lobby."""
    room = await _room(request, code)
    host = _host_id(request, room)
    mode = request.query_params.get("mode", "alongside")
    if mode not in MODES:
        raise RuleError("bad_settings", field="custom_mode")
    fmt = request.query_params.get("format") or None
    if fmt is not None and fmt not in FORMATS:
        raise RuleError("custom_format", fmt=fmt[:16])
    text = await _body_text(request)
    lang = room.model.settings.get("language")
    cards = parse_deck(
        text,
        "csv" if fmt == "csv" else "json" if fmt else None,
        lang if isinstance(lang, str) else None,
    )
    if mode == "instead":
        _enough_for_instead(room, cards)
    changes = cards_to_settings(cards, "instead" if mode == "instead" else "alongside")
    await _change(request, room, host, changes)
    return JSONResponse(_summary(room.model.settings))


@router.delete("/api/rooms/{code}/deck")
async def remove_deck(code: str, request: Request) -> Response:
    """Back to the built-in cards only. Host only, in the lobby."""
    room = await _room(request, code)
    host = _host_id(request, room)
    await _change(request, room, host, {"custom_cards": [], "custom_mode": "alongside"})
    return JSONResponse(_summary(room.model.settings))


@router.get("/api/rooms/{code}/deck")
async def deck_info(code: str, request: Request) -> Response:
    """``{"mode", "cards", "levels": {"1": n, ...}}``; anyone with the code."""
    room = await _room(request, code)
    return JSONResponse(_summary(room.model.settings))


@router.get("/api/rooms/{code}/deck.{fmt}")
async def export_room_deck(code: str, fmt: str, request: Request) -> Response:
    """The room's custom deck as a file that can be uploaded again; anyone with the code."""
    if fmt not in FORMATS:
        raise RuleError("custom_format", fmt=fmt[:16])
    room = await _room(request, code)
    cards = _room_cards(room.model.settings)
    if not cards:
        raise RuleError("deck_none")
    text = export_deck(cards, "csv" if fmt == "csv" else "json")
    name = f"atelier-{room.model.code}-deck.{fmt}"
    return Response(
        text,
        media_type=MEDIA_TYPES[fmt],
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
