"""Shared fixtures: real server processes, the clients a test opens, a browser.

What they are built from (the test game, the server process, the clients) is
in ``tests/support``."""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from support.browser import LAUNCH_ARGS
from support.client import Client
from support.server import PG_URL, REDIS_URL, ServerProcess, free_port

# Property tests check what holds, never how fast: on a loaded machine the default
# 200 ms deadline per example and the "too slow" health check fail correct code.
hypothesis_settings.register_profile("atelier", deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("atelier")

def _reachable(url: str) -> bool:
    where = url.rsplit("@", 1)[-1].split("://", 1)[-1].split("/", 1)[0]
    host, _, port = where.rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=3):
            return True
    except OSError:
        return False


@pytest.fixture(autouse=True)
def _services(request: pytest.FixtureRequest) -> None:
    """A test that needs PostgreSQL or Redis fails, loudly, when it is not there:
    never a silent skip, never a confusing connection error deep inside."""
    for marker, url, what in (("postgres", PG_URL, "PostgreSQL"), ("redis", REDIS_URL, "Redis")):
        if request.node.get_closest_marker(marker) and not _reachable(url):
            pytest.fail(f"{what} is not reachable at {url}: `./run test` starts one "
                        f"(or set ATELIER_TEST_{'PG' if marker == 'postgres' else 'REDIS'}_URL)")


# --- fixtures ---------------------------------------------------------------------


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    started: list[ServerProcess] = []

    def make(*args: str, db: str | None = "default", port: int | None = None,
             env: dict[str, str] | None = None) -> ServerProcess:
        path = str(tmp_path / "atelier.sqlite3") if db == "default" else db
        port = port or free_port()
        srv = ServerProcess(port, path, list(args), log_path=str(tmp_path / f"server-{port}.log"),
                            env=env)
        srv.start()
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the tests that only need rooms of their own."""
    where = tmp_path_factory.mktemp("srv")
    srv = ServerProcess(free_port(), str(where / "atelier.sqlite3"), [],
                        log_path=str(where / "server.log")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of the test module's own (its rooms, its log), for the long browser runs."""
    db = str(tmp_path_factory.mktemp("module") / "atelier.sqlite3")
    srv = ServerProcess(free_port(), db, []).start()
    yield srv
    srv.stop()


@pytest.fixture
async def clients() -> AsyncIterator[list[Client]]:
    """Clients opened by a test, closed after it."""
    opened: list[Client] = []
    yield opened
    for c in opened:
        with contextlib.suppress(Exception):
            await c.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright, one per test module."""
    if not os.path.exists("/usr/bin/chromium"):
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=LAUNCH_ARGS,
        )
        yield b
        b.close()
