"""Exact endgame search: the final score margin under best play by both sides,
over the whole rest of the game (the exact use of search.py's one search).

The search counts the positions it visits and gives up past its budget, so a
caller can try it wherever the game might be small enough and fall back to
something cheaper otherwise; the answer never depends on the clock. Brushes
are left out: it is used only once no player has a brush left.

Where it was built, the search runs compiled (_engine.c: the same children in
the same order, the same cut-offs, the same count of positions, the same
table), some fifty times faster; search.py's is the one without a C compiler
or with ATELIER_PURE_PYTHON=1 (docs/piet.md).
"""

from __future__ import annotations

from atelier.games.piet.rules import OVER, Move, State
from atelier.games.piet.search import OutOfBudget, Search, move_of, position

try:
    from atelier.games.piet._engine import Table
except ImportError:  # installed without a C compiler: search.py's search
    COMPILED = False
else:
    COMPILED = True


class Endgame(Search):
    """One exact search (its table is kept between calls on the same game)."""

    def __init__(self, budget: int, compiled: bool = True) -> None:
        super().__init__(budget, exact=True)
        self._compiled: Table | None = Table() if compiled and COMPILED else None
        """The compiled search's table; None: search.py's search and its ``table``."""

    def value(self, state: State, alpha: int = -10_000, beta: int = 10_000) -> int | None:
        if self._compiled is None:
            return super().value(state, alpha, beta)
        if state.phase == OVER:
            raise ValueError("the game is over")
        found, self.nodes = self._compiled.value(*position(state), alpha, beta, self.nodes,
                                                 self.budget)
        return found

    def solve(self, state: State) -> tuple[int, Move] | None:
        if self._compiled is None:
            return super().solve(state)
        value = self.value(state)
        if value is None:
            return None
        return value, move_of(state, self._compiled.best(*position(state)))

    def kept(self) -> int:
        """Positions in the table."""
        return len(self._compiled) if self._compiled is not None else len(self.table)


def solve(state: State, budget: int) -> tuple[int, Move] | None:
    """The exact value and a best move for the player to move, if the rest of
    the game can be searched within ``budget`` positions; brushes ignored."""
    return Endgame(budget).solve(state)


__all__ = ["COMPILED", "Endgame", "OutOfBudget", "solve"]
