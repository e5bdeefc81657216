"""The ASGI app: HTTP pages and API, the WebSocket endpoint, and the room manager's life cycle."""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from atelier.games.core import Game, RuleError
from atelier.games.registry import get_game
from atelier.hub import open_hub
from atelier.i18n import LANGUAGES, catalog, pick_language
from atelier.server.decks import router as decks_router
from atelier.server.model import COLOUR_HEX
from atelier.server.pngs import PngCache
from atelier.server.rooms import LiveRoom, Rooms
from atelier.server.socket import serve_socket
from atelier.server.views import drawing_key, room_summary, visible_drawers
from atelier.store import open_store

WEB_DIR = Path(str(resources.files("atelier") / "web"))
PLACEHOLDER = (
    "<!doctype html><meta charset=utf-8><title>Atelier</title><p>Atelier: the app is coming."
)


@dataclass
class ServerConfig:
    db_path: str | None = None
    database_url: str | None = None
    redis_url: str | None = None
    allowed_origins: frozenset[str] = frozenset()
    table_prefix: str = ""
    extra_games: dict[str, Game[Any]] = field(default_factory=dict)


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    settings: dict[str, Any] = Field(default_factory=dict)
    language: str = Field(default="en", max_length=16)


def _lang(request: Request) -> str:
    return pick_language(request.query_params.get("lang") or request.headers.get("accept-language"))


def _error(request: Request, err: RuleError, status: int) -> JSONResponse:
    return JSONResponse(
        {"code": err.code, "message": err.message(_lang(request)), "params": err.params},
        status_code=status,
    )


def _games(config: ServerConfig) -> Callable[[str], Game[Any]]:
    def lookup(name: str) -> Game[Any]:
        if name in config.extra_games:
            return config.extra_games[name]
        return get_game(name)

    return lookup


def _visible_to_public(room: LiveRoom, key: str, seat: int) -> bool:
    """Earlier keys are finished rounds (public); the current one asks the game."""
    if key != drawing_key(room.model):
        return True
    return seat in visible_drawers(room.model, None)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await open_store(config.db_path, config.database_url, config.table_prefix)
        hub = await open_hub(config.redis_url, f"atelier:{config.table_prefix}")
        rooms = Rooms(store, hub, _games(config))
        await rooms.start()
        app.state.rooms = rooms
        try:
            yield
        finally:
            await rooms.close()
            await hub.close()
            await store.close()

    app = FastAPI(title="Atelier", lifespan=lifespan, docs_url=None, redoc_url=None)
    pngs = PngCache()

    def rooms_of(request: Request) -> Rooms:
        rooms: Rooms = request.app.state.rooms
        return rooms

    def index() -> Response:
        page = WEB_DIR / "index.html"
        if page.is_file():
            return FileResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str) -> Response:
        return index()

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/strings/{lang}")
    async def strings(lang: str, request: Request) -> Response:
        if lang not in LANGUAGES:
            return _error(request, RuleError("unknown_language", language=lang[:16]), 404)
        return JSONResponse(catalog()[lang])

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> Response:
        try:
            body = CreateRoom.model_validate(await request.json())
        except (ValidationError, ValueError):
            return _error(request, RuleError("bad_message", detail="game, settings, language"), 400)
        try:
            code = await rooms_of(request).create(
                body.game, body.settings, pick_language(body.language)
            )
        except RuleError as err:
            return _error(request, err, 400)
        url = str(request.base_url).rstrip("/") + f"/r/{code}"
        return JSONResponse({"code": code, "url": url}, status_code=201)

    async def room_or_404(request: Request, code: str) -> LiveRoom | JSONResponse:
        room = await rooms_of(request).get(code)
        if room is None:
            return _error(request, RuleError("unknown_room", room=code[:16]), 404)
        return room

    @app.get("/api/rooms/{code}")
    async def room_info(code: str, request: Request) -> Response:
        room = await room_or_404(request, code)
        if isinstance(room, JSONResponse):
            return room
        spectators = sum(1 for c in room.conns if c.player_id is None)
        return JSONResponse(room_summary(room.model, room.online(), spectators))

    @app.get("/api/rooms/{code}/drawings")
    async def drawings(code: str, request: Request) -> Response:
        room = await room_or_404(request, code)
        if isinstance(room, JSONResponse):
            return room
        listing = [
            {"key": key, "seat": seat, "batches": len(batches),
             "strokes": room.strokes(key, seat)}
            for key, by_seat in room.ink.items()
            for seat, batches in sorted(by_seat.items())
            if _visible_to_public(room, key, seat)
        ]
        return JSONResponse({"drawings": listing})

    @app.get("/api/rooms/{code}/drawings/{key}/{name}")
    async def drawing(code: str, key: str, name: str, request: Request) -> Response:
        room = await room_or_404(request, code)
        if isinstance(room, JSONResponse):
            return room
        stem, _, ext = name.rpartition(".")
        batches = room.ink.get(key, {}).get(int(stem), None) if stem.isdigit() else None
        if batches is None or ext not in ("png", "ink") or not _visible_to_public(
            room, key, int(stem)
        ):
            return _error(request, RuleError("unknown_drawing"), 404)
        seat = int(stem)
        if ext == "ink":
            body = b"".join(struct.pack(">I", len(b)) + b for b in batches)
            return Response(body, media_type="application/octet-stream")
        size = request.query_params.get("size", "1024")
        px = min(2048, max(64, int(size))) if size.isdigit() else 1024
        colour = next(
            (COLOUR_HEX[p.colour] for p in room.model.all_players()
             if p.seat == seat and p.colour in COLOUR_HEX),
            "#222222",
        )
        png = await pngs.get((code, key, seat, len(batches), px, colour), list(batches))
        return Response(png, media_type="image/png")

    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str) -> None:
        await serve_socket(ws, code, ws.app.state.rooms, config.allowed_origins)

    app.include_router(decks_router)
    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    return app
