"""``atelier serve``: start the server, print where to find it (with a QR code for phones)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import logging
import os
import resource
import socket
import sys
from pathlib import Path
from typing import Any

from atelier.server.edge.abuse import SUMMARY_SECONDS
from atelier.server.edge.addresses import (
    CONNECTIONS_PER_ADDRESS,
    LOOKUPS_PER_MINUTE,
    PENDING_HELLOS_PER_ADDRESS,
    ROOMS_PER_MINUTE,
    SOCKETS_PER_ADDRESS,
    AddressPolicy,
)
from atelier.server.edge.budget import (
    BODY_MIN_RATE,
    BODY_SECONDS,
    PENDING_MEMORY_MIB,
    SHARE_OF_FILES,
)

DEFAULT_DB = os.path.join("data", "atelier.sqlite3")
SHUTDOWN_GRACE = 5.0
"""A stop's wait for HTTP requests under way (the engine's stop at once; rooms
then write what is pending: rooms.STOP_SECONDS)."""
HEAD_SECONDS = 10.0  # as atelier.server.wire.frontdoor's, without importing uvicorn for --help
HELLO_SECONDS = 10.0  # as atelier.server.session's
# as atelier.server.push.service's and room.rooms' (the push libraries load only to serve)
CONTACT = "mailto:atelier@localhost"
PUSHES_PER_MINUTE = 12
SUBSCRIPTIONS_PER_ADDRESS = 40
SCAN_SECONDS = 60.0


def raise_file_limit() -> int:
    """Let the process open as many files as the system allows it (the soft limit up
    to the hard one): each connection is one, and a default of 1,024 is soon full.
    The limit in force after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        try:
            with open("/proc/sys/fs/nr_open") as f:
                hard = int(f.read())
        except (OSError, ValueError):
            return soft
    if soft != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, resource.getrlimit(
                resource.RLIMIT_NOFILE)[1]))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


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


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="atelier serve", description="Start the Atelier server.")
    ap.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    ap.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--db", help=f"SQLite file (default $ATELIER_DB or {DEFAULT_DB})")
    where.add_argument("--database-url", help="e.g. postgresql://user@host:5432/atelier")
    ap.add_argument("--redis-url", help="share rooms with other server processes through Redis")
    ap.add_argument("--allow-origin", action="append", default=[],
                    help="another web origin allowed to open WebSockets, "
                    "e.g. https://atelier.example.org (repeatable)")
    ap.add_argument("--forwarded-allow-ips", default=None, metavar="PROXY_IPS",
                    help="proxies whose X-Forwarded-Proto/-For are believed (the client's "
                    "scheme and address), comma-separated addresses or networks "
                    "(default $FORWARDED_ALLOW_IPS or 127.0.0.1); docs/deploy.md")
    ap.add_argument("--unload-idle", type=float, default=600, metavar="SECONDS",
                    help="a room nobody is connected to leaves memory after this long "
                         "(default 600; it comes back from the log on the next visit)")
    ap.add_argument("--creator-wait", type=float, default=None, metavar="SECONDS",
                    help="until a room's creator sits down, nobody else is host; after "
                         "their browser left, the host role waits this long for them "
                         "(default 90)")
    limits = ap.add_argument_group("per-address limits (one address may be a whole LAN party)")
    limits.add_argument("--max-rooms-per-minute", type=int, default=ROOMS_PER_MINUTE,
                        metavar="N",
                        help=f"rooms one address may create (default {ROOMS_PER_MINUTE})")
    limits.add_argument("--max-lookups-per-minute", type=int, default=LOOKUPS_PER_MINUTE,
                        metavar="N", help="room codes one address may look up: room pages' "
                        f"questions and hellos to codes that do not exist (default "
                        f"{LOOKUPS_PER_MINUTE})")
    limits.add_argument("--max-sockets", type=int, default=SOCKETS_PER_ADDRESS, metavar="N",
                        help="open TCP connections per address, HTTP and WebSocket, counted "
                        "from the accept; a trusted proxy (--forwarded-allow-ips) is not "
                        f"counted (default {SOCKETS_PER_ADDRESS})")
    limits.add_argument("--max-connections", type=int, default=CONNECTIONS_PER_ADDRESS,
                        metavar="N",
                        help=f"open WebSockets per address (default {CONNECTIONS_PER_ADDRESS})")
    limits.add_argument("--max-pending-hellos", type=int, default=PENDING_HELLOS_PER_ADDRESS,
                        metavar="N", help="WebSockets per address that have not yet said hello "
                        f"(default {PENDING_HELLOS_PER_ADDRESS})")
    ap.add_argument("--head-timeout", type=float, default=HEAD_SECONDS, metavar="SECONDS",
                    help="a connection's time to send a request head; a slower one is "
                    f"closed (default {HEAD_SECONDS:g})")
    ap.add_argument("--body-timeout", type=float, default=BODY_SECONDS, metavar="SECONDS",
                    help="a request body may pause this long (its first byte too); a "
                    f"slower one is answered 408 and closed (default {BODY_SECONDS:g})")
    ap.add_argument("--body-min-rate", type=float, default=BODY_MIN_RATE, metavar="BYTES",
                    help="bytes a second a body must average after its first --body-timeout "
                    f"seconds; 0 for no minimum (default {BODY_MIN_RATE})")
    budget = ap.add_argument_group(
        "server-wide budget for unfinished requests (connections whose request has not "
        "arrived whole); when it is full, a new one from an address that holds its share "
        "is closed unread, and any other takes the place of the slowest of the oldest")
    budget.add_argument("--pending-memory", type=int, default=PENDING_MEMORY_MIB,
                        metavar="MIB", help="memory they may take, all together "
                        f"(default {PENDING_MEMORY_MIB})")
    budget.add_argument("--max-pending", type=int, default=None, metavar="N",
                        help="how many there may be (default: the smaller of "
                        f"{SHARE_OF_FILES:g} times the open-file limit and what "
                        "--pending-memory holds)")
    ap.add_argument("--abuse-log-every", type=float, default=SUMMARY_SECONDS,
                    metavar="SECONDS", help="abuse (slow bodies and heads, sockets over the "
                    "cap, requests shed) is logged as one summary per this interval "
                    f"(default {SUMMARY_SECONDS:g})")
    ap.add_argument("--hello-timeout", type=float, default=HELLO_SECONDS, metavar="SECONDS",
                    help="a room socket's time from the upgrade to its hello "
                    f"(default {HELLO_SECONDS:g})")
    ap.add_argument("--table-prefix", default="", help=argparse.SUPPRESS)
    ap.add_argument("--ink-limits", default=None, help=argparse.SUPPRESS)  # "DRAWING,ROOM" bytes
    ap.add_argument("--extra-game", action="append", default=[], metavar="MODULE:ATTRIBUTE",
                    help="also host this game (rules: the object named, GAME by default; "
                    "screens: its module's WEB folder; repeatable; docs/architecture.md)")
    push = ap.add_argument_group("turn nudges by Web Push (docs/deploy.md)")
    push.add_argument("--push-contact", default=CONTACT, metavar="MAILTO_OR_HTTPS",
                      help="the VAPID contact push services may write to "
                      f"(default {CONTACT})")
    push.add_argument("--push-service", action="append", default=[], metavar="URL_PREFIX",
                      help="also accept subscriptions whose endpoint starts with this "
                      "(a push service of your own; the browsers' are always accepted)")
    push.add_argument("--max-pushes-per-minute", type=int, default=PUSHES_PER_MINUTE,
                      metavar="N", help=f"per room (default {PUSHES_PER_MINUTE})")
    push.add_argument("--max-subscriptions", type=int, default=SUBSCRIPTIONS_PER_ADDRESS,
                      metavar="N", help="push subscriptions one address may hold "
                      f"(default {SUBSCRIPTIONS_PER_ADDRESS})")
    push.add_argument("--due-scan", type=float, default=SCAN_SECONDS, metavar="SECONDS",
                      help="how often the store is asked for correspondence games due "
                      f"(default {SCAN_SECONDS:g})")
    ap.add_argument("--web-dir", default=None, metavar="DIR",
                    help="serve the web client from DIR instead of the installed one")
    ap.add_argument("--log-level", default="warning",
                    help="debug, info, warning (default) or error; info adds uvicorn's "
                    "access lines and the server's life cycle")
    ap.add_argument("--log-format", choices=("text", "json"), default="text",
                    help="json: one JSON object a line (time, level, process, room, "
                    "connection, event); docs/deploy.md")
    ap.add_argument("--metrics-listen", default=None, metavar="HOST:PORT",
                    help="serve Prometheus metrics on this address (off by default; "
                    "keep it off the public network). With --workers N, worker k "
                    "listens on PORT+k; docs/deploy.md")
    ap.add_argument("--workers", type=int, default=1,
                    help="server processes behind this address, each room in one of them "
                         "(default 1; docs/deploy.md)")
    ap.add_argument("--engine-workers", type=int, default=None, metavar="N",
                    help="processes for the engine's work (computer players, hints, reviews); "
                         "default: 1.5 per core, at least three, shared by the --workers "
                         "(docs/deploy.md)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)  # "k/N": this process is worker k
    ap.add_argument("--worker-fd", type=int, help=argparse.SUPPRESS)
    # a replacement in a rolling restart: loads, then waits for the parent's word
    ap.add_argument("--worker-wait", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ws-transport", choices=("lean", "uvicorn"), default="lean",
                    help=argparse.SUPPRESS)  # uvicorn's: for comparing in benchmarks
    ap.add_argument("--quiet", action="store_true", help="print only the local URL")
    return ap


def stop_engine_on_exit(server: Any, app: Any) -> None:
    """On SIGTERM/SIGINT, stop the engine at once (its waiting and running jobs
    answered ``engine_stopping``) rather than after uvicorn has waited for the
    requests those jobs hold open: a stop never waits for a search."""
    from atelier.server.app import stop_engine

    handle_exit = server.handle_exit

    def on_exit(sig: int, frame: Any) -> None:
        stop_engine(app)
        handle_exit(sig, frame)

    server.handle_exit = on_exit


def setup_logging(level: str, log_format: str = "text") -> None:
    """The server's own log (life cycle at info: rooms unloaded, a clean stop) on stderr,
    in the format asked for (atelier.logs); uvicorn's loggers get the same (main())."""
    from atelier.logs import handler

    ours = logging.getLogger("atelier")
    ours.addHandler(handler(log_format))
    asked = getattr(logging, level.upper(), logging.WARNING)
    ours.setLevel(min(logging.INFO, asked if isinstance(asked, int) else logging.WARNING))
    ours.propagate = False


def without_workers(argv: list[str]) -> list[str]:
    """The arguments for a worker: the parent's, less ``--workers``."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--workers":
            skip = True
        elif not arg.startswith("--workers="):
            out.append(arg)
    return out


def settle_heap() -> None:
    """Move everything loaded so far (the libraries, the app, the decks) out of
    the garbage collector's sight. A full collection walks every tracked object,
    and with them its pauses were the largest part of the slowest deliveries
    (docs/performance.md has the figures). They live as long as the process anyway."""
    gc.collect()
    gc.freeze()


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.workers < 1:
        parser().error("--workers must be at least 1")
    if args.engine_workers is not None and args.engine_workers < 1:
        parser().error("--engine-workers must be at least 1")
    if min(args.head_timeout, args.hello_timeout, args.body_timeout,
           args.abuse_log_every) <= 0:
        parser().error("--head-timeout, --hello-timeout, --body-timeout and "
                       "--abuse-log-every must be above 0")
    if args.body_min_rate < 0 or args.pending_memory < 1 or (
            args.max_pending is not None and args.max_pending < 1):
        parser().error("--body-min-rate must be 0 or more, --pending-memory and "
                       "--max-pending at least 1")
    if min(args.max_sockets, args.max_lookups_per_minute) < 1:
        parser().error("--max-sockets and --max-lookups-per-minute must be at least 1")
    metrics_at = None
    if args.metrics_listen:
        from atelier.metrics import parse_listen

        try:
            metrics_at = parse_listen(args.metrics_listen)
        except ValueError as err:
            parser().error(f"--metrics-listen: {err}")
        if metrics_at[1] <= args.port < metrics_at[1] + args.workers:
            # worker k listens on PORT+k: none of them may take the public port
            parser().error("--metrics-listen must not be the public port")
    open_files = raise_file_limit()
    import uvicorn
    from starlette.websockets import WebSocket

    from atelier import logs

    if args.worker:
        logs.WORKER = args.worker
    setup_logging(args.log_level, args.log_format)

    from atelier.games.registry import register
    from atelier.server.app import ServerConfig, address_of, create_app
    from atelier.server.edge.abuse import AbuseLog
    from atelier.server.edge.addresses import SocketCounts
    from atelier.server.edge.budget import BodyRules, PendingBudget, pending_limit
    from atelier.server.edge.forwarded import Proxies
    from atelier.server.engine.pool import default_workers
    from atelier.server.ink.transport import SocketTransport
    from atelier.server.push.service import PushConfig
    from atelier.server.session import serve_socket
    from atelier.server.wire.frontdoor import Defences, front_protocol
    from atelier.server.workers import OwnerOnly, WorkerServer


    db_path = None
    if not args.database_url:
        db_path = os.path.abspath(args.db or os.environ.get("ATELIER_DB") or DEFAULT_DB)
    for spec in args.extra_game:
        register(spec)
    owns, k, n = None, 0, 1
    if args.worker:
        from atelier.server.workers import owner

        k, n = (int(x) for x in args.worker.split("/"))

        def owns(code: str) -> bool:
            return owner(code, n) == k

        if metrics_at is not None:  # each worker on its own port: PORT+k
            metrics_at = (metrics_at[0], metrics_at[1] + k)

    proxies = Proxies(args.forwarded_allow_ips)
    memory = args.pending_memory << 20
    pending = PendingBudget(args.max_pending or pending_limit(open_files, memory), memory)
    config = ServerConfig(
        pending=pending,
        owns=owns,
        db_path=db_path,
        database_url=args.database_url,
        redis_url=args.redis_url,
        allowed_origins=frozenset(o.rstrip("/").lower() for o in args.allow_origin),
        table_prefix=args.table_prefix,
        idle_seconds=args.unload_idle,
        **({} if args.creator_wait is None else {"creator_wait": args.creator_wait}),
        forwarded_allow_ips=args.forwarded_allow_ips,
        address_policy=AddressPolicy(
            rooms_per_minute=args.max_rooms_per_minute,
            connections=args.max_connections,
            pending_hellos=args.max_pending_hellos,
            lookups_per_minute=args.max_lookups_per_minute,
            proxies=proxies,
        ),
        hello_seconds=args.hello_timeout,
        metrics_listen=metrics_at,
        push=PushConfig(contact=args.push_contact, services=tuple(args.push_service),
                        per_minute=args.max_pushes_per_minute,
                        per_address=args.max_subscriptions),
        scan_seconds=args.due_scan,
        # one machine's cores, shared by the server processes
        engine_workers=args.engine_workers or max(3, default_workers() // n),
    )
    if args.web_dir:
        config.web_dir = Path(args.web_dir).resolve()
    if args.ink_limits:
        drawing, room = (int(x) for x in args.ink_limits.split(","))
        config.ink_limits = (drawing, room)
    local = f"http://127.0.0.1:{args.port}/"
    if not args.worker:
        print(f"Atelier is running at {local}", flush=True)
    if not (args.quiet or args.worker):
        lans = lan_addresses() if args.host in ("0.0.0.0", "::") else []
        for addr in lans:
            print(f"On this network: http://{addr}:{args.port}/")
        if lans:
            print(qr_text(f"http://{lans[0]}:{args.port}/"))
        print(f"Database: {db_path or 'PostgreSQL ' + args.database_url.split('@')[-1]}")
        if args.redis_url:
            print(f"Sharing rooms through Redis at {args.redis_url}")
        if args.workers > 1:
            print(f"{args.workers} worker processes, each room served by one of them")
        if metrics_at is not None:
            ports = (f"{metrics_at[1]}-{metrics_at[1] + args.workers - 1}" if args.workers > 1
                     else str(metrics_at[1]))
            print(f"Prometheus metrics on {metrics_at[0]}, port {ports}, path /metrics")
        sys.stdout.flush()
    if args.workers > 1:
        from atelier.server.workers import run_parent

        return run_parent(args.host, args.port, args.workers, without_workers(argv),
                          SocketCounts(args.max_sockets, proxies))
    app = create_app(config)

    async def room_socket(ws: WebSocket, code: str, transport: SocketTransport) -> None:
        if owns is not None and not owns(code):
            # an upgrade on a connection first routed for another room: ask
            # the client to reconnect, and the parent routes it to the owner
            await ws.accept()
            await ws.close(code=1013, reason="reconnect")
            return
        await serve_socket(ws, code, app.state.rooms, config.allowed_origins,
                           app.state.addresses, address_of(ws, config.address_policy), proxies,
                           config.hello_seconds, transport)

    # Room sockets get the lean transport (atelier.server.wire.roomsocket); HTTP is uvicorn's.
    lean = args.ws_transport == "lean"
    defences = Defences(
        args.head_timeout, SocketCounts(args.max_sockets, proxies),
        BodyRules(args.body_timeout, args.body_min_rate), pending,
        AbuseLog(args.abuse_log_every))
    http: Any = front_protocol(room_socket, defences) if lean else "auto"
    settings = uvicorn.Config(
        app if owns is None else OwnerOnly(app, owns, k),
        http=http,
        # an upgrade on a kept-alive connection goes to the lean path too (HttpGuard)
        ws=http if lean else "auto",
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # uvicorn's lines through the same filter (and in JSON with --log-format json)
        log_config=logs.uvicorn_config(args.log_format, args.log_level),
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        # A phone that drops off the network without closing its socket shows
        # as away within two ping rounds (docs/party.md, absent players).
        ws_ping_interval=4,
        ws_ping_timeout=4,
        # forwarded headers are believed only from the named proxies (docs/deploy.md)
        proxy_headers=True,
        forwarded_allow_ips=proxies.spec,
        # a stop waits this long for requests under way, then cancels them
        timeout_graceful_shutdown=int(SHUTDOWN_GRACE),
    )
    settle_heap()
    if args.worker_fd is None:
        server = uvicorn.Server(settings)
    else:
        if args.worker_wait:
            from atelier.server.workers import wait_for_go

            wait_for_go(args.worker_fd)
        server = WorkerServer(settings, args.worker_fd)
    stop_engine_on_exit(server, app)
    server.run()
    return 0
