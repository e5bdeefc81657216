"""The ASGI app: HTTP pages and API, the WebSocket endpoint, and the room manager's life cycle."""

from __future__ import annotations

import asyncio
import logging
import re
import resource
import secrets
import struct
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from atelier.errors import RuleError
from atelier.games.core import AdvisedGame
from atelier.games.registry import browser_games, extra_screens, get_game
from atelier.games.settings import schema
from atelier.hub import open_hub
from atelier.i18n import LANGUAGES, catalog
from atelier.ink.batches import BatchLog
from atelier.jsonvalue import JSON
from atelier.metrics import SCRAPE, MetricsServer
from atelier.server.edge.addresses import AddressLimits, AddressPolicy, client_address
from atelier.server.edge.budget import PendingBudget
from atelier.server.edge.forwarded import Proxies
from atelier.server.edge.headers import SecurityHeaders
from atelier.server.engine.pool import Engine
from atelier.server.engine.queue import PLAY, STUDY
from atelier.server.http.advice import Advisor, unless_gone
from atelier.server.http.decks import router as decks_router
from atelier.server.http.errors import error_response, read_json_model, rule_error
from atelier.server.http.pngs import PngCache
from atelier.server.http.pwa import build_shell
from atelier.server.http.pwa import router as pwa_router
from atelier.server.http.qr import qr_svg
from atelier.server.http.replays import AnimationCache, timeline_json
from atelier.server.http.seats import router as seats_router
from atelier.server.ink.intake import MAX_DRAWING_BYTES, MAX_ROOM_INK_BYTES
from atelier.server.push.service import PushConfig, PushService
from atelier.server.room.model import COLOUR_HEX, hash_token
from atelier.server.room.rooms import CREATOR_WAIT, IDLE_SECONDS, SCAN_SECONDS, LiveRoom, Rooms
from atelier.server.room.views import drawing_key, room_summary, visible_drawers
from atelier.server.session import HELLO_SECONDS, serve_socket
from atelier.store import open_store

log = logging.getLogger(__name__)

WEB_DIR = Path(str(resources.files("atelier") / "web"))
DRAWING_FORMATS = ("png", "ink", "json", "gif", "webp")

MAX_CREATE_BYTES = 96 * 1024
MAX_ADVICE_BYTES = 20 * 1024
"""A room's first settings: a custom word list (64 KB) and the rest."""
SEAT_FILE = re.compile(r"([0-9]{1,2})\.(" + "|".join(DRAWING_FORMATS) + ")")
PNG_SIZE = re.compile(r"[0-9]{1,5}")
HTTP_CODES = {404: "not_found", 405: "method_not_allowed"}


@dataclass
class ServerConfig:
    db_path: str | None = None
    database_url: str | None = None
    redis_url: str | None = None
    allowed_origins: frozenset[str] = frozenset()
    forwarded_allow_ips: str | None = None
    table_prefix: str = ""
    owns: Callable[[str], bool] | None = None
    """With ``--workers``: whether this process serves a room (atelier.server.workers)."""
    idle_seconds: float = IDLE_SECONDS  # unload a room nobody is connected to after this
    creator_wait: float = CREATOR_WAIT  # the host role waits this long for a creator who left
    address_policy: AddressPolicy = field(default_factory=AddressPolicy)
    hello_seconds: float = HELLO_SECONDS  # an upgraded socket's time to say hello
    ink_limits: tuple[int, int] = (MAX_DRAWING_BYTES, MAX_ROOM_INK_BYTES)
    """Bytes of ink one drawing and one room may hold."""
    push: PushConfig = field(default_factory=PushConfig)
    scan_seconds: float = SCAN_SECONDS
    """How often the store is asked for correspondence games due."""
    web_dir: Path = WEB_DIR
    """The web client's files (``--web-dir``): the installed package's by default."""
    pending: PendingBudget | None = None
    """The front door's budget for unfinished requests, for /healthz (atelier serve)."""
    metrics_listen: tuple[str, int] | None = None
    """Where Prometheus scrapes this process (``--metrics-listen``); None: nowhere."""
    engine_workers: int | None = None
    """Engine worker processes (None: sized to the machine, engine.pool.default_workers)."""


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    settings: dict[str, JSON] = Field(default_factory=dict)
    language: str = Field(default="en", max_length=16)


class RecordBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    record: str = Field(default="", max_length=16 * 1024)
    move: str = Field(default="", max_length=64)


def address_of(request: Request | WebSocket, policy: AddressPolicy) -> str:
    """The client's address for the per-address limits (forwarded only from trusted proxies)."""
    peer = request.client.host if request.client is not None else None
    return client_address(peer, request.headers.get("x-forwarded-for"), policy.proxies)


def stop_engine(app: FastAPI) -> None:
    """Stop the engine of a running app from a signal handler (atelier serve's
    stop): on its event loop, soon."""
    loop: asyncio.AbstractEventLoop | None = getattr(app.state, "loop", None)
    rooms: Rooms | None = getattr(app.state, "rooms", None)
    if loop is not None and rooms is not None and not loop.is_closed():
        loop.call_soon_threadsafe(rooms.engine.close)


def json_only(request: Request) -> None:
    """Refuse a body that is not JSON: a form or text/plain body can be posted by
    any page without the browser asking first (no CORS check), so another site
    could create rooms or spend the server's engine from its visitors' browsers."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise RuleError("json_required")


def seated_player(room: LiveRoom, authorization: str) -> None:
    """Refuse unless ``authorization`` (``Bearer <token>``) is a seated player's
    of the room's game: its advice is theirs, not anyone's with the room code."""
    scheme, _, token = authorization.partition(" ")
    player = (room.model.player_by_token(token.strip())
              if scheme.lower() == "bearer" and token.strip() else None)
    if player is None or player.seat is None or player.computer or room.model.state is None:
        raise RuleError("advice_players_only")


def _is_drawing(room: LiveRoom, key: str, seat: int) -> bool:
    """Whether ``key``/``seat`` names a drawing of this room, drawn on or not:
    a seat that drew nothing in a round still has a (blank) drawing."""
    model = room.model
    if not 0 <= seat < len(model.seats):
        return False
    return key in room.ink or key in model.drawing_keys()


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
        rooms = Rooms(store, hub, get_game, owns=config.owns,
                      idle_seconds=config.idle_seconds, creator_wait=config.creator_wait,
                      ink_limits=config.ink_limits,
                      push=PushService(store.push, config.push),
                      scan_seconds=config.scan_seconds, engine=Engine(config.engine_workers))
        await rooms.start()
        app.state.rooms = rooms
        app.state.advisor = Advisor(rooms.engine, store)
        app.state.loop = asyncio.get_running_loop()
        metrics = None
        if config.metrics_listen is not None:
            SCRAPE.rooms = rooms
            metrics = MetricsServer(*config.metrics_listen)
            await metrics.start()
        try:
            yield
        finally:
            if metrics is not None:
                await metrics.close()
            await rooms.close()  # the engine's searches stop at once, queued or running
            await hub.close()
            await store.close()

    app = FastAPI(title="Atelier", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)

    # Every refusal is JSON in the shape the routes use, translated: unknown
    # paths, wrong methods, malformed parameters, and (logged) server faults.
    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        code = HTTP_CODES.get(exc.status_code, "bad_request")
        return error_response(request, RuleError(code), exc.status_code)

    app.add_exception_handler(RuleError, rule_error)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        return error_response(request, RuleError("bad_request"), 400)

    @app.exception_handler(ClientDisconnect)
    async def client_left(request: Request, exc: ClientDisconnect) -> Response:
        # the client's doing, not a fault, and nobody to answer: the front door
        # counts it in its abuse summary (atelier.server.edge.abuse)
        log.debug("%s %s: the client left before sending the whole body",
                 request.method, request.url.path)
        return Response(status_code=400)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        log.error("request %s failed", request.url.path, exc_info=exc)
        return error_response(request, RuleError("internal"), 500)
    pngs = PngCache()
    proxies = Proxies(config.forwarded_allow_ips)
    animations = AnimationCache()
    addresses = AddressLimits(config.address_policy)
    app.state.addresses = addresses
    app.state.address_of = lambda request: address_of(request, config.address_policy)

    def rooms_of(request: Request) -> Rooms:
        rooms: Rooms = request.app.state.rooms
        return rooms

    def engine_of(request: Request) -> Engine:
        return rooms_of(request).engine

    def advisor_of(request: Request) -> Advisor:
        advisor: Advisor = request.app.state.advisor
        return advisor

    def index() -> Response:
        return FileResponse(config.web_dir / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str, request: Request) -> Response:
        if not re.fullmatch(r"[A-Za-z0-9]{1,16}", code):
            raise RuleError("unknown_room", room=code[:16])
        return index()

    @app.get("/r/{code}/tv", include_in_schema=False)
    async def tv_page(code: str) -> Response:
        return index()  # the client shows the table view: a spectator, large

    @app.get("/healthz")
    async def healthz(request: Request) -> dict[str, JSON]:
        rooms = rooms_of(request)
        now = time.monotonic()
        return {"ok": True, "rooms_loaded": len(rooms.loaded), "rooms_unloaded": rooms.unloaded,
                # rooms another process holds too (their ink crosses), and what crossed
                "rooms_shared": sum(r.held_elsewhere(now) for r in rooms.loaded.values()),
                "hub_published": dict(rooms.hub.published),
                # batches that waited for their sender's allowance: a flood, or a
                # server reading its sockets late (docs/performance.md)
                "ink_waits": rooms.ink_waits,
                # turn nudges this process sent, and those the push service had lost
                "pushes": {"sent": rooms.push.stats.sent, "gone": rooms.push.stats.gone,
                           "failed": rooms.push.stats.failed},
                # connections this process may hold (atelier serve raises it at start)
                "open_files_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
                # the engine pool: its processes, jobs running and waiting per lane
                "engine": rooms.engine.stats(),
                # connections whose request has not arrived whole, what they hold
                # (charged by what arrived), and how many were closed to fit
                **({} if config.pending is None else {
                    "unfinished_requests": len(config.pending),
                    "unfinished_bytes": config.pending.bytes,
                    "unfinished_shed": config.pending.shed_count,
                    "unfinished_refused": config.pending.refused_count})}

    @app.get("/api/strings/{lang}")
    async def strings(lang: str, request: Request) -> Response:
        if lang not in LANGUAGES:
            raise RuleError("unknown_language", language=lang[:16])
        return JSONResponse(catalog()[lang])

    @app.get("/api/games")
    async def games() -> Response:
        """The games the client offers, each with its screens' descriptor (game.js)."""
        return JSONResponse({"games": browser_games()})

    @app.get("/api/games/{game}/settings-schema")
    async def settings_schema(game: str) -> Response:
        """Each setting's type, bounds and default, for the client's form."""
        return JSONResponse(schema(get_game(game[:32]).settings_model),
                            headers={"Cache-Control": "public, max-age=300"})

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> Response:
        json_only(request)  # another site could create rooms from its visitors' browsers
        if not addresses.take_room(address_of(request, config.address_policy)):
            per_minute = config.address_policy.rooms_per_minute
            refused = error_response(request, RuleError("too_many_rooms", per_minute=per_minute))
            refused.headers["Retry-After"] = str(max(1, round(60 / max(1, per_minute))))
            return refused
        body = await read_json_model(request, CreateRoom, MAX_CREATE_BYTES,
                                     "game, settings, language")
        if body.language not in LANGUAGES:
            return error_response(request, RuleError("unknown_language",
                                                      language=body.language), 400)
        # The creator's host credential: joining with it makes that player host.
        host_key = secrets.token_urlsafe(24)
        try:
            code = await rooms_of(request).create(
                body.game, body.settings, body.language, hash_token(host_key)
            )
        except RuleError as err:
            return error_response(request, err, 400)  # the settings' fault, whatever the code
        url = str(request.base_url).rstrip("/") + f"/r/{code}"
        return JSONResponse({"code": code, "url": url, "host_key": host_key}, status_code=201)

    async def room_or_404(request: Request, code: str, counted: bool = False) -> LiveRoom:
        """The room, or 404. A code that does not exist costs the asker one of its
        lookups, and so does every ``counted`` lookup; none left: 429, without looking."""
        address = address_of(request, config.address_policy)
        refusal = addresses.take_lookup(address) if counted else addresses.no_lookups(address)
        if refusal is not None:
            raise refusal
        room = await rooms_of(request).get(code)
        if room is None:
            if not counted:
                addresses.take_lookup(address)
            raise RuleError("unknown_room", room=code[:16])
        return room

    @app.get("/api/rooms/{code}")
    async def room_info(code: str, request: Request) -> Response:
        # the question a room page asks first: every one is counted
        room = await room_or_404(request, code, counted=True)
        spectators = sum(1 for c in room.conns if c.player_id is None)
        return JSONResponse(room_summary(room.model, room.online(), spectators))

    @app.get("/api/rooms/{code}/advice/{kind}")
    async def room_advice(code: str, kind: str, request: Request,
                          against: str | None = None) -> Response:
        """The engine's advice on the room's game, for its seated players only
        (``Authorization: Bearer <token>``, the token their hello used): a hint
        the player to move asked for (the rules decide who may), a finished
        game's review."""
        # the engine's refusal first: it costs no room lookup, replay or query
        lane = PLAY if kind == "hint" else STUDY
        place = engine_of(request).admit(lane, address_of(request, config.address_policy))
        try:
            room = await room_or_404(request, code)
            seated_player(room, request.headers.get("authorization", ""))
            game, state = room.model.game, room.model.state
            if not isinstance(game, AdvisedGame) or state is None:
                raise RuleError("no_advice")
            work = game.advice(state, kind[:16], {"against": (against or "")[:64]})
            answered, data = await unless_gone(
                request, advisor_of(request).answer(place, work, room.model.code))
        finally:
            place.give_back()
        return JSONResponse(data) if answered else Response(status_code=204)

    @app.post("/api/games/{name}/advice/{kind}")
    async def record_advice(name: str, kind: str, request: Request) -> Response:
        """The engine's advice on a record sent by anyone (a review of a loaded
        record, puzzles): never on a position of a live game whose players did
        not agree to advice."""
        json_only(request)
        game = get_game(name)
        if not isinstance(game, AdvisedGame):
            raise RuleError("no_advice")
        address = address_of(request, config.address_policy)
        place = engine_of(request).admit(STUDY, address)  # before the body is even read
        try:
            body = await read_json_model(request, RecordBody, MAX_ADVICE_BYTES, "record")
            guarded = {key for room in rooms_of(request).loaded.values()
                       if room.model.game is game and room.model.state is not None
                       and (key := game.guarded_position(room.model.state)) is not None}
            work = game.record_advice(kind[:16], body.record, {"move": body.move}, guarded)
            answered, data = await unless_gone(
                request, advisor_of(request).answer(place, work, address))
        finally:
            place.give_back()
        return JSONResponse(data) if answered else Response(status_code=204)

    @app.get("/api/rooms/{code}/qr.svg")
    async def room_qr(code: str, request: Request) -> Response:
        """The join link as a QR code, as this request reached the server."""
        room = await room_or_404(request, code)
        url = str(request.base_url).rstrip("/") + f"/r/{room.model.code}"
        return Response(qr_svg(url), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    @app.get("/api/rooms/{code}/drawings")
    async def drawings(code: str, request: Request) -> Response:
        room = await room_or_404(request, code)
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
        # [0-9], not str.isdigit: that takes "²" too, which int() does not
        found = SEAT_FILE.fullmatch(name)
        seat = int(found.group(1)) if found else -1
        ext = found.group(2) if found else ""
        batches = room.ink.get(key, {}).get(seat) if found else None
        if batches is None and found and _is_drawing(room, key, seat):
            batches = BatchLog()  # drew nothing: a blank drawing, not a missing one
        if batches is None or not _visible_to_public(room, key, seat):
            raise RuleError("unknown_drawing")
        if ext == "ink":
            body = b"".join(struct.pack(">I", len(b)) + b for b in batches)
            return Response(body, media_type="application/octet-stream")
        if ext == "json":  # the guesses on its timeline, once revealed
            return JSONResponse(await timeline_json(room, rooms_of(request).store, key, seat))
        colour = next(
            (COLOUR_HEX[p.colour] for p in room.model.all_players()
             if p.seat == seat and p.colour in COLOUR_HEX),
            "#222222",
        )
        animated = ext in ("gif", "webp")  # the replay, animated (bounded: atelier.ink.animate)
        size = request.query_params.get("size", "320" if animated else "1024")
        if not PNG_SIZE.fullmatch(size):
            raise RuleError("bad_query", name="size")
        if animated:
            px = min(480, max(64, int(size)))
            data = await animations.get((code, key, seat, len(batches), px, colour, ext), batches)
            return Response(data, media_type=f"image/{ext}")
        px = min(2048, max(64, int(size)))
        png = await pngs.get((code, key, seat, len(batches), px, colour), list(batches))
        return Response(png, media_type="image/png")

    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str) -> None:
        await serve_socket(ws, code, ws.app.state.rooms, config.allowed_origins,
                           addresses, address_of(ws, config.address_policy), proxies,
                           config.hello_seconds)

    app.include_router(decks_router)
    app.include_router(seats_router)
    app.include_router(pwa_router(build_shell(config.web_dir)))
    # a registered game's screens from outside web/ sit where web/NAME/ would,
    # so their imports of the shared modules ("../dom.js") read the same
    for name, folder in extra_screens().items():
        app.mount(f"/static/{name}", StaticFiles(directory=folder), name=f"static-{name}")
    app.mount("/static", StaticFiles(directory=config.web_dir, check_dir=False), name="static")
    # outermost: the headers reach answers made by the error handlers too
    app.add_middleware(SecurityHeaders)
    return app
