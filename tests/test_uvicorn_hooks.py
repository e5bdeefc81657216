"""The uvicorn internals the front door and the workers use, each by name.

pyproject.toml pins uvicorn to the release these were tested with. A refreshed
lock (`./run lock --upgrade-package uvicorn`) that brings a uvicorn without one of
them fails here, naming the hook, before any server test times out mysteriously.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

# (module, attribute path, why the server needs it)
HOOKS: list[tuple[str, str, str]] = [
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol", "HttpGuard subclasses "
     "uvicorn's httptools protocol (the body guard is its parser callbacks)"),
    ("uvicorn.config", "LOGGING_CONFIG", "atelier serve keeps uvicorn's logging for --log-format "
     "text"),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.on_message_begin",
     "HttpGuard times each request head from its first byte"),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.on_headers_complete",
     "HttpGuard stops the head timer when the head is complete"),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.handle_websocket_upgrade",
     "HttpGuard hands an upgrade on a kept-alive connection back to the front door"),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol.connection_lost",
     "HttpGuard gives the connection's count back"),
    ("uvicorn.server", "ServerState", "RoomSocket registers in server_state.connections and "
     ".tasks, so uvicorn's shutdown closes room sockets too"),
    ("uvicorn.server", "Server.startup", "WorkerServer starts uvicorn with no listening socket "
     "(startup(sockets=[]))"),
    ("uvicorn.config", "Config.http_protocol_class", "WorkerServer builds each adopted "
     "connection's protocol from it (set by Config.load)"),
]


def _find(module: str, path: str) -> Any:
    found: Any = importlib.import_module(module)
    for part in path.split("."):
        if part == "http_protocol_class":  # an attribute Config.load() sets, not a class one
            import uvicorn

            config = uvicorn.Config(lambda *a: None, http="auto")
            config.load()
            found = config
        found = getattr(found, part)
    return found


@pytest.mark.parametrize(("module", "path", "why"), HOOKS, ids=[h[1] for h in HOOKS])
def test_uvicorn_has_the_hook(module: str, path: str, why: str) -> None:
    try:
        _find(module, path)
    except (ImportError, AttributeError) as err:
        pytest.fail(f"uvicorn has no {module}.{path} ({err}); the server needs it: {why}. "
                    "Keep uvicorn at the release pinned in pyproject.toml, or adapt "
                    "src/atelier/server/wire/frontdoor.py / roomsocket.py / workers.py")


def test_every_internal_the_front_door_names_exists() -> None:
    """The front door lists what it relies on (frontdoor.UVICORN_INTERNALS): each
    dotted name must resolve in the pinned uvicorn."""
    from atelier.server.wire.frontdoor import UVICORN_INTERNALS

    missing = []
    for dotted in UVICORN_INTERNALS:
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):  # the longest importable module
            try:
                found: Any = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for part in parts[cut:]:
                    found = getattr(found, part)
            except AttributeError:
                missing.append(dotted)
            break
        else:
            missing.append(dotted)
    assert not missing, (f"uvicorn lacks {missing}, which the front door's HttpGuard uses; "
                         "keep uvicorn at the release pinned in pyproject.toml")


def test_protocols_take_the_arguments_the_front_door_passes() -> None:
    """FrontProtocol and WorkerServer build uvicorn's HTTP protocol with these keywords."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    params = inspect.signature(HttpToolsProtocol.__init__).parameters
    missing = [name for name in ("config", "server_state", "app_state", "_loop")
               if name not in params]
    assert not missing, (f"uvicorn's HttpToolsProtocol no longer takes {missing}: "
                         "frontdoor.FrontProtocol passes them")
    from uvicorn.server import ServerState

    state = ServerState()
    for name in ("connections", "tasks"):
        assert hasattr(state, name), (f"uvicorn's ServerState has no {name!r}: RoomSocket "
                                      "registers there for uvicorn's shutdown")


def test_the_installed_uvicorn_is_the_pinned_one() -> None:
    """The lock installs the release pyproject.toml pins (./run installs from the lock)."""
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    pinned = [d for d in pyproject["project"]["dependencies"] if d.startswith("uvicorn")]
    assert pinned and "==" in pinned[0], "uvicorn must be pinned exactly in pyproject.toml"
    assert version("uvicorn") == pinned[0].split("==")[1]
