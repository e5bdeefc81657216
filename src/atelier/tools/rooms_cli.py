"""``atelier rooms list|show|close|export``: an operator's look at the room store.

They read the store (the SQLite file or PostgreSQL), not a running server, so
they work whether it runs or not. What they print is what a spectator of the
room may know: a running game's hidden words, cards and undrawn ink stay
hidden (the game's own spectator view and ink rules decide, as they do for the
HTTP API), and no token, host key, their hashes or the room's seed is printed.
A finished game's log is exported whole, less those.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import datetime
import json
import os
import struct
import sys
import urllib.parse
from typing import Any

from atelier.tools.store_args import add_store_options, db_path, register_games

LIST_LIMIT = 100
LIST_MAX = 10_000
HIDDEN_FIELDS = frozenset({"seed", "token_hash", "host_key_hash"})
"""Never printed: the seed foretells the room's deals; the hashes stand for credentials."""
USAGE = "usage: atelier rooms list|show|close|export [ARGS] (--help after each)"


def parser(command: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=f"atelier rooms {command}")
    if command == "list":
        ap.description = "Rooms in the store by code, a page at a time."
        ap.add_argument("--status", choices=("lobby", "playing", "over", "closed"))
        ap.add_argument("--after", default="", metavar="CODE", help="the page after this code")
        ap.add_argument("--limit", type=int, default=LIST_LIMIT,
                        help=f"rooms at most (default {LIST_LIMIT}, at most {LIST_MAX})")
    else:
        ap.add_argument("code", metavar="CODE")
    if command == "close":
        ap.description = ("Close a room: servers stop serving it and its link answers that "
                          "there is no such room. Its log stays in the store. A running "
                          "server lets go of it within its idle sweep (at most 30 s), or at "
                          "once with --redis-url (the servers' own).")
        ap.add_argument("--redis-url", help="tell the running servers that share rooms "
                        "through this Redis (atelier serve --redis-url) at once")
    if command == "export":
        ap.description = ("The room as JSON: its summary, what a spectator sees, the drawings "
                          "a spectator may see, and for a game not running its whole log.")
        ap.add_argument("--out", default="-", help="file to write (default: standard output)")
    if command in ("list", "show"):
        ap.add_argument("--json", action="store_true", help="JSON instead of text")
    add_store_options(ap)
    return ap


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("list", "show", "close", "export"):
        print(USAGE, file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    command = argv[0]
    args = parser(command).parse_args(argv[1:])
    if command == "list" and not 1 <= args.limit <= LIST_MAX:
        parser(command).error(f"--limit must be between 1 and {LIST_MAX}")
    register_games(args)
    return asyncio.run(_run(command, args))


async def _run(command: str, args: argparse.Namespace) -> int:
    from atelier.server.room.live_room import normal_code, valid_code
    from atelier.store import open_store

    code = normal_code(getattr(args, "code", "") or "")
    if command != "list" and not valid_code(code):
        print(f"atelier rooms: {code[:16]!r} is not a room code", file=sys.stderr)
        return 2
    path = db_path(args)
    if path is not None and not os.path.exists(path):  # opening would create an empty one
        print(f"atelier rooms: no database at {path} (--db PATH)", file=sys.stderr)
        return 1
    store = await open_store(path, args.database_url, args.table_prefix)
    try:
        if command == "list":
            return await _list(store, args)
        if command == "close":
            if not await store.close_room(code):
                print(f"atelier rooms: there is no room {code}", file=sys.stderr)
                return 1
            print(f"room {code} closed")
            if args.redis_url:
                return await _tell_servers(code, args)
            return 0
        found = await _room(store, code)
        if found is None:
            print(f"atelier rooms: there is no room {code}", file=sys.stderr)
            return 1
        if command == "show":
            return _show(found, args.json)
        return _export(found, args.out)
    finally:
        await store.close()


async def _tell_servers(code: str, args: argparse.Namespace) -> int:
    """The servers listening on Redis look at the store now (it stays the truth:
    the notice only says where to look)."""
    from atelier.hub import HubMessage
    from atelier.hub.base import ORIGIN_BYTES
    from atelier.hub.redis_hub import notify

    try:
        heard = await notify(args.redis_url, HubMessage(code, "closed", bytes(ORIGIN_BYTES), {}),
                             f"atelier:{args.table_prefix}")
    except Exception as error:  # closed all the same: the servers' sweep finds it
        where = urllib.parse.urlsplit(args.redis_url).hostname  # never its password
        print(f"atelier rooms: Redis at {where} did not answer ({error}); the "
              "servers let go of the room within their idle sweep", file=sys.stderr)
        return 1
    print(f"told {heard} server process{'' if heard == 1 else 'es'} listening on Redis")
    return 0


async def _list(store: Any, args: argparse.Namespace) -> int:
    rows = await store.list_rooms(args.status, args.after.upper(), args.limit)
    if args.json:
        print(json.dumps([{"code": r.code, "game": r.game, "status": r.status,
                           "created": _when(r.created)} for r in rows], indent=1))
        return 0
    for r in rows:
        print(f"{r.code}  {r.game:<12} {r.status:<8} {_when(r.created)}")
    if len(rows) == args.limit:
        print(f"(more: --after {rows[-1].code})", file=sys.stderr)
    return 0


class Found:
    """A room as its log rebuilds it, with its index row and ink."""

    def __init__(self, row: Any, events: list[Any], model: Any, ink: list[Any]) -> None:
        self.row, self.events, self.model, self.ink = row, events, model, ink


async def _room(store: Any, code: str) -> Found | None:
    from atelier.games.registry import get_game
    from atelier.server.room.model import replay_log

    row = await store.room_row(code)
    if row is None:
        return None
    events = await store.load_events(code)
    model = replay_log(code, get_game(events[0].data["game"]), events)
    return Found(row, events, model, await store.load_ink(code))


def _public(found: Found) -> dict[str, Any]:
    """What a spectator of the room may know, and the index's facts."""
    from atelier.server.room.views import room_summary

    model = found.model
    view = None if model.state is None else model.game.view(model.state, None)
    return {
        "status": found.row.status,
        "created": _when(found.row.created),
        "events": len(found.events),
        "last_change": _when(found.events[-1].at),
        "room": room_summary(model, set(), 0),
        "game": view,
        "drawings": [{"key": key, "seat": seat, "batches": len(batches)}
                     for (key, seat), batches in _visible_ink(found).items()],
    }


def _visible_ink(found: Found) -> dict[tuple[str, int], list[bytes]]:
    """The drawings a spectator may see: earlier keys (finished rounds) and, for the
    one under way, the seats the game shows everyone (as the HTTP API decides)."""
    from atelier.server.room.views import drawing_key, visible_drawers

    current = drawing_key(found.model)
    public_now = visible_drawers(found.model, None)
    out: dict[tuple[str, int], list[bytes]] = {}
    for row in found.ink:
        if row.key == current and row.seat not in public_now:
            continue
        out.setdefault((row.key, row.seat), []).append(row.data)
    return out


def _show(found: Found, as_json: bool) -> int:
    public = _public(found)
    if as_json:
        print(json.dumps(public, indent=1, ensure_ascii=False))
        return 0
    room = public["room"]
    print(f"{room['code']}: {room['game']}, {public['status']} (phase {room['phase']}), "
          f"created {public['created']}, {public['events']} events, last change "
          f"{public['last_change']}")
    for p in room["players"]:
        host = " (host)" if p.get("id") == room.get("host") else ""
        print(f"  seat {p.get('seat')}: {p.get('name')} {p.get('colour')}{host}")
    for d in public["drawings"]:
        print(f"  drawing {d['key']} seat {d['seat']}: {d['batches']} batches")
    if public["game"] is not None:
        print("  spectator's view: " + json.dumps(public["game"], ensure_ascii=False))
    return 0


def _export(found: Found, out: str) -> int:
    data = _public(found)
    data["drawings"] = [
        {"key": key, "seat": seat,
         # the .ink format of GET /api/rooms/CODE/drawings/KEY/SEAT.ink, in base64
         "ink": base64.b64encode(b"".join(struct.pack(">I", len(b)) + b for b in batches))
         .decode()}
        for (key, seat), batches in _visible_ink(found).items()]
    if found.row.status == "playing":
        data["log"] = None  # a running game's log holds its secrets
    else:
        data["log"] = [{"seq": e.seq, "kind": e.kind, "at": e.at, "data": _scrub(e.data)}
                       for e in found.events]
    text = json.dumps(data, ensure_ascii=False)
    if out == "-":
        print(text)
    else:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


def _scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items() if k not in HIDDEN_FIELDS}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


def _when(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
