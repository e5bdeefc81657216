"""A Piet game that ends before its canvases are full (docs/piet.md,
"Correspondence play"): a player resigns, or the player to move runs out of
time. Either way the opponent wins whatever the scores, which stay as they
stood. Pure: the time comes in as an argument."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from atelier.errors import RuleError, require
from atelier.games.core import JSON

DAY_SECONDS = 86_400.0
MOVE_DAYS = (1, 3, 7)
"""The times per move a room may set, in days."""

How = Literal["resignation", "time"]


@dataclass(frozen=True)
class Ending:
    loser: int
    how: How

    def dump(self) -> dict[str, JSON]:
        return {"loser": self.loser, "how": self.how}

    @staticmethod
    def load(data: JSON) -> Ending:
        if not isinstance(data, Mapping):
            raise TypeError(f"not an ending: {data!r}")
        loser, how = data.get("loser"), data.get("how")
        if loser not in (0, 1) or how not in ("resignation", "time"):
            raise TypeError(f"not an ending: {data!r}")
        assert isinstance(loser, int)
        return Ending(loser, "time" if how == "time" else "resignation")

    def comment(self) -> str:
        """The record's last line: comments are ignored by readers, so a record
        with it still loads (as the position where the game stopped)."""
        player = self.loser + 1
        if self.how == "time":
            return f"# player {player} ran out of time: player {3 - player} wins"
        return f"# player {player} resigned: player {3 - player} wins"


def move_seconds(days: JSON) -> float | None:
    """A correspondence game's time per move in seconds; None for a live game."""
    if days is None:
        return None
    if not isinstance(days, int) or isinstance(days, bool) or days not in MOVE_DAYS:
        raise RuleError("bad_settings", field="move_days")
    return days * DAY_SECONDS


def resigned(seat: int) -> Ending:
    return Ending(seat, "resignation")


def on_time(to_move: int, deadline: float | None, now: float) -> Ending:
    """The player to move loses on time, if their time has run out at ``now``."""
    require(deadline is not None and now >= deadline, "timeout_early")
    return Ending(to_move, "time")
