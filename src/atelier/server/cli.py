"""``atelier serve``: start the server, print where to find it (with a QR code for phones)."""

from __future__ import annotations

import argparse
import io
import os
import socket
import sys
from importlib import import_module
from typing import Any

DEFAULT_DB = os.path.join("data", "atelier.sqlite3")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other phones on the network can reach."""
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # no packet is sent: connecting a UDP socket only picks the outgoing interface
        probe.connect(("10.255.255.255", 1))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if addr not in found:
                found.append(addr)
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.")]


def qr_text(url: str) -> str:
    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.make(fit=True)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def load_game(spec: str) -> Any:
    """``module:ATTRIBUTE`` naming a game object (extra games: tests, benchmarks)."""
    module, _, attr = spec.partition(":")
    return getattr(import_module(module), attr or "GAME")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="atelier serve", description="Start the Atelier server.")
    ap.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    ap.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--db", help=f"SQLite file (default $ATELIER_DB or {DEFAULT_DB})")
    where.add_argument("--database-url", help="e.g. postgresql://user@host:5432/atelier")
    ap.add_argument("--redis-url", help="share rooms with other server processes through Redis")
    ap.add_argument("--allow-origin", action="append", default=[],
                    help="another web origin allowed to open WebSockets (repeatable)")
    ap.add_argument("--table-prefix", default="", help=argparse.SUPPRESS)
    ap.add_argument("--extra-game", action="append", default=[], help=argparse.SUPPRESS)
    ap.add_argument("--log-level", default="warning")
    ap.add_argument("--quiet", action="store_true", help="print only the local URL")
    return ap


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    import uvicorn

    from atelier.server.app import ServerConfig, create_app

    db_path = None
    if not args.database_url:
        db_path = os.path.abspath(args.db or os.environ.get("ATELIER_DB") or DEFAULT_DB)
    extra = {game.name: game for game in map(load_game, args.extra_game)}
    config = ServerConfig(
        db_path=db_path,
        database_url=args.database_url,
        redis_url=args.redis_url,
        allowed_origins=frozenset(args.allow_origin),
        table_prefix=args.table_prefix,
        extra_games=extra,
    )
    local = f"http://127.0.0.1:{args.port}/"
    print(f"Atelier is running at {local}", flush=True)
    if not args.quiet:
        lans = lan_addresses() if args.host in ("0.0.0.0", "::") else []
        for addr in lans:
            print(f"On this network: http://{addr}:{args.port}/")
        if lans:
            print(qr_text(f"http://{lans[0]}:{args.port}/"))
        print(f"Database: {db_path or 'PostgreSQL ' + args.database_url.split('@')[-1]}")
        if args.redis_url:
            print(f"Sharing rooms through Redis at {args.redis_url}")
        sys.stdout.flush()
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
    return 0
