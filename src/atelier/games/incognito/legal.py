"""Every action a player may take now, as OpenSpiel's ``legal_actions`` (Piet has its own).

Each listed action is one ``apply`` accepts from that seat in this state before
the phase's deadline (after it, only the timeout); it refuses any other. Tests
play random games from it.
"""

from __future__ import annotations

from atelier.games.actions import Action
from atelier.games.incognito.actions import Confirm, DoneDrawing, DoneVoting, Vote
from atelier.games.incognito.engine import DRAWING, SCORED, VOTING, State
from atelier.games.incognito.settings import TILES


def legal_actions(state: State, seat: int) -> list[Action]:
    if not 0 <= seat < state.players or state.is_removed(seat):
        return []
    if state.phase == DRAWING:
        return [] if state.done_drawing[seat] else [DoneDrawing()]
    if state.phase == VOTING:
        if state.finished_voting(seat):
            return []
        ballot = state.votes[seat]
        free = [t for t in range(1, TILES + 1) if t not in ballot.values()]
        done: list[Action] = [DoneVoting()]
        return done + [
            Vote(author=author, tile=tile)
            for author in range(state.players) if author != seat and author not in ballot
            for tile in free]
    if state.phase == SCORED:
        return [] if state.confirmed[seat] else [Confirm()]
    return []
