"""Incognito's rules as a pure state machine (see atelier/games/core.py).

Phases per round: "drawing" -> "voting" -> "scored", then the next round's "drawing" or,
after the last round, "over". Every word and location of the game is dealt from the seed
in ``new`` (so none repeats); the tiles are shuffled when a round starts and unplaced vote
cards are placed at random when the voting ends, all from the generator kept in the state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from atelier.games.core import JSON, SYSTEM, RuleError, require
from atelier.games.incognito.scoring import score_round
from atelier.games.incognito.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TILES,
    pools,
    validate_settings,
)

DRAWING, VOTING, SCORED, OVER = "drawing", "voting", "scored", "over"
PLAYER_ACTIONS = ("done_drawing", "vote", "done_voting", "confirm")
SYSTEM_ACTIONS = ("timeout", "advance")


@dataclass
class State:
    settings: dict[str, JSON]
    names: list[str]
    rng: random.Random
    deal_words: list[list[str]]
    """Per round: TILES words, seat i's secret word at index i, deck words after."""
    deal_locations: list[list[str]]
    """Per round: seat i's location at index i."""
    phase: str = DRAWING
    round: int = 1
    started: float | None = None
    """When this round's drawing clock started (None until the first action of round 1)."""
    countdown_end: float | None = None
    done_drawing: list[bool] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)
    """The words on tiles 1..6 (index 0 is tile 1), shuffled when the round starts."""
    votes: list[dict[int, int]] = field(default_factory=list)
    """Per voter: author seat -> vote card (tile number)."""
    random_votes: list[list[int]] = field(default_factory=list)
    """Per voter: authors whose vote card was placed at random when the voting ended."""
    done_voting: list[bool] = field(default_factory=list)
    """Per player: declared done voting (voting on every drawing also finishes)."""
    confirmed: list[bool] = field(default_factory=list)
    results: list[dict[str, JSON]] = field(default_factory=list)
    """The reveal of every scored round (public)."""
    totals: list[int] = field(default_factory=list)

    @property
    def seats(self) -> int:
        return len(self.names)

    def word_of(self, seat: int) -> str:
        return self.deal_words[self.round - 1][seat]

    def location_of(self, seat: int) -> str:
        return self.deal_locations[self.round - 1][seat]

    def tile_of(self, seat: int) -> int:
        return self.tiles.index(self.word_of(seat)) + 1

    def finished_voting(self, seat: int) -> bool:
        return self.done_voting[seat] or len(self.votes[seat]) == self.seats - 1


# --- building ---------------------------------------------------------------------------


def new(settings: Mapping[str, JSON], seats: Sequence[str], seed: int) -> State:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RuleError("seat_count", min=MIN_PLAYERS, max=MAX_PLAYERS)
    full = validate_settings(settings, len(seats))
    rng = random.Random(seed)
    words, locations = pools(full)
    rounds = int(full["rounds"])
    dealt_words = rng.sample(words, TILES * rounds)
    dealt_locations = rng.sample(locations, len(seats) * rounds)
    state = State(
        settings=full,
        names=list(seats),
        rng=rng,
        deal_words=[dealt_words[r * TILES:(r + 1) * TILES] for r in range(rounds)],
        deal_locations=[dealt_locations[r * len(seats):(r + 1) * len(seats)]
                        for r in range(rounds)],
        results=[],
        totals=[0] * len(seats),
    )
    _start_round(state, 1, None)
    return state


def _start_round(state: State, number: int, now: float | None) -> None:
    n = state.seats
    state.phase = DRAWING
    state.round = number
    state.started = now
    state.countdown_end = None
    state.done_drawing = [False] * n
    state.tiles = state.rng.sample(state.deal_words[number - 1], TILES)
    state.votes = [{} for _ in range(n)]
    state.random_votes = [[] for _ in range(n)]
    state.done_voting = [False] * n
    state.confirmed = [False] * n


# --- time --------------------------------------------------------------------------------


def _due(state: State) -> float | None:
    """When the current phase's timer runs out, once its clock is known."""
    if state.phase == DRAWING:
        ends = [t for t in (state.countdown_end, _limit_end(state)) if t is not None]
        return min(ends) if ends else None
    if state.phase == VOTING:
        return state.countdown_end
    return None


def _limit_end(state: State) -> float | None:
    limit = state.settings["drawing_time_limit"]
    if limit is None or state.started is None:
        return None
    return state.started + float(limit)


def deadline(state: State) -> float | None:
    if (state.phase == DRAWING and state.started is None
            and state.settings["drawing_time_limit"] is not None):
        # Round 1 begins without a clock reading: ask for a timeout at once, which
        # starts the drawing time limit (see apply).
        return 0.0
    return _due(state)


def is_over(state: State) -> bool:
    return state.phase == OVER


# --- actions -----------------------------------------------------------------------------


def apply(state: State, seat: int, action: Mapping[str, JSON], now: float) -> State:
    require(isinstance(action, Mapping) and isinstance(action.get("type"), str), "bad_action")
    kind = str(action["type"])
    require(kind in PLAYER_ACTIONS or kind in SYSTEM_ACTIONS, "bad_action")
    require(state.phase != OVER, "game_over")
    if kind in SYSTEM_ACTIONS:
        require(seat == SYSTEM, "incognito.system_only")
    else:
        require(isinstance(seat, int) and not isinstance(seat, bool)
                and 0 <= seat < state.seats, "not_a_player")

    nxt = _clone(state)
    clock_was_off = nxt.phase == DRAWING and nxt.started is None
    if clock_was_off:
        nxt.started = now
    due = _due(nxt)
    if kind in PLAYER_ACTIONS and due is not None:
        require(now < due, "incognito.time_up")

    if kind == "done_drawing":
        _done_drawing(nxt, seat, now)
    elif kind == "vote":
        _vote(nxt, seat, action, now)
    elif kind == "done_voting":
        _done_voting(nxt, seat, now)
    elif kind == "confirm":
        _confirm(nxt, seat, now)
    elif kind == "timeout":
        _timeout(nxt, now, due, clock_was_off)
    elif nxt.phase in (DRAWING, VOTING):
        # The host hurries a table that waits on absent players: the same
        # countdown the rules start once all but one are finished.
        require(nxt.countdown_end is None, "wrong_phase")
        nxt.countdown_end = now + float(nxt.settings["countdown"])
    else:
        require(nxt.phase == SCORED, "wrong_phase")
        _next_round(nxt, now)
    return nxt


def _clone(state: State) -> State:
    """A copy that apply may change freely. Settings, names and the deal never change after
    ``new`` and scored rounds' reveals never change after scoring, so those are shared
    (a deep copy of everything costs ten times as much)."""
    rng = random.Random()
    rng.setstate(state.rng.getstate())
    return replace(
        state,
        rng=rng,
        done_drawing=list(state.done_drawing),
        tiles=list(state.tiles),
        votes=[dict(ballot) for ballot in state.votes],
        random_votes=[list(authors) for authors in state.random_votes],
        done_voting=list(state.done_voting),
        confirmed=list(state.confirmed),
        results=list(state.results),
        totals=list(state.totals),
    )


def _done_drawing(state: State, seat: int, now: float) -> None:
    require(state.phase == DRAWING, "wrong_phase")
    done = state.done_drawing
    require(not done[seat], "incognito.already_done")
    done[seat] = True
    if all(done):
        _start_voting(state)
    elif sum(done) >= state.seats - 1 and state.countdown_end is None:
        state.countdown_end = now + float(state.settings["countdown"])


def _start_voting(state: State) -> None:
    state.phase = VOTING
    state.done_drawing = [True] * state.seats
    state.countdown_end = None


def _vote(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    require(state.phase == VOTING, "wrong_phase")
    author, tile = action.get("author"), action.get("tile")
    require(isinstance(author, int) and not isinstance(author, bool)
            and 0 <= author < state.seats, "bad_action")
    require(isinstance(tile, int) and not isinstance(tile, bool), "bad_action")
    assert isinstance(author, int) and isinstance(tile, int)
    require(not state.done_voting[seat], "incognito.finished_voting")
    require(author != seat, "incognito.own_drawing")
    ballot = state.votes[seat]
    require(author not in ballot, "incognito.already_voted", author=state.names[author])
    require(1 <= tile <= TILES, "incognito.bad_tile", tile=tile, max=TILES)
    require(tile not in ballot.values(), "incognito.tile_used", tile=tile)
    ballot[author] = tile
    _after_voting_progress(state, now)


def _done_voting(state: State, seat: int, now: float) -> None:
    require(state.phase == VOTING, "wrong_phase")
    require(not state.finished_voting(seat), "incognito.finished_voting")
    state.done_voting[seat] = True
    _after_voting_progress(state, now)


def _after_voting_progress(state: State, now: float) -> None:
    finished = sum(state.finished_voting(s) for s in range(state.seats))
    if finished == state.seats:
        _end_voting(state)
    elif finished >= state.seats - 1 and state.countdown_end is None:
        state.countdown_end = now + float(state.settings["countdown"])


def _timeout(state: State, now: float, due: float | None, clock_was_off: bool) -> None:
    require(state.phase in (DRAWING, VOTING), "wrong_phase")
    limited = state.settings["drawing_time_limit"] is not None
    if clock_was_off and limited and due is not None and now < due:
        return  # the timeout deadline() asked for to start round 1's drawing clock
    require(due is not None and now >= due, "timeout_early")
    if state.phase == DRAWING:
        _start_voting(state)
    else:
        _end_voting(state)


def place_remaining(rng: random.Random, seats: int,
                    votes: list[dict[int, int]]) -> list[list[int]]:
    """Place every unplaced vote card at random: each voter's unused numbers onto the
    drawings they have not voted on, one each. Mutates ``votes``; returns, per voter, the
    authors that received a random card. Always legal: a voter holds TILES > seats - 1
    cards, so unused numbers always outnumber drawings left."""
    placed: list[list[int]] = []
    for voter in range(seats):
        ballot = votes[voter]
        open_drawings = [a for a in range(seats) if a != voter and a not in ballot]
        unused = [t for t in range(1, TILES + 1) if t not in ballot.values()]
        for author, tile in zip(open_drawings, rng.sample(unused, len(open_drawings)),
                                strict=True):
            ballot[author] = tile
        placed.append(open_drawings)
    return placed


def _end_voting(state: State) -> None:
    votes = state.votes
    state.random_votes = place_remaining(state.rng, state.seats, votes)
    state.countdown_end = None
    seats = list(range(state.seats))
    words = {s: state.tile_of(s) for s in seats}
    result = score_round(seats, words, dict(enumerate(votes)))
    for s in seats:
        state.totals[s] += result.totals[s]
    state.results.append(_reveal(state, words, result.found_by, result.finding_points,
                                 result.author_points))
    state.phase = OVER if state.round >= int(state.settings["rounds"]) else SCORED


def _reveal(state: State, words: dict[int, int], found_by: dict[int, list[int]],
            finding: dict[int, int], author: dict[int, int]) -> dict[str, JSON]:
    """The public account of a scored round."""
    drawings = []
    for a in range(state.seats):
        voters = [v for v in range(state.seats) if v != a]
        drawings.append({
            "author": a,
            "word": state.word_of(a),
            "location": state.location_of(a),
            "tile": words[a],
            "votes": [{"voter": v, "tile": state.votes[v][a],
                       "found": v in found_by[a], "random": a in state.random_votes[v]}
                      for v in voters],
            "found_by": list(found_by[a]),
            "author_points": author[a],
        })
    return {
        "round": state.round,
        "tiles": list(state.tiles),
        "drawings": drawings,
        "finding_points": [finding[s] for s in range(state.seats)],
        "author_points": [author[s] for s in range(state.seats)],
        "points": [finding[s] + author[s] for s in range(state.seats)],
    }


def _confirm(state: State, seat: int, now: float) -> None:
    require(state.phase == SCORED, "wrong_phase")
    require(not state.confirmed[seat], "incognito.already_confirmed")
    state.confirmed[seat] = True
    if all(state.confirmed):
        _next_round(state, now)


def _next_round(state: State, now: float) -> None:
    _start_round(state, state.round + 1, now)


# --- serialising -------------------------------------------------------------------------


def dump(state: State) -> dict[str, JSON]:
    version, internal, gauss = state.rng.getstate()
    raw = {
        "settings": state.settings,
        "names": state.names,
        "rng": [version, internal, gauss],
        "deal_words": state.deal_words,
        "deal_locations": state.deal_locations,
        "phase": state.phase,
        "round": state.round,
        "started": state.started,
        "countdown_end": state.countdown_end,
        "done_drawing": state.done_drawing,
        "tiles": state.tiles,
        # JSON object keys are strings; pairs keep the seat numbers as numbers
        "votes": [sorted(b.items()) for b in state.votes],
        "random_votes": state.random_votes,
        "done_voting": state.done_voting,
        "confirmed": state.confirmed,
        "results": state.results,
        "totals": state.totals,
    }
    # a JSON round trip is a detached copy, faster than deepcopy for plain data
    data: dict[str, JSON] = json.loads(json.dumps(raw))
    return data


def load(data: Mapping[str, JSON]) -> State:
    data = json.loads(json.dumps(data))
    version, internal, gauss = data["rng"]
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return State(
        settings=data["settings"],
        names=data["names"],
        rng=rng,
        deal_words=data["deal_words"],
        deal_locations=data["deal_locations"],
        phase=str(data["phase"]),
        round=int(data["round"]),
        started=data["started"],
        countdown_end=data["countdown_end"],
        done_drawing=data["done_drawing"],
        tiles=data["tiles"],
        votes=[{int(a): int(t) for a, t in pairs} for pairs in data["votes"]],
        random_votes=data["random_votes"],
        done_voting=data["done_voting"],
        confirmed=data["confirmed"],
        results=data["results"],
        totals=data["totals"],
    )
