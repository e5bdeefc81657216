"""What one seat may know of an Incognito game (docs/incognito.md lists every field).

Secrets until a round is scored: each player's word (only its author sees it) and the
numbers on vote cards (only the voter sees them). Which drawings a player has voted on is
public, like the backs of the cards on the table.
"""

from __future__ import annotations

import json

from atelier.games.core import JSON, winners
from atelier.games.incognito.engine import (
    DRAWING,
    OVER,
    SCORED,
    VOTING,
    State,
    clock,
    waiting_for,
)
from atelier.games.incognito.settings import TILES

PUBLIC_SETTINGS = ("language", "rounds", "countdown", "drawing_time_limit")


def view(state: State, seat: int | None) -> dict[str, JSON]:
    me = seat if seat is not None and 0 <= seat < state.players else None
    voting_open = state.phase == VOTING
    running = clock(state)
    players: list[dict[str, JSON]] = []
    for s in range(state.players):
        players.append({
            "seat": s,
            "name": state.names[s],
            "location": state.location_of(s),
            "done_drawing": state.done_drawing[s],
            "done_voting": state.finished_voting(s) if voting_open else state.phase != DRAWING,
            # authors this player has left a vote card on (the backs of the cards)
            "voted_on": sorted(state.votes[s]) if state.phase != DRAWING else [],
            "confirmed": state.confirmed[s],
            "total": state.totals[s],
            "removed": state.is_removed(s),
        })

    data: dict[str, JSON] = {
        "game": "incognito",
        "phase": state.phase,
        "round": state.round,
        "rounds": state.settings["rounds"],
        "settings": {key: state.settings[key] for key in PUBLIC_SETTINGS},
        "seat": me,
        "players": players,
        # one name for when time runs out, as in every game (None: no clock runs);
        # "clock" says which: the countdown after all but one are done, or the limit
        "deadline": None if running is None else running[1],
        "clock": None if running is None else running[0],
        "tiles": list(state.tiles) if state.phase != DRAWING else None,
        "word": None,
        "word_tile": None,
        "my_votes": None,
        "unused_tiles": None,
        "reveal": _copy(state.results[-1]) if state.phase in (SCORED, OVER) else None,
        "history": _copy(state.results),
        "totals": list(state.totals),
        "winners": winners(state.totals) if state.phase == OVER else None,
        "waiting_for": waiting_for(state),
    }
    if me is not None:
        data["word"] = state.word_of(me)
        if state.phase != DRAWING:
            data["word_tile"] = state.tile_of(me)
        ballot = state.votes[me]
        # keys as strings: JSON objects cannot have number keys
        data["my_votes"] = {str(author): tile for author, tile in sorted(ballot.items())}
        data["unused_tiles"] = [t for t in range(1, TILES + 1) if t not in ballot.values()]
    return data


def _copy(data: JSON) -> JSON:
    # reveals are plain JSON: a round trip copies them several times faster than deepcopy
    copied: JSON = json.loads(json.dumps(data))
    return copied

