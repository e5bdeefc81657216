"""The engine's advice in plain values, for the analysis pool: a hint for the
position a record ends in, and the review of a whole record.

Each job reads its record afresh (records are small and a process of the pool
shares nothing), and takes its seed from the record text, so the same record
always gets the same answer. The engine's own functions live in analysis.py.
"""

from __future__ import annotations

import time
import zlib
from typing import Any

from atelier.games.piet.board import COLOURS, Masks, colour_at
from atelier.games.piet.notation import format_move, parse_move, read_record
from atelier.games.piet.rules import State

HINT_BUDGET = 60
"""The hint's budget: the hard computer's (a hint is the move it would play)."""
REVIEW_BUDGET = 60
"""Per position of a review (a whole game is some forty positions)."""


def seed_of(record: str) -> int:
    """The seed for the position a record ends in (comments do not count)."""
    lines = [line.strip() for line in record.splitlines()]
    canonical = "\n".join(line for line in lines if line and not line.startswith("#"))
    return zlib.crc32(canonical.encode())


def hint_job(record: str, against: str | None) -> dict[str, Any]:
    from atelier.games.piet import analysis

    state = read_record(record).final
    seed = seed_of(record)
    best = analysis.hint(state, HINT_BUDGET, seed)
    out: dict[str, Any] = {
        "move": format_move(best.move),
        "margin": best.margin,
        "exact": best.exact,
        "against": None,
    }
    if against:
        mine = analysis.value_of(state, parse_move(against), HINT_BUDGET, seed)
        out["against"] = {"move": format_move(mine.move), "margin": mine.margin,
                          "exact": mine.exact}
    return out


def _cells(masks: Masks, count: int) -> str:
    return "".join(COLOURS[c] if (c := colour_at(masks, i)) >= 0 else "." for i in range(count))


def position(state: State) -> dict[str, Any]:
    """A position as the review draws it: one character a cell, "." empty."""
    return {"palette": _cells(state.palette, 9),
            "canvases": [_cells(state.canvases[0], 16), _cells(state.canvases[1], 16)],
            "scores": list(state.scores), "phase": state.phase}


def review_job(record: str) -> dict[str, Any]:
    from atelier.games.piet import analysis

    started = time.perf_counter()
    replayed = read_record(record)
    plies = analysis.review(record, REVIEW_BUDGET, seed_of(record))
    return {
        "positions": [position(state) for state in replayed.states],
        "plies": [
            {"ply": p.ply, "player": p.player, "played": p.played, "best": p.best,
             "played_margin": p.played_margin, "best_margin": p.best_margin,
             "loss": p.loss, "margin_after": p.margin_after, "exact": p.exact,
             "turning": p.turning}
            for p in plies
        ],
        "seconds": round(time.perf_counter() - started, 3),
    }
