"""Every action a player may take now, as OpenSpiel's ``legal_actions`` (Piet has its own).

Each listed action is one ``apply`` accepts from that seat in this state, with
every field written out (``apply`` also takes them with optional fields left
out); it refuses any other. Tests play random games from it.
"""

from __future__ import annotations

from atelier.games.core import JSON
from atelier.games.pictomania.engine import NUMBERS, may_replace, may_take_token, spent_numbers
from atelier.games.pictomania.reveal import labels
from atelier.games.pictomania.state import State


def legal_actions(state: State, seat: int) -> list[dict[str, JSON]]:
    if not 0 <= seat < state.players or state.is_removed(seat):
        return []
    if state.phase == "display":
        actions: list[dict[str, JSON]] = [{"type": "ready", "ready": r} for r in (True, False)]
        if may_replace(state, seat):
            names = labels(state.settings)[: len(state.display)]
            actions += [{"type": "replace", "card": name} for name in names]
        return actions
    if state.phase == "drawing":
        return _drawing(state, seat)
    if state.phase == "review":
        confirm: list[dict[str, JSON]] = [{"type": "confirm"}]
        return confirm + [
            {"type": "void", "target": target, "void": void}
            for target in range(state.players) for void in (True, False)]
    return []


def _drawing(state: State, seat: int) -> list[dict[str, JSON]]:
    if state.seats[seat].finished:
        return []
    actions: list[dict[str, JSON]] = [{"type": "done"}]
    if may_take_token(state, seat):
        # 1st edition: always the highest token; the 2nd lets a player take any.
        values = (sorted(set(state.black_left)) if state.settings["edition"] == "second"
                  else [max(state.black_left)])
        actions += [{"type": "black", "value": v} for v in values]
    spent = set(spent_numbers(state, seat))
    for target, drawing in enumerate(state.seats):
        if target == seat or drawing.out or any(by == seat for by, _ in drawing.stack):
            continue
        actions += [{"type": "guess", "target": target, "number": n}
                    for n in NUMBERS if n not in spent]
    return actions
