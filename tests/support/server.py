"""A real server process on a free port, and what a test needs around it."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent

# The PostgreSQL and Redis the marked tests use: `./run test` starts its own (on
# free ports, passed here) when none answers on the usual ports.
PG_URL = os.environ.get("ATELIER_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("ATELIER_TEST_REDIS_URL", "redis://127.0.0.1:6379")


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
    env: dict[str, str] | None = None  # more of the server's environment

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{ROOT / 'src'}", **(self.env or {})}
        cmd = [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--quiet", "--extra-game", "support.secrets_game:SECRETS",
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


async def wait_until(condition: Callable[[], bool], timeout: float = 20,
                     what: str = "condition") -> None:
    """Poll ``condition`` until it holds: wait for a state, never for a fixed time."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError(f"{what} not met in {timeout} s")
        await asyncio.sleep(0.02)


def create_room(base: str, game: str = "secrets", settings: dict[str, Any] | None = None,
                language: str = "en") -> str:
    r = httpx.post(base + "/api/rooms",
                   json={"game": game, "settings": settings or {}, "language": language})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code
