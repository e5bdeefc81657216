"""The client's version (server/http/pwa.py): the same files give the same version
on every start and machine, and any change to a file the worker keeps gives a
new one, so a deploy is always noticed and never announced without a change."""

from __future__ import annotations

import shutil
from pathlib import Path

from atelier.server.app import WEB_DIR
from atelier.server.http.pwa import build_shell


def test_the_version_follows_the_files(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    first = build_shell(web)
    assert build_shell(web).version == first.version  # a restart: the same
    assert build_shell(WEB_DIR).version == first.version  # another machine, same files
    assert first.worker.startswith("// Written by the server")
    assert f'const VERSION = "{first.version}";' in first.worker

    (web / "piet" / "cells.js").write_text((web / "piet" / "cells.js").read_text() + "\n")
    changed = build_shell(web)
    assert changed.version != first.version  # one byte in a game's screens
    (web / "icons" / "new.png").write_bytes(b"\x89PNG")
    assert build_shell(web).version != changed.version  # a new file
    assert "/static/icons/new.png" in build_shell(web).urls


def test_the_shell_is_what_the_pages_ask_for() -> None:
    shell = build_shell(WEB_DIR)
    assert shell.urls[0] == "/"  # every page of the app is index.html
    assert {"/static/app.js", "/static/styles.css", "/static/piet/game.js",
            "/static/icons/icon-512.png", "/api/games", "/api/strings/en",
            "/api/strings/de", "/api/strings/uk",
            "/api/games/piet/settings-schema"} <= set(shell.urls)
    # the worker is never kept by itself, nor anything that is not served
    assert not [u for u in shell.urls if u.endswith((".py", "/sw.js")) or "__pycache__" in u]
    assert shell.posts == ("/api/games/piet/advice/puzzles",)
