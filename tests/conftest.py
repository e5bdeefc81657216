"""Shared fixtures: a real server process on a free port, a WebSocket client, a test game.

The test game ("secrets") is a tiny drawing game with a secret word per seat,
hidden ink until the reveal, a deadline and an optional computer seat, so the
server's paths can be tested without depending on a real engine's rules. The
server subprocess loads it with ``--extra-game conftest:SECRETS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import httpx
import pytest
import websockets
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from pydantic import Field

from atelier.errors import RuleError, require
from atelier.games.actions import Action, ActionSchema
from atelier.games.core import SYSTEM
from atelier.games.settings import SettingsModel, checked, defaults

# Property tests check what holds, never how fast: on a loaded machine the default
# 200 ms deadline per example and the "too slow" health check fail correct code.
hypothesis_settings.register_profile("atelier", deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("atelier")

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

# The PostgreSQL and Redis the marked tests use: `./run test` starts its own (on
# free ports, passed here) when none answers on the usual ports.
PG_URL = os.environ.get("ATELIER_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("ATELIER_TEST_REDIS_URL", "redis://127.0.0.1:6379")


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


# --- the test game ------------------------------------------------------------------


SECRETS_ACTIONS = ActionSchema()


@SECRETS_ACTIONS.action
class Done(Action):
    type: Literal["done"]


@SECRETS_ACTIONS.action
class Note(Action):
    type: Literal["note"]
    text: Annotated[str, Field(max_length=40)] = ""


@SECRETS_ACTIONS.action
class SystemAction(Action):
    type: Literal["advance", "timeout"]


class SecretsSettings(SettingsModel):
    computer: bool = False
    seconds: Annotated[float, Field(ge=0, le=600)] = 0


class SecretsGame:
    """Each seat gets a secret word; everyone draws (ink hidden from others until
    the reveal); "done" ends your drawing; when all are done (or the deadline
    passes, or the host says next) the words and drawings are revealed."""

    name = "secrets"
    actions = SECRETS_ACTIONS
    min_seats = 2
    max_seats = 4
    settings_model = SecretsSettings

    def default_settings(self) -> dict[str, Any]:
        return defaults(SecretsSettings)

    def validate_settings(self, settings: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return checked(SecretsSettings, settings)

    def public_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        return dict(settings)

    def new(self, settings: Mapping[str, Any], seats: Sequence[str], seed: int) -> dict[str, Any]:
        rng = random.Random(seed)
        words = [f"secret{rng.randrange(10**9):09d}" for _ in seats]
        return {"phase": "drawing", "names": list(seats), "words": words,
                "done": [False] * len(seats), "deadline": None,
                "seconds": settings["seconds"], "log": []}

    def apply(self, state: Mapping[str, Any], seat: int, action: Mapping[str, Any],
              now: float) -> dict[str, Any]:
        s: dict[str, Any] = json.loads(json.dumps(state))
        kind = action.get("type")
        if kind == "advance":
            require(seat == SYSTEM, "not_a_player")
            require(s["phase"] in ("drawing", "reveal"), "wrong_phase")
            s["phase"] = "reveal" if s["phase"] == "drawing" else "over"
        elif kind == "timeout":
            require(seat == SYSTEM, "not_a_player")
            require(s["phase"] == "drawing" and s["deadline"] is not None, "wrong_phase")
            require(now >= s["deadline"], "timeout_early")
            s["phase"] = "reveal"
        elif kind == "done":
            require(0 <= seat < len(s["names"]), "not_a_player")
            require(s["phase"] == "drawing", "wrong_phase")
            require(not s["done"][seat], "wrong_phase")
            s["done"][seat] = True
            if s["seconds"] and s["deadline"] is None:
                s["deadline"] = now + s["seconds"]
            if all(s["done"]):
                s["phase"] = "reveal"
        elif kind == "note":
            require(0 <= seat < len(s["names"]), "not_a_player")
            require(s["phase"] == "drawing", "wrong_phase")
            s["log"].append([seat, str(action.get("text", ""))])
        else:
            raise RuleError("bad_action")
        return s

    def view(self, state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
        revealed = state["phase"] in ("reveal", "over")
        return {
            "phase": state["phase"],
            "names": state["names"],
            "done": state["done"],
            "deadline": state["deadline"],
            "notes": len(state["log"]),
            "my_word": state["words"][seat] if seat is not None and seat >= 0 else None,
            "words": state["words"] if revealed else None,
        }

    def deadline(self, state: Mapping[str, Any]) -> float | None:
        return state["deadline"] if state["phase"] == "drawing" else None

    def legal_actions(self, state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
        if state["phase"] != "drawing" or not 0 <= seat < len(state["names"]):
            return []
        notes: list[dict[str, Any]] = [{"type": "note", "text": "hello"}]
        return notes if state["done"][seat] else [{"type": "done"}, *notes]

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return bool(state["phase"] == "over")

    def dump(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return dict(state)

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return dict(data)

    # drawing
    def drawing_key(self, state: Mapping[str, Any]) -> str | None:
        return None if state["phase"] == "over" else "round-1"

    def may_draw(self, state: Mapping[str, Any], seat: int) -> bool:
        return state["phase"] == "drawing" and 0 <= seat < len(state["done"]) and not state[
            "done"][seat]

    def ink_visible(self, state: Mapping[str, Any], drawer: int, viewer: int | None) -> bool:
        return drawer == viewer or state["phase"] in ("reveal", "over")

    def ink_tools(self, state: Mapping[str, Any], seat: int) -> frozenset[str]:
        return frozenset({"pen", "undo", "clear"})

    def canvas_action(self, state: Mapping[str, Any], seat: int,
                      blank: bool) -> dict[str, Any] | None:
        return None  # no rule cares whether a canvas is empty

    # computer players
    def computer_seats(self, settings: Mapping[str, Any]) -> dict[int, str]:
        return {1: "Robot"} if settings.get("computer") else {}

    def bot_action(self, state: Mapping[str, Any], seat: int) -> dict[str, Any] | None:
        if state["phase"] == "drawing" and not state["done"][seat]:
            return {"type": "done"}
        return None


SECRETS = SecretsGame()


# --- a real server process ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    port: int
    db: str | None
    args: list[str]
    proc: subprocess.Popen[bytes] | None = None
    log_path: str | None = None  # the server's stderr (a file: a full pipe would block it)
    nofile: int | None = None  # the file limit the server starts with (its soft limit)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{ROOT / 'src'}"}
        cmd = [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--quiet", "--extra-game", "conftest:SECRETS",
               *self.args]
        if self.db:
            cmd += ["--db", self.db]
        if self.log_path is None:
            fd, self.log_path = tempfile.mkstemp(prefix="atelier-server-", suffix=".log")
            os.close(fd)
        nofile = self.nofile

        def limit_files() -> None:
            if nofile is not None:
                hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))

        with open(self.log_path, "ab") as err:
            self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                         preexec_fn=limit_files if nofile else None)
        deadline = time.monotonic() + 90  # a loaded machine starts Python slowly
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited ({self.proc.returncode}): {self.log()}")
            try:
                if httpx.get(self.http + "/healthz", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def log(self) -> str:
        """Everything the server wrote to stderr (across restarts)."""
        if self.log_path is None:
            return ""
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    started: list[ServerProcess] = []

    def make(*args: str, db: str | None = "default", port: int | None = None) -> ServerProcess:
        path = str(tmp_path / "atelier.sqlite3") if db == "default" else db
        port = port or free_port()
        srv = ServerProcess(port, path, list(args), log_path=str(tmp_path / f"server-{port}.log"))
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


async def wait_until(condition: Callable[[], bool], timeout: float = 20,
                     what: str = "condition") -> None:
    """Poll ``condition`` until it holds: wait for a state, never for a fixed time."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError(f"{what} not met in {timeout} s")
        await asyncio.sleep(0.02)


# --- clients ---------------------------------------------------------------------------


def create_room(base: str, game: str = "secrets", settings: dict[str, Any] | None = None,
                language: str = "en") -> str:
    r = httpx.post(base + "/api/rooms",
                   json={"game": game, "settings": settings or {}, "language": language})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


class Client:
    """A WebSocket client that keeps every message it receives (for leak checks)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.log: list[Any] = []
        self.pending: list[Any] = []
        self.token: str | None = None
        self.player: str | None = None
        self._next_id = 0

    @classmethod
    async def open(cls, base_ws: str, code: str, token: str | None = None, lang: str = "en",
                   **kwargs: Any) -> Client:
        ws = await websockets.connect(f"{base_ws}/ws/{code}", max_size=2**20, **kwargs)
        client = cls(ws)
        client.token = token
        await client.send({"t": "hello", "v": 1, "token": token, "lang": lang})
        return client

    async def send(self, msg: dict[str, Any] | str | bytes) -> None:
        if isinstance(msg, dict):
            msg = json.dumps(msg)
        await self.ws.send(msg)

    async def recv(self, timeout: float = 20) -> Any:
        if self.pending:
            return self.pending.pop(0)
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = raw if isinstance(raw, bytes) else json.loads(raw)
        self.log.append(msg)
        return msg

    async def expect(self, t: str, where: Callable[[Any], bool] = lambda m: True,
                     timeout: float = 20) -> Any:
        """The next message of type ``t`` matching ``where``; others are skipped
        (but kept in ``log``). ``t == "bin"`` waits for a binary frame."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {t} message")
            msg = await self.recv(left)
            if t == "bin" and isinstance(msg, bytes) and where(msg):
                return msg
            if isinstance(msg, dict) and msg.get("t") == t and where(msg):
                return msg

    async def request(self, msg: dict[str, Any], timeout: float = 20) -> Any:
        """Send with an id; the ack, or the error with that id."""
        self._next_id += 1
        rid = self._next_id
        await self.send({**msg, "id": rid})
        return await self.expect_any(("ack", "error"), lambda m: m.get("id") == rid, timeout)

    async def expect_any(self, ts: tuple[str, ...], where: Callable[[Any], bool],
                         timeout: float = 20) -> Any:
        """Like ``expect``, but messages passed over stay to be read next, so a
        reply does not swallow the state that came before it."""
        end = time.monotonic() + timeout
        skipped: list[Any] = []
        try:
            while True:
                msg = await self.recv(max(0.01, end - time.monotonic()))
                if isinstance(msg, dict) and msg.get("t") in ts and where(msg):
                    return msg
                skipped.append(msg)
        finally:
            self.pending[:0] = skipped

    async def join(self, name: str, colour: str) -> dict[str, Any]:
        await self.send({"t": "join", "name": name, "colour": colour})
        msg = await self.expect_any(("joined", "error"), lambda m: True)
        if msg["t"] == "joined":
            self.token = msg["token"]
            self.player = msg["player"]["id"]
        result: dict[str, Any] = msg
        return result

    async def state(self, where: Callable[[Any], bool] = lambda m: True,
                    timeout: float = 20) -> Any:
        return await self.expect("state", where, timeout)

    async def sync(self, timeout: float = 20) -> None:
        """A round trip: when it returns, everything the server queued for this
        client before it read the ping has arrived (in ``log``). A condition to
        wait for instead of a fixed drain before checking what did not come."""
        reply = await self.request({"t": "ping"}, timeout)
        assert reply["t"] == "ack", reply

    async def drain(self, seconds: float = 0.2) -> None:
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
            while True:
                await self.recv(seconds)

    async def close(self) -> None:
        await self.ws.close()


@pytest.fixture
async def clients() -> AsyncIterator[list[Client]]:
    """Clients opened by a test, closed after it."""
    opened: list[Client] = []
    yield opened
    for c in opened:
        with contextlib.suppress(Exception):
            await c.close()


async def open_client(opened: list[Client], srv: ServerProcess, code: str,
                      token: str | None = None, lang: str = "en", **kw: Any) -> Client:
    client = await Client.open(srv.ws, code, token, lang, **kw)
    opened.append(client)
    await client.expect("welcome", timeout=20)
    return client


async def seated_room(opened: list[Client], srv: ServerProcess, n: int = 2,
                      settings: dict[str, Any] | None = None,
                      game: str = "secrets") -> tuple[str, list[Client]]:
    """A started room with ``n`` human players (the first is host)."""
    code = create_room(srv.http, game, settings)
    colours = ["red", "blue", "green", "yellow", "purple", "orange"]
    players = []
    for i in range(n):
        c = await open_client(opened, srv, code)
        joined = await c.join(f"P{i}", colours[i])
        assert joined["t"] == "joined", joined
        players.append(c)
    reply = await players[0].request({"t": "start"})
    assert reply["t"] == "ack", reply
    for c in players:
        await c.state(lambda m: m["room"]["phase"] != "lobby")
    return code, players


# --- a real browser ------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright, one per test module."""
    if not os.path.exists("/usr/bin/chromium"):
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield b
        b.close()
