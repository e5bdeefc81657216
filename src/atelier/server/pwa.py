"""The installable app: the web app manifest, the service worker and the client's version.

The version is a hash of everything the service worker keeps (every file of
the web client, the extra games' screens, the strings of every language, the
games' list and settings schemas), taken once when the server starts. A deploy
of new files therefore changes ``/sw.js`` by a byte, which is how a browser
learns that there is a new client: it installs the new worker into a cache of
that version beside the old one, so a page never mixes old and new files
(docs/deploy.md). Every process of ``--workers N`` and every machine behind a
proxy computes the same version from the same files.

The worker is served from the root (``/sw.js``), so its scope is the whole
site without a ``Service-Worker-Allowed`` header.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from atelier.games.core import AdvisedGame
from atelier.games.registry import browser_games, extra_screens, get_game
from atelier.games.settings import schema
from atelier.i18n import LANGUAGES, catalog, pick_language

THEME = "#fdf6e9"  # index.html's theme-color: the paper the app is drawn on
BACKGROUND = "#fdf6e9"
WORKER_FILE = "sw.js"
NOT_KEPT = {WORKER_FILE}  # the worker is fetched by the browser itself, never from a cache
ICONS = (  # (file under web/icons/, size, purpose): tools/app_icons.py draws them
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-192.png", 192, "maskable"),
    ("icon-maskable-512.png", 512, "maskable"),
)


@dataclass(frozen=True)
class Shell:
    """What the service worker keeps, and its version."""

    version: str
    urls: tuple[str, ...]
    posts: tuple[str, ...]
    """Answers to a POST that read the same for everyone: the puzzles' list."""
    worker: str
    """The service worker's script as served: the version and the URLs, then web/sw.js."""


def _files(folder: Path, prefix: str) -> list[tuple[str, Path]]:
    return sorted((f"{prefix}/{p.relative_to(folder).as_posix()}", p)
                  for p in folder.rglob("*")
                  if p.is_file() and not p.name.startswith(".") and p.suffix != ".py"
                  and "__pycache__" not in p.parts)


def api_answers() -> dict[str, bytes]:
    """The API answers the shell needs with no network (the start page reads them
    before it shows anything), as the routes serve them."""
    answers = {f"/api/strings/{lang}": _json(strings)
               for lang, strings in catalog().items() if lang in LANGUAGES}
    games = browser_games()
    answers["/api/games"] = _json({"games": games})
    for game in games:
        answers[f"/api/games/{game['name']}/settings-schema"] = _json(
            schema(get_game(game["name"]).settings_model))
    return answers


def _json(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False).encode()


def build_shell(web_dir: Path) -> Shell:
    """The shell of the client served from ``web_dir``, hashed into its version."""
    files = [f for f in _files(web_dir, "/static") if f[0].rsplit("/", 1)[-1] not in NOT_KEPT]
    for name, folder in sorted(extra_screens().items()):
        files += _files(folder, f"/static/{name}")
    digest = hashlib.sha256()
    for url, path in files:
        digest.update(url.encode() + b"\0" + path.read_bytes() + b"\0")
    answers = api_answers()
    for url, body in sorted(answers.items()):
        digest.update(url.encode() + b"\0" + body + b"\0")
    source = (web_dir / WORKER_FILE).read_text(encoding="utf-8")
    digest.update(source.encode())
    version = digest.hexdigest()[:16]
    urls = ("/", *(url for url, _ in files), *sorted(answers))
    posts = tuple(f"/api/games/{game['name']}/advice/puzzles" for game in browser_games()
                  if isinstance(get_game(game["name"]), AdvisedGame))
    head = ("// Written by the server at start (atelier/server/pwa.py): this client's\n"
            "// version, a hash of the files below, the files the worker keeps, and\n"
            "// the POSTs whose answers it keeps (the same for everyone: puzzles).\n"
            f"const VERSION = {json.dumps(version)};\n"
            f"const SHELL = {json.dumps(list(urls), indent=0)};\n"
            f"const KEPT_POSTS = {json.dumps(list(posts))};\n\n")
    return Shell(version, urls, posts, head + source)


def manifest(language: str) -> dict[str, object]:
    """The web app manifest, its words in ``language``."""
    strings = catalog()[language]
    description = strings.get("start.tagline", "")
    return {
        "id": "/",
        "name": "Atelier",
        "short_name": "Atelier",
        "description": description if isinstance(description, str) else "",
        "lang": language,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "categories": ["games", "entertainment"],
        "icons": [{"src": f"/static/icons/{file}", "sizes": f"{size}x{size}",
                   "type": "image/png", "purpose": purpose}
                  for file, size, purpose in ICONS],
    }


def router(shell: Shell) -> APIRouter:
    """``/manifest.webmanifest``, ``/sw.js`` and ``/api/version``."""
    routes = APIRouter()

    @routes.get("/manifest.webmanifest", include_in_schema=False)
    async def web_manifest(request: Request, lang: str | None = None) -> Response:
        language = pick_language(lang or request.headers.get("accept-language"))
        return JSONResponse(manifest(language), media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    @routes.get(f"/{WORKER_FILE}", include_in_schema=False)
    async def worker() -> Response:
        # no-cache: the browser asks for it again on every navigation's update check
        return Response(shell.worker, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    @routes.get("/api/version")
    async def version() -> Response:
        """The client version this server serves (the page compares its own)."""
        return JSONResponse({"version": shell.version}, headers={"Cache-Control": "no-store"})

    return routes
