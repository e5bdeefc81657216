"""The options every operator command shares: which store, and which games."""

from __future__ import annotations

import argparse
import os

DEFAULT_DB = os.path.join("data", "atelier.sqlite3")  # as atelier serve's


def add_store_options(ap: argparse.ArgumentParser) -> None:
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--db", help=f"SQLite file (default $ATELIER_DB or {DEFAULT_DB})")
    where.add_argument("--database-url", help="e.g. postgresql://user@host:5432/atelier")
    ap.add_argument("--table-prefix", default="", help=argparse.SUPPRESS)
    ap.add_argument("--extra-game", action="append", default=[], metavar="MODULE:ATTRIBUTE",
                    help="a game the server hosts with --extra-game (its rooms replay with it)")


def db_path(args: argparse.Namespace) -> str | None:
    """The SQLite file, or None when a database URL was given."""
    if args.database_url:
        return None
    return os.path.abspath(args.db or os.environ.get("ATELIER_DB") or DEFAULT_DB)


def register_games(args: argparse.Namespace) -> None:
    from atelier.games.registry import register

    for spec in args.extra_game:
        register(spec)
