"""Refusals over HTTP: one JSON shape (``views.error_body``), translated into
the asker's language, with one status per error code.

Routes raise :class:`RuleError`; the app's exception handler answers it
(:func:`rule_error`), so no route builds an error response of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ValidationError

from atelier.errors import RuleError
from atelier.i18n import pick_language
from atelier.metrics import REFUSALS
from atelier.server.room.views import error_body
from atelier.server.wire.protocol import load_json

M = TypeVar("M", bound=BaseModel)

STATUS = {
    "not_found": 404,
    "unknown_room": 404,
    "unknown_game": 404,
    "unknown_drawing": 404,
    "unknown_language": 404,
    "deck_none": 404,
    "method_not_allowed": 405,
    "not_host": 403,
    "game_started": 409,
    "body_too_large": 413,
    "custom_too_big": 413,
    "too_many_rooms": 429,
    "too_many_lookups": 429,
    "advice_too_many": 429,
    "advice_busy": 503,
    "engine_failed": 503,
    "engine_stopping": 503,
    "advice_players_only": 403,
    "json_required": 415,
    "transfer_used": 409,
    "not_joined": 403,
    "too_many_subscriptions": 429,
    "internal": 500,
}
"""HTTP status per error code; any other refusal is the request's fault: 400."""


def request_language(request: Request) -> str:
    """``?lang=`` if given, else the browser's Accept-Language."""
    return pick_language(request.query_params.get("lang")
                         or request.headers.get("accept-language"))


async def read_body(request: Request, limit: int,
                    too_big: Callable[[int], RuleError]) -> bytes:
    """The request body, refused with ``too_big(size)`` once it exceeds ``limit``
    bytes (the stream is counted: Content-Length may lie or be absent)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise too_big(int(declared))
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_big(size)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json_model(request: Request, model: type[M], limit: int, detail: str) -> M:
    """The JSON body as ``model``: ``body_too_large`` past ``limit`` bytes, else
    ``bad_message`` naming ``detail`` for anything that is not that model."""
    raw = await read_body(request, limit, lambda _size: RuleError("body_too_large", max=limit))
    try:
        return model.model_validate(load_json(raw.decode()))
    except (ValidationError, ValueError, RuleError):
        raise RuleError("bad_message", detail=detail) from None


def error_response(request: Request, err: RuleError, status: int | None = None) -> JSONResponse:
    REFUSALS.labels(err.code).inc()
    response = JSONResponse(error_body(err, request_language(request)),
                            status_code=STATUS.get(err.code, 400) if status is None else status)
    retry_after = getattr(err, "retry_after", None)  # a refusal that says when (engine.pool.Busy)
    if isinstance(retry_after, int):
        response.headers["Retry-After"] = str(retry_after)
    return response


async def rule_error(request: Request, exc: Exception) -> Response:
    """The exception handler for RuleError (registered by the app)."""
    assert isinstance(exc, RuleError)
    return error_response(request, exc)
