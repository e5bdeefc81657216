"""``atelier restore FILE``: check a backup, then make it the server's store
(stop the server first; start it again and every room comes back where it was)."""

from __future__ import annotations

import argparse
import sys

from atelier.tools.store_args import add_store_options, db_path, register_games


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="atelier restore",
        description="Check a backup made by `atelier backup`, then copy it to the store "
        "(--db). Stop the server first.")
    ap.add_argument("file", metavar="FILE")
    ap.add_argument("--replace", action="store_true",
                    help="overwrite an existing store (the server must be stopped)")
    add_store_options(ap)
    return ap


def main(argv: list[str]) -> int:
    from atelier.store.backup import BackupError, restore

    args = parser().parse_args(argv)
    register_games(args)
    target = db_path(args)
    if target is None:
        print("PostgreSQL: pg_restore --clean --if-exists --no-owner --dbname DATABASE_URL "
              "atelier.dump (docs/deploy.md, Backups)", file=sys.stderr)
        return 2
    try:
        report = restore(args.file, target, args.replace, args.table_prefix)
    except BackupError as err:
        print(f"atelier restore: {err}", file=sys.stderr)
        return 1
    print(f"restored {args.file} to {target}: {report.line()}")
    return 0
