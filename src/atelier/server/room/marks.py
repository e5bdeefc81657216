"""Guesses on a drawing's timeline: where in the drawing each guess was made.

When a game action marks someone's drawing (a Pictomania guess), the logged
event also records how much of that drawing the server held at that moment:
``{"key", "seat", "n": batches, "t": the drawing's latest time in ms}``. So
the position comes from the server's log, never from a client's clock, and
a replay can show "Anna guessed after two strokes" exactly. (With several
server processes, ``n`` counts the ink this process had: a batch still on
its way from another process is not counted.)

The marks are served only once the game says the guesses are public (the
reveal): before that, who guessed when is not secret (everyone sees the
backs of the cards) but the verdicts are, so the whole timeline waits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atelier.games.actions import Action
from atelier.games.core import GuessTimelineGame
from atelier.ink.guard import InkGuard
from atelier.ink.replay import MAX_GAP_MS, timeline
from atelier.jsonvalue import JSON
from atelier.server.room.model import RoomModel
from atelier.server.room.views import drawing_key
from atelier.store import EventRow


def mark_for(
    model: RoomModel, batches: Mapping[str, Mapping[int, Sequence[bytes]]],
    guards: dict[tuple[str, int], InkGuard], action: Action,
) -> dict[str, JSON] | None:
    """The mark to log with ``action``, if it marks a drawing of the current key."""
    game = model.game
    key = drawing_key(model)
    if not isinstance(game, GuessTimelineGame) or key is None:
        return None
    target = game.marked_drawing(action)
    if not isinstance(target, int):
        return None
    n = len(batches.get(key, {}).get(target, ()))
    guard = guards.get((key, target))
    return {"key": key, "seat": target, "n": n, "t": 0 if guard is None else guard.t}


def replay_ms(drawing: Sequence[bytes], n: int, max_gap_ms: int = MAX_GAP_MS) -> int:
    """The replay time (as ``timeline`` counts it) just after the first ``n`` batches."""
    if n <= 0:
        return 0
    events = timeline(drawing[:n], max_gap_ms)
    return events[-1].vt if events else 0


def guesses_on(
    model: RoomModel, events: Sequence[EventRow], key: str, seat: int, drawing: Sequence[bytes]
) -> list[dict[str, JSON]] | None:
    """The guesses on one drawing with their place on its replay, or None while
    the game keeps them secret (the round is not revealed yet)."""
    game = model.game
    if not isinstance(game, GuessTimelineGame) or model.state is None:
        return []
    if not key.startswith(model.ink_prefix):
        return []  # a drawing of an earlier game in the room: its guesses went with it
    verdicts = game.revealed_guesses(
        model.state, key[len(model.ink_prefix):], seat)
    if verdicts is None:
        return None
    by_guesser = {v["by"]: v for v in verdicts}
    out: list[dict[str, JSON]] = []
    for row in events:
        if row.kind == "started":  # a game played again in the room reuses its keys
            out = []
        mark = row.data.get("mark") if row.kind == "action" else None
        if not mark or mark.get("key") != key or mark.get("seat") != seat:
            continue
        by = row.data["seat"]
        verdict = by_guesser.get(by)
        if verdict is None:  # a guess the game no longer counts
            continue
        n = int(mark["n"])
        out.append({
            "by": by,
            "number": verdict["number"],
            "correct": verdict["correct"],
            "at": row.data["now"],  # the server's clock when the guess was made
            "batches": n,
            "drawing_ms": int(mark["t"]),
            "replay_ms": replay_ms(drawing, n),
        })
    return out
