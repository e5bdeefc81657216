"""Game records (docs/piet.md, Records): read in any cell order, written canonically.

A record is headers (``setup: beginner|empty``, ``brushes: on|off``), then one
move per line: ``a1b1>c3``, ``b2>a1 !d4=Y`` (a brush after painting) or
``Y@b2`` (filling). Blank lines and lines starting with ``#`` are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from atelier.errors import RuleError
from atelier.games.piet.board import CANVAS_NAMES, COLOURS, PALETTE_NAMES
from atelier.games.piet.rules import SETUPS, Fill, Move, State, new_game, paint_move, play

_PAINT = re.compile(
    r"(?P<cells>(?:[a-c][1-3])+)\s*>\s*(?P<target>[a-d][1-4])"
    r"(?:\s*!\s*(?P<bcell>[a-d][1-4])\s*=\s*(?P<bcolour>[RYB]))?"
)
_FILL = re.compile(r"(?P<colour>[RYB])\s*@\s*(?P<cell>[a-c][1-3])")
_HEADER = re.compile(r"(?P<key>[A-Za-z]+)\s*:\s*(?P<value>\S*)")


def _palette_cell(name: str) -> int:
    return PALETTE_NAMES.index(name)


def _canvas_cell(name: str) -> int:
    return CANVAS_NAMES.index(name)


def parse_move(text: str) -> Move:
    """A move in any cell order; RuleError ``piet.bad_notation`` if unreadable.
    The result is canonical but not yet checked against any position."""
    text = text.strip()
    if m := _FILL.fullmatch(text):
        return Fill(COLOURS.index(m["colour"]), _palette_cell(m["cell"]))
    if m := _PAINT.fullmatch(text):
        raw = m["cells"]
        listed = tuple(_palette_cell(raw[i : i + 2]) for i in range(0, len(raw), 2))
        brush = None
        if m["bcell"]:
            brush = (_canvas_cell(m["bcell"]), COLOURS.index(m["bcolour"]))
        return paint_move(listed, _canvas_cell(m["target"]), brush)
    raise RuleError("piet.bad_notation", text=text)


def format_move(move: Move, brush: bool = True) -> str:
    """The canonical spelling: palette cells in reading order, then the canvas
    cell of the first of them."""
    if isinstance(move, Fill):
        return f"{COLOURS[move.colour]}@{PALETTE_NAMES[move.cell]}"
    text = "".join(PALETTE_NAMES[c] for c in move.cells) + ">" + CANVAS_NAMES[move.anchor]
    if brush and move.brush is not None:
        text += f" !{CANVAS_NAMES[move.brush[0]]}={COLOURS[move.brush[1]]}"
    return text


@dataclass
class Record:
    setup: str = "beginner"
    brushes: bool = False
    moves: list[Move] = field(default_factory=list)

    def start(self) -> State:
        return new_game(self.setup, self.brushes)

    def text(self) -> str:
        lines = [f"setup: {self.setup}", f"brushes: {'on' if self.brushes else 'off'}"]
        lines.extend(format_move(m) for m in self.moves)
        return "\n".join(lines) + "\n"


class RecordError(Exception):
    """A record that cannot be read or replayed, at ``line`` (from 1, counting
    every line of the file)."""

    def __init__(self, line: int, error: RuleError) -> None:
        super().__init__(f"line {line}: {error.message('en')}")
        self.line = line
        self.error = error


@dataclass
class Replayed:
    record: Record
    states: list[State]
    """The state before the first move, then after each move."""
    points: list[int]
    """Points each move scored (the finishing bonus aside)."""

    @property
    def final(self) -> State:
        return self.states[-1]


def _header(record: Record, key: str, value: str, seen: set[str]) -> None:
    key, value = key.lower(), value.lower()
    if key in seen:
        raise RuleError("piet.duplicate_header", name=key)
    seen.add(key)
    if key == "setup" and value in SETUPS:
        record.setup = value
    elif key == "brushes" and value in ("on", "off"):
        record.brushes = value == "on"
    else:
        raise RuleError("piet.bad_header", text=f"{key}: {value}")


def read_record(text: str) -> Replayed:
    """Read and replay a whole record, checking every move; RecordError at the
    first line that is unreadable or illegal."""
    record = Record()
    seen: set[str] = set()
    state: State | None = None
    states: list[State] = []
    points: list[int] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            header = _HEADER.fullmatch(line)
            if header:
                if state is not None:
                    raise RuleError("piet.header_after_moves")
                _header(record, header["key"], header["value"], seen)
                continue
            move = parse_move(line)
            if state is None:
                state = record.start()
                states.append(state)
            state, scored = play(state, move)
        except RuleError as error:
            raise RecordError(number, error) from error
        record.moves.append(move)
        states.append(state)
        points.append(scored)
    if state is None:
        states.append(record.start())
    return Replayed(record, states, points)
