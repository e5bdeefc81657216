"""The engine's advice in plain values, for the analysis pool: a hint for the
position a record ends in, and the review of a whole record.

Each job reads its record afresh (records are small and a process of the pool
shares nothing), and takes its seed from the record text, so the same record
always gets the same answer. The engine's own functions live in analysis.py.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import asdict

from atelier.games.piet import analysis
from atelier.games.piet.ai import DEFAULT_BUDGET as COMPUTER_BUDGET
from atelier.games.piet.analysis import DEFAULT_BUDGET
from atelier.games.piet.board import COLOURS, Masks, colour_at
from atelier.games.piet.notation import format_move, parse_move, read_record
from atelier.games.piet.puzzles import load as shipped_puzzles
from atelier.games.piet.rules import State, legal_moves
from atelier.jsonvalue import JSON

HINT_BUDGET = COMPUTER_BUDGET["hard"]
"""The hint's budget: the hard computer's (a hint is the move it would play)."""
REVIEW_BUDGET = DEFAULT_BUDGET
"""Per ply of a review: the engine's recommended budget (docs/piet.md, Analysis),
where a turning point is mostly the same from one seed to the next."""


def seed_of(record: str) -> int:
    """The seed for the position a record ends in (comments do not count)."""
    lines = [line.strip() for line in record.splitlines()]
    canonical = "\n".join(line for line in lines if line and not line.startswith("#"))
    return zlib.crc32(canonical.encode())


def hint_job(record: str, against: str | None) -> dict[str, JSON]:
    """The hard computer's move for the position a record ends in; with
    ``against`` (the move the player had in mind), both valued by one
    evaluation (``analysis.compare``) and a verdict that says why when the
    player's move comes out ahead."""
    state = read_record(record).final
    seed = seed_of(record)
    best = analysis.hint(state, HINT_BUDGET, seed)
    out: dict[str, JSON] = {
        "move": format_move(best.move),
        "margin": best.margin,
        "exact": best.exact,
        "against": None,
    }
    if against:
        both = analysis.compare(state, best.move, parse_move(against), HINT_BUDGET, seed)
        out["margin"], out["exact"] = both.best.margin, both.best.exact
        out["against"] = {"move": format_move(both.mine.move), "margin": both.mine.margin,
                          "exact": both.mine.exact, "verdict": both.verdict,
                          "noise": both.noise, "games": both.games}
    return out


def _cells(masks: Masks, count: int) -> str:
    return "".join(COLOURS[c] if (c := colour_at(masks, i)) >= 0 else "." for i in range(count))


def position(state: State) -> dict[str, JSON]:
    """A position as the review draws it: one character a cell, "." empty."""
    return {"palette": _cells(state.palette, 9),
            "canvases": [_cells(state.canvases[0], 16), _cells(state.canvases[1], 16)],
            "scores": list(state.scores), "phase": state.phase}


def review_job(record: str) -> dict[str, JSON]:
    started = time.perf_counter()
    replayed = read_record(record)
    plies = analysis.review(record, REVIEW_BUDGET, seed_of(record))
    return {
        "positions": [position(state) for state in replayed.states],
        "plies": [asdict(p) for p in plies],
        "seconds": round(time.perf_counter() - started, 3),
    }


PUZZLE_BUDGET = 120
"""A tried move's value: its margin is the solver's (puzzles are small endgames)."""


def puzzles() -> list[dict[str, JSON]]:
    """The shipped puzzles (``puzzles.json``), answers included."""
    return [asdict(puzzle) for puzzle in shipped_puzzles()]


def puzzles_job() -> dict[str, JSON]:
    """Every puzzle's position to draw and its legal moves; not its answer."""
    out = []
    for puzzle in puzzles():
        state = read_record(str(puzzle["record"])).final
        out.append({
            "id": puzzle["id"], "record": puzzle["record"], "moves_left": puzzle["moves_left"],
            "to_move": state.to_move, "position": position(state),
            "brushes_on": state.brushes_on, "brushes": list(state.brushes),
            "legal": sorted(format_move(m, brush=False) for m in legal_moves(state)),
        })
    return {"puzzles": out}


def try_job(record: str, move: str, answer: str, margin: int) -> dict[str, JSON]:
    """A move tried in a puzzle: whether it is the winning one, and what it is
    worth beside the answer."""
    state = read_record(record).final
    tried = analysis.value_of(state, parse_move(move), PUZZLE_BUDGET, seed_of(record))
    played = format_move(tried.move)
    return {"move": played, "margin": tried.margin, "exact": tried.exact,
            "correct": played == answer, "best_margin": margin}


def answer_job(answer: str, margin: int) -> dict[str, JSON]:
    """A puzzle's answer, asked for after trying (kept out of the puzzle list)."""
    return {"answer": answer, "margin": margin}
