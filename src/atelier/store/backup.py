"""Backups of a SQLite store while the server runs, their check, and restoring one.

SQLite's online backup API copies the database page by page through a
connection of its own, in short steps, so the server keeps writing meanwhile
(WAL mode: readers and the one writer do not block each other). The copy is one
consistent snapshot: every event and ink batch committed before it finished,
nothing half-written. It is written beside the target and renamed into place
only once it opened and checked, so a failed backup never leaves a truncated file.

PostgreSQL has its own tools for this (``pg_dump`` / ``pg_restore``;
docs/deploy.md gives the commands).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from atelier.store.log import _tables, _use_wal, unpack_ink

PAGES_PER_STEP = 256
"""Pages copied between two pauses (1 MB at SQLite's default page size): the
server's writes wait at most one such step for the file."""
PAUSE = 0.002  # seconds between steps, so the server's writers get their turn


@dataclass(frozen=True)
class BackupReport:
    rooms: int
    events: int
    ink_batches: int
    by_status: dict[str, int]

    def line(self) -> str:
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(self.by_status.items()))
        return (f"{self.rooms} rooms ({statuses or 'none'}), {self.events} events, "
                f"{self.ink_batches} ink batches")


class BackupError(Exception):
    """The file is not a usable Atelier backup (says why)."""


def backup(source: str, target: str, prefix: str = "",
           progress: Callable[[int, int], None] | None = None) -> BackupReport:
    """Copy the SQLite store ``source`` to ``target`` while it is in use, then check
    the copy. ``progress(remaining, total)`` pages, after each step."""
    if not os.path.exists(source):
        raise BackupError(f"no database at {source}")
    partial = f"{target}.partial"
    if os.path.exists(partial):
        os.remove(partial)
    # an ordinary connection (a read-only one cannot join a WAL file's shared memory
    # when it must create it); it only reads
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst, pages=PAGES_PER_STEP, sleep=PAUSE,
                       progress=(lambda _status, left, total: progress(left, total))
                       if progress else None)
            # one self-contained file: no -wal beside it to forget when it is copied on
            dst.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            dst.close()
    finally:
        src.close()
    try:
        report = check(partial, prefix)
    except BackupError:
        os.remove(partial)
        raise
    os.replace(partial, target)
    return report


def check(path: str, prefix: str = "") -> BackupReport:
    """Open a backup read-only and prove it holds a usable store: SQLite's own
    integrity check, the tables, and every room's log replayable from its first
    event (as a server restoring it would). BackupError says what is wrong."""
    if not os.path.exists(path):
        raise BackupError(f"no file at {path}")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise BackupError(f"{path} does not open: {err}") from None
    try:
        return _check(con, prefix)
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{path} is not a readable Atelier database: {err}") from None
    finally:
        con.close()


def _check(con: sqlite3.Connection, prefix: str) -> BackupReport:
    result = con.execute("PRAGMA integrity_check").fetchone()
    if result is None or result[0] != "ok":
        raise BackupError(f"SQLite's integrity check failed: {result}")
    _, rooms, events, ink = _tables(prefix)
    have = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    missing = [t.name for t in (rooms, events, ink) if t.name not in have]
    if missing:
        raise BackupError(f"not an Atelier store: no table {', '.join(missing)}")
    by_status: dict[str, int] = {}
    codes: list[str] = []
    for code, status in con.execute(f'SELECT code, status FROM "{rooms.name}"'):
        by_status[status] = by_status.get(status, 0) + 1
        codes.append(code)
    count = 0
    for code in codes:
        count += _replay(con, events.name, code)
    batches = 0
    for seat, n, packed, data in con.execute(
            f'SELECT seat, n, batches, data FROM "{ink.name}"'):
        batches += len(unpack_ink(seat, n, packed, bytes(data)))
    return BackupReport(len(codes), count, batches, by_status)


def _replay(con: sqlite3.Connection, table: str, code: str) -> int:
    """Replay one room's log as the server would (its game's rules included)."""
    import json

    from atelier.games.registry import get_game
    from atelier.server.room.model import replay_log
    from atelier.store.log import EventRow

    rows = [EventRow(seq, kind, json.loads(data), at) for seq, kind, data, at in con.execute(
        f'SELECT seq, kind, data, at FROM "{table}" WHERE room = ? ORDER BY seq', (code,))]
    if not rows or rows[0].kind != "created":
        raise BackupError(f"room {code} has no log")
    if [r.seq for r in rows] != list(range(1, len(rows) + 1)):
        raise BackupError(f"room {code}'s log has a gap")
    try:
        replay_log(code, get_game(str(rows[0].data["game"])), rows)
    except Exception as err:  # a rule refusing the log: the backup cannot bring it back
        raise BackupError(f"room {code} does not replay: {err!r}") from None
    return len(rows)


def restore(backup_file: str, target: str, replace: bool = False,
            prefix: str = "") -> BackupReport:
    """Check ``backup_file``, then make ``target`` (a SQLite store no server is
    using) a copy of it. Refuses an existing target unless ``replace``."""
    report = check(backup_file, prefix)
    if os.path.exists(target) and not replace:
        raise BackupError(f"{target} exists: stop the server and add --replace to overwrite it")
    os.makedirs(os.path.dirname(os.path.abspath(target)) or ".", exist_ok=True)
    partial = f"{target}.partial"
    if os.path.exists(partial):
        os.remove(partial)
    src = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    for stale in (f"{target}-wal", f"{target}-shm"):  # an old file's journal must not replay
        if os.path.exists(stale):
            os.remove(stale)
    os.replace(partial, target)
    _use_wal(target)  # as the server keeps it
    return report


def report_dict(report: BackupReport) -> dict[str, Any]:
    return {"rooms": report.rooms, "events": report.events, "ink_batches": report.ink_batches,
            "by_status": report.by_status}
