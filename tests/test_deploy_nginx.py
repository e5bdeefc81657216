"""The shipped nginx configuration (docs/deploy/nginx.conf) in front of two
Atelier processes sharing PostgreSQL and Redis: each room is served by one of
them, chosen by its code, and a room plays through the proxy."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from atelier.store import open_store
from support.client import Client, seated_room
from support.server import PG_URL, REDIS_URL, ServerProcess, create_room, free_port

CONF = Path(__file__).resolve().parent.parent / "docs" / "deploy" / "nginx.conf"

pytestmark = [pytest.mark.redis, pytest.mark.postgres]


def shipped_config(backends: list[int], port: int) -> str:
    """docs/deploy/nginx.conf with this test's machines and port."""
    text = CONF.read_text()
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in backends)
    text, n = re.subn(r"(?m)^    server 10\.0\.0\.\d+:8000;\n", "", text)
    assert n == 2, "the example lists two machines"
    text = text.replace("    hash $atelier_room consistent;\n",
                        "    hash $atelier_room consistent;\n" + servers)
    text, n = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", text)
    assert n == 1
    return text


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[Callable[[list[int]], ServerProcess]]:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    assert os.path.exists(binary), "nginx is missing: ./run test installs Debian's nginx-light"
    procs: list[subprocess.Popen[bytes]] = []

    def start(backends: list[int]) -> ServerProcess:
        port = free_port()
        (tmp_path / "logs").mkdir(exist_ok=True)
        (tmp_path / "atelier.conf").write_text(shipped_config(backends, port))
        (tmp_path / "nginx.conf").write_text(
            f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/logs/error.log;\n"
            "events {}\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {tmp_path}/body;\n"
            f"  proxy_temp_path {tmp_path}/proxy;\n  include {tmp_path}/atelier.conf;\n}}\n")
        procs.append(subprocess.Popen(
            [binary, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
             "-g", "daemon off; master_process off;"]))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert procs[-1].poll() is None, (tmp_path / "logs" / "error.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    return ServerProcess(port, None, [])  # only its addresses are used
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not answer")

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(10)


async def test_rooms_are_routed_by_code_and_play_through_the_proxy(
        server_factory: Callable[..., ServerProcess], nginx: Callable[[list[int]], ServerProcess],
        clients: list[Client]) -> None:
    prefix = f"n{secrets.token_hex(4)}_"
    shared = ("--database-url", PG_URL, "--redis-url", REDIS_URL, "--table-prefix", prefix)
    try:
        machines = [server_factory(*shared, db=None), server_factory(*shared, db=None)]
        proxy = nginx([m.port for m in machines])
        codes = [create_room(proxy.http) for _ in range(12)]
        served_by: dict[str, set[str]] = {}
        with httpx.Client() as http:
            for _ in range(2):
                for code in codes:
                    answer = http.get(f"{proxy.http}/api/rooms/{code}")
                    assert answer.status_code == 200, answer.text
                    served_by.setdefault(code, set()).add(answer.headers["x-atelier-upstream"])
        assert all(len(s) == 1 for s in served_by.values()), "a room has one machine"
        assert len(set().union(*served_by.values())) == 2, "both machines hold rooms"

        code, (ann, bob) = await seated_room(clients, proxy)
        assert (await bob.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
        assert (await ann.request({"t": "act", "action": {"type": "done"}}))["t"] == "ack"
        revealed = await ann.state(lambda m: m["game"]["phase"] == "reveal")
        assert revealed["game"]["words"] is not None
    finally:
        store = await open_store(url=PG_URL, prefix=prefix)
        await store.drop_tables()
        await store.close()
