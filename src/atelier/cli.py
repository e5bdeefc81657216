"""The ``atelier`` command: a thin dispatcher to each area's own ``main(argv)``.

Each area owns its sub-commands and imports lazily, so ``atelier score`` does
not pay for the web server's imports.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

# command words -> module whose main(argv) takes the remaining arguments
COMMANDS: dict[tuple[str, ...], tuple[str, str]] = {
    ("serve",): ("atelier.server.cli", "start the server (rooms for every game)"),
    ("score", "pictomania"): ("atelier.tools.score_pictomania", "score one Pictomania round"),
    ("score", "incognito"): ("atelier.tools.score_incognito", "score one Incognito round"),
    ("piet",): ("atelier.tools.piet_cli", "Piet records, legal moves, computer arena"),
    ("decks",): ("atelier.content.cli", "check and count the word decks"),
    ("bench",): ("atelier.bench.cli", "benchmarks that print figures"),
    ("backup",): ("atelier.tools.backup_cli", "copy the room store while the server runs"),
    ("restore",): ("atelier.tools.restore_cli", "make a checked backup the room store"),
    ("rooms",): ("atelier.tools.rooms_cli", "list, show, close and export rooms in the store"),
}

# commands that talk to sockets: SIGPIPE stays ignored (Python's default)
NETWORK_COMMANDS = frozenset({("serve",), ("bench",)})

USAGE = "usage: atelier COMMAND [ARGS]\n\ncommands:\n" + "\n".join(
    f"  {' '.join(words):<20} {about}" for words, (_, about) in COMMANDS.items()
)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    for words, (module, _) in sorted(COMMANDS.items(), key=lambda kv: -len(kv[0])):
        if tuple(args[: len(words)]) == words:
            if argv is None and words not in NETWORK_COMMANDS and hasattr(signal, "SIGPIPE"):
                # `atelier piet moves FILE | head` should stop quietly, like any
                # Unix tool. Never for the server: a peer's reset connection
                # would kill it (EPIPE becomes a fatal SIGPIPE, exit 141).
                signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            entry: Callable[[list[str]], int] = import_module(module).main
            return entry(args[len(words) :])
    if args[:1] in (["-h"], ["--help"], ["help"]):
        print(USAGE)
        return 0
    print(USAGE, file=sys.stderr)
    return 2
