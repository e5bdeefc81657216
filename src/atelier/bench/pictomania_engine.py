"""Figures for the Pictomania engine: ``python -m atelier.bench.pictomania_engine``.

Prints microseconds per apply, per view and per dump+load of a 6-player round
on the built-in English deck (or a small generated deck if that is missing).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from atelier.games.actions import Action, System
from atelier.games.core import SYSTEM
from atelier.games.pictomania import GAME
from atelier.games.pictomania.actions import Guess

NAMES = ["a", "b", "c", "d", "e", "f"]


def _settings() -> dict[str, Any]:
    cards = [
        {"id": f"b{lv}-{i}", "level": lv, "words": [f"w{k}" for k in range(7)]}
        for lv in range(1, 5)
        for i in range(6)
    ]
    return {"custom_cards": cards, "custom_mode": "instead"}


def main(argv: list[str]) -> int:
    repeat = int(argv[0]) if argv else 200
    try:
        state = GAME.new({}, NAMES, 1)
    except Exception:  # the built-in deck may be missing while it is written
        state = GAME.new(_settings(), NAMES, 1)
    drawing = GAME.apply(state, SYSTEM, System(type="advance"), 0.0)
    actions: list[tuple[int, Action]] = [
        (p, Guess(target=t, number=n))
        for p in range(6)
        for n, t in enumerate([t for t in range(6) if t != p], start=1)
    ]
    start = time.perf_counter()
    for _ in range(repeat):
        full = drawing
        for seat, action in actions:
            full = GAME.apply(full, seat, action, 1.0)
    per_apply = (time.perf_counter() - start) / (repeat * len(actions))
    start = time.perf_counter()
    for _ in range(repeat):
        for viewer in [None, *range(6)]:
            GAME.view(full, viewer)
    per_view = (time.perf_counter() - start) / (repeat * 7)
    review = GAME.apply(full, SYSTEM, System(type="advance"), 2.0)
    start = time.perf_counter()
    for _ in range(repeat):
        GAME.view(review, 0)
    per_reveal = (time.perf_counter() - start) / repeat
    start = time.perf_counter()
    for _ in range(repeat):
        GAME.load(GAME.dump(review))
    per_dump = (time.perf_counter() - start) / repeat
    print(f"apply guess, 6 players:  {per_apply * 1e6:8.1f} us")
    print(f"view while drawing:      {per_view * 1e6:8.1f} us")
    print(f"view of the full reveal: {per_reveal * 1e6:8.1f} us")
    print(f"dump + load:             {per_dump * 1e6:8.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
