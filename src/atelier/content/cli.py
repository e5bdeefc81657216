"""``atelier decks``: check and count the content, read custom decks.

- ``check``: every problem, one line each (file: card: what); exit 1 if any.
- ``stats [--json]``: cards per level and Incognito words/locations per language.
- ``custom FILE [--lang L] [--export json|csv]``: checks a custom deck as the
  server would (``-`` reads stdin) and can convert it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from atelier.content.check import check_all, stats
from atelier.content.custom import Format, deck_summary, export_deck, parse_deck
from atelier.content.decks import content_root
from atelier.errors import RuleError
from atelier.games.registry import game_names, get_game
from atelier.i18n import LANGUAGES, string_folders


def _root(folder: str | None) -> Traversable:
    return Path(folder) if folder else content_root()


def _games() -> list[object]:
    """Every registered game: each checks and counts its own decks."""
    return [get_game(name) for name in game_names()]


def _check(root: Traversable, shipped: bool) -> int:
    # the shipped content's check also reads every game's own strings/ folder
    game_strings = string_folders()[1:] if shipped else []
    problems = check_all(root, _games(), game_strings)
    for problem in problems:
        print(problem.line())
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    totals = [f"{game} {sum(sum(parts.values()) for parts in by_lang.values())}"
              for game, by_lang in stats(root, _games()).items()]
    print(f"ok: decks of {', '.join(totals)} (items, all languages); "
          f"strings complete in {', '.join(LANGUAGES)}")
    return 0


def _stats(root: Traversable, as_json: bool) -> int:
    counts = stats(root, _games())
    if as_json:
        print(json.dumps(counts, ensure_ascii=False))
        return 0
    for game, by_lang in counts.items():
        parts = list(next(iter(by_lang.values()), {}))
        print(f"{game:<12}" + "".join(f"{part:>11}" for part in parts))
        for lang, sizes in by_lang.items():
            print(f"  {lang:<10}" + "".join(f"{sizes[part]:>11}" for part in parts))
    return 0


def _custom(path: str, lang: str | None, export: Format | None) -> int:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cannot read {path}: {exc}", file=sys.stderr)
        return 1
    fmt: Format | None = (
        "csv" if path.lower().endswith(".csv") else "json" if path.endswith(".json") else None)
    try:
        cards = parse_deck(text, fmt, lang)
    except RuleError as err:
        print(err.message(lang or "en"), file=sys.stderr)
        return 1
    if export:
        sys.stdout.write(export_deck(cards, export))
    else:
        per_level = ", ".join(f"level {lv}: {n}" for lv, n in deck_summary(cards).items() if n)
        print(f"ok: {len(cards)} cards ({per_level})")
    return 0


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="atelier decks", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate all decks and strings")
    check.add_argument("--root", help="content folder to check (default: the installed one)")
    count = sub.add_parser("stats", help="count cards, words and locations")
    count.add_argument("--json", action="store_true", help="machine-readable output")
    count.add_argument("--root", help="content folder to count (default: the installed one)")
    custom = sub.add_parser("custom", help="check (and convert) a custom deck file")
    custom.add_argument("file", help="a .json or .csv deck, or - for stdin")
    custom.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the deck's language, for its word checks and errors (default: any, errors in en)",
    )
    custom.add_argument("--export", choices=("json", "csv"), help="print the deck in this format")
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:  # --help or a usage error: report it as our exit code
        return exc.code if isinstance(exc.code, int) else 2
    if args.command == "check":
        return _check(_root(args.root), shipped=args.root is None)
    if args.command == "stats":
        return _stats(_root(args.root), args.json)
    return _custom(args.file, args.lang, args.export)
