"""Figures for the Incognito engine: ``python -m atelier.bench.incognito_engine [REPEAT]``.

Prints microseconds per apply (a vote), per view (six players and a spectator, during the
vote and after the reveal), per dump+load, and per scored round through the scorer command's
code, on a 6-player game dealt from generated words.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

from atelier.games.actions import Action
from atelier.games.incognito import GAME
from atelier.games.incognito.actions import DoneDrawing, Vote
from atelier.games.incognito.engine import State
from atelier.tools.score_incognito import score_text

NAMES = ["a", "b", "c", "d", "e", "f"]
SETTINGS = {"custom_words": [f"word{i}" for i in range(60)],
            "custom_locations": [f"place{i}" for i in range(60)]}


def _per_call(repeat: int, calls: int, run: Callable[[], object]) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        run()
    return (time.perf_counter() - start) / (repeat * calls) * 1e6


def main(argv: list[str]) -> int:
    repeat = int(argv[0]) if argv else 200
    state = GAME.new(SETTINGS, NAMES, 1)
    for seat in range(6):
        state = GAME.apply(state, seat, DoneDrawing(), 0.0)
    voting = state
    votes: list[tuple[int, Action]] = [(v, Vote(author=a, tile=i + 1))
             for v in range(6) for i, a in enumerate(x for x in range(6) if x != v)]

    def vote_all() -> State:
        s = voting
        for seat, action in votes:
            s = GAME.apply(s, seat, action, 1.0)
        return s

    scored = vote_all()
    viewers: list[int | None] = [None, *range(6)]
    lines = {
        "apply vote, 6 players": _per_call(repeat, len(votes), vote_all),
        "view during the vote": _per_call(
            repeat, 7, lambda: [GAME.view(voting, v) for v in viewers]),
        "view after the reveal": _per_call(
            repeat, 7, lambda: [GAME.view(scored, v) for v in viewers]),
        "dump + load": _per_call(repeat, 1, lambda: GAME.load(GAME.dump(scored))),
    }
    text = json.dumps({
        "players": NAMES,
        "words": {p: i + 1 for i, p in enumerate(NAMES)},
        "votes": {v: {a: (j + i) % 6 + 1 for j, a in enumerate(NAMES) if a != v}
                  for i, v in enumerate(NAMES)},
    })
    lines["scorer, one 6-player round"] = _per_call(repeat, 1, lambda: score_text(text))
    for label, micros in lines.items():
        print(f"{label:<28} {micros:9.1f} us")
    print(f"dump size: {len(json.dumps(GAME.dump(scored)))} bytes; "
          f"view size: {len(json.dumps(GAME.view(scored, 0)))} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
