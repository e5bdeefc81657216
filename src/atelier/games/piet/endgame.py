"""Exact endgame search: the final score margin under best play by both sides,
over the whole rest of the game (the exact use of search.py's one search).

The search counts the positions it visits and gives up past its budget, so a
caller can try it wherever the game might be small enough and fall back to
something cheaper otherwise; the answer never depends on the clock. Brushes
are left out: it is used only once no player has a brush left.
"""

from __future__ import annotations

from atelier.games.piet.rules import Move, State
from atelier.games.piet.search import OutOfBudget, Search


class Endgame(Search):
    """One exact search (its table is kept between calls on the same game)."""

    def __init__(self, budget: int) -> None:
        super().__init__(budget, exact=True)


def solve(state: State, budget: int) -> tuple[int, Move] | None:
    """The exact value and a best move for the player to move, if the rest of
    the game can be searched within ``budget`` positions; brushes ignored."""
    return Endgame(budget).solve(state)


__all__ = ["Endgame", "OutOfBudget", "solve"]
