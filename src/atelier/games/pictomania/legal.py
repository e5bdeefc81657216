"""Every action a player may take now, as OpenSpiel's ``legal_actions`` (Piet has its own).

Each listed action is one ``apply`` accepts from that seat in this state, with
every field written out (``apply`` also takes them with optional fields left
out); it refuses any other. Tests play random games from it.
"""

from __future__ import annotations

from atelier.games.actions import Action
from atelier.games.pictomania.actions import Black, Confirm, Done, Guess, Ready, Replace, Void
from atelier.games.pictomania.engine import NUMBERS, may_replace, may_take_token, spent_numbers
from atelier.games.pictomania.reveal import labels
from atelier.games.pictomania.state import State


def legal_actions(state: State, seat: int) -> list[Action]:
    if not 0 <= seat < state.players or state.is_removed(seat):
        return []
    if state.phase == "display":
        actions: list[Action] = [Ready(ready=r) for r in (True, False)]
        if may_replace(state, seat):
            names = labels(state.settings)[: len(state.display)]
            actions += [Replace(card=name) for name in names]
        return actions
    if state.phase == "drawing":
        return _drawing(state, seat)
    if state.phase == "review":
        confirm: list[Action] = [Confirm()]
        return confirm + [
            Void(target=target, void=void)
            for target in range(state.players) for void in (True, False)]
    return []


def _drawing(state: State, seat: int) -> list[Action]:
    if state.seats[seat].finished:
        return []
    actions: list[Action] = [Done()]
    if may_take_token(state, seat):
        # 1st edition: always the highest token; the 2nd lets a player take any.
        values = (sorted(set(state.black_left)) if state.settings["edition"] == "second"
                  else [max(state.black_left)])
        actions += [Black(value=v) for v in values]
    spent = set(spent_numbers(state, seat))
    for target, drawing in enumerate(state.seats):
        if target == seat or drawing.out or any(by == seat for by, _ in drawing.stack):
            continue
        actions += [Guess(target=target, number=n)
                    for n in NUMBERS if n not in spent]
    return actions
