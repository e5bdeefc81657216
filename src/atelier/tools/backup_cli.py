"""``atelier backup FILE``: a consistent copy of the SQLite store while the server
runs; ``atelier backup --check FILE``: whether a backup opens and every room in
it replays. PostgreSQL: pg_dump (docs/deploy.md, "Backups")."""

from __future__ import annotations

import argparse
import sys

from atelier.tools.store_args import add_store_options, db_path, register_games

PG_DUMP = ("PostgreSQL keeps its own backups: pg_dump --format=custom "
           "--file atelier.dump DATABASE_URL (docs/deploy.md, Backups)")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="atelier backup",
        description="Copy the room store to FILE while the server runs (SQLite's online "
        "backup), then check the copy; or --check an existing backup.")
    ap.add_argument("file", metavar="FILE")
    ap.add_argument("--check", action="store_true",
                    help="only check FILE: it opens, and every room in it replays")
    add_store_options(ap)
    return ap


def main(argv: list[str]) -> int:
    from atelier.store.backup import BackupError, backup, check

    args = parser().parse_args(argv)
    register_games(args)
    try:
        if args.check:
            report = check(args.file, args.table_prefix)
            print(f"{args.file} opens: {report.line()}")
            return 0
        source = db_path(args)
        if source is None:
            print(PG_DUMP, file=sys.stderr)
            return 2
        report = backup(source, args.file, args.table_prefix)
    except BackupError as err:
        print(f"atelier backup: {err}", file=sys.stderr)
        return 1
    print(f"backed up {source} to {args.file}: {report.line()}")
    return 0
