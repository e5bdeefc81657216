"""Incognito's rules as a pure state machine (see atelier/games/core.py).

Phases per round: "drawing" -> "voting" -> "scored", then the next round's "drawing" or,
after the last round, "over". Every word and location of the game is dealt from the seed
in ``new`` (so none repeats); the tiles are shuffled when a round starts and unplaced vote
cards are placed at random when the voting ends, all from the generator kept in the state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated

from atelier.errors import RuleError, require
from atelier.games import absent
from atelier.games.actions import Action, Remove, Skip, System
from atelier.games.codec import SavedRng, StateCodec, saved_as
from atelier.games.core import JSON, SYSTEM, rolling, seeded
from atelier.games.incognito.actions import Confirm, DoneDrawing, DoneVoting, Vote
from atelier.games.incognito.scoring import score_round
from atelier.games.incognito.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TILES,
    pools,
    validate_settings,
)
from atelier.jsoncheck import as_int, as_number

DRAWING, VOTING, SCORED, OVER = "drawing", "voting", "scored", "over"

VoteCards = Annotated[dict[int, int], *saved_as(
    lambda cards: [[author, tile] for author, tile in sorted(cards.items())],
    lambda pairs: {int(author): int(tile) for author, tile in pairs})]
"""One voter's cards, author seat -> tile; saved as pairs, since JSON's object
keys are strings and these are seat numbers."""


@dataclass
class State:
    settings: dict[str, JSON]
    names: list[str]
    rng: SavedRng
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
    votes: list[VoteCards] = field(default_factory=list)
    """Per voter: author seat -> vote card (tile number)."""
    random_votes: list[list[int]] = field(default_factory=list)
    """Per voter: authors whose vote card was placed at random when the voting ended."""
    done_voting: list[bool] = field(default_factory=list)
    """Per player: declared done voting (voting on every drawing also finishes)."""
    confirmed: list[bool] = field(default_factory=list)
    results: list[dict[str, JSON]] = field(default_factory=list)
    """The reveal of every scored round (public)."""
    totals: list[int] = field(default_factory=list)
    removed: list[bool] = field(default_factory=list)
    """Per seat: removed by the host; plays no further part (see ``_remove``)."""
    memory: list[str] = field(default_factory=list)
    """The room's memory of dealt words ("w:...") and locations ("l:..."), this game's
    deal included (see ``deal_avoiding``)."""

    def __post_init__(self) -> None:
        if not self.removed:  # a save from before seats could be removed
            self.removed = [False] * len(self.names)

    @property
    def players(self) -> int:
        return len(self.names)

    def word_of(self, seat: int) -> str:
        return self.deal_words[self.round - 1][seat]

    def location_of(self, seat: int) -> str:
        return self.deal_locations[self.round - 1][seat]

    def tile_of(self, seat: int) -> int:
        return self.tiles.index(self.word_of(seat)) + 1

    def is_removed(self, seat: int) -> bool:
        return 0 <= seat < len(self.removed) and self.removed[seat]

    def finished_voting(self, seat: int) -> bool:
        return self.done_voting[seat] or len(self.votes[seat]) == self.players - 1


# --- building ---------------------------------------------------------------------------


def deal_avoiding(rng: random.Random, pool: Sequence[str], count: int, prefix: str,
                  memory: list[str]) -> list[str]:
    """``count`` items of ``pool`` at random, none in ``memory`` (the room's earlier
    deals, as ``prefix + item``) while the pool has enough others. When it runs out,
    every unseen item is dealt and the room starts the pool afresh: it forgets the
    pool and remembers only what the rest of this deal took from it. Adds the deal
    to ``memory``."""
    seen = set(memory)
    fresh = [item for item in pool if prefix + item not in seen]
    if len(fresh) >= count:
        dealt = rng.sample(fresh, count)
    else:
        again = rng.sample([item for item in pool if prefix + item in seen],
                           count - len(fresh))
        dealt = fresh + again
        rng.shuffle(dealt)
        memory[:] = [m for m in memory if not m.startswith(prefix)]
        memory.extend(prefix + item for item in again)
        return dealt
    memory.extend(prefix + item for item in dealt)
    return dealt


def new(settings: Mapping[str, JSON], seats: Sequence[str], seed: int,
        dealt: Sequence[str] = ()) -> State:
    """A new game; ``dealt``: the room's memory of words and locations its earlier games
    dealt, none dealt again until its pool runs out."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RuleError("seat_count", min=MIN_PLAYERS, max=MAX_PLAYERS)
    full = validate_settings(settings, len(seats))
    words, locations = pools(full)
    rounds = as_int(full["rounds"])
    state = State(
        settings=full,
        names=list(seats),
        rng=seeded(seed),
        deal_words=[],
        deal_locations=[],
        results=[],
        totals=[0] * len(seats),
        memory=[str(item) for item in dealt],
        removed=[False] * len(seats),
    )
    with rolling(state) as rng:
        dealt_words = deal_avoiding(rng, words, TILES * rounds, "w:", state.memory)
        dealt_locations = deal_avoiding(rng, locations, len(seats) * rounds, "l:", state.memory)
    state.deal_words = [dealt_words[r * TILES:(r + 1) * TILES] for r in range(rounds)]
    state.deal_locations = [dealt_locations[r * len(seats):(r + 1) * len(seats)]
                            for r in range(rounds)]
    _start_round(state, 1, None)
    return state


def _start_round(state: State, number: int, now: float | None) -> None:
    n = state.players
    state.phase = DRAWING
    state.round = number
    state.started = now
    state.countdown_end = None
    out = [state.is_removed(s) for s in range(n)]
    state.done_drawing = list(out)
    with rolling(state) as rng:
        state.tiles = rng.sample(state.deal_words[number - 1], TILES)
    state.votes = [{} for _ in range(n)]
    state.random_votes = [[] for _ in range(n)]
    state.done_voting = list(out)
    state.confirmed = list(out)


# --- time --------------------------------------------------------------------------------


def clock(state: State) -> tuple[str, float] | None:
    """The clock that runs out first in this phase, once it is known: ("countdown",
    when it ends) after all but one are done, or ("limit", when it ends) for the
    drawing time limit; None if no clock runs."""
    clocks: list[tuple[str, float]] = []
    if state.phase in (DRAWING, VOTING) and state.countdown_end is not None:
        clocks.append(("countdown", state.countdown_end))
    limit = _limit_end(state) if state.phase == DRAWING else None
    if limit is not None:
        clocks.append(("limit", limit))
    return min(clocks, key=lambda c: c[1]) if clocks else None


def _due(state: State) -> float | None:
    """When the current phase's timer runs out, once its clock is known."""
    running = clock(state)
    return None if running is None else running[1]


def _limit_end(state: State) -> float | None:
    limit = state.settings["drawing_time_limit"]
    if limit is None or state.started is None:
        return None
    return state.started + as_number(limit)


def deadline(state: State) -> float | None:
    if (state.phase == DRAWING and state.started is None
            and state.settings["drawing_time_limit"] is not None):
        # Round 1 begins without a clock reading: ask for a timeout at once, which
        # starts the drawing time limit (see apply).
        return 0.0
    return _due(state)


# --- actions -----------------------------------------------------------------------------


_SYSTEM_ONLY = (System, Skip, Remove)


def apply(state: State, seat: int, action: Action, now: float) -> State:
    require(isinstance(action, (*_SYSTEM_ONLY, DoneDrawing, Vote, DoneVoting, Confirm)),
            "bad_action")
    require(state.phase != OVER, "game_over")
    system = isinstance(action, _SYSTEM_ONLY)
    if system:
        require(seat == SYSTEM, "incognito.system_only")
    else:
        require(0 <= seat < state.players, "not_a_player")
        require(not state.is_removed(seat), "player_removed", name=state.names[seat])

    nxt = _clone(state)
    if nxt.phase == DRAWING and nxt.started is None:
        nxt.started = now
        if action == System(type="timeout") and nxt.settings["drawing_time_limit"] is not None:
            return nxt  # the timeout deadline() asked for to start round 1's drawing clock
    due = _due(nxt)
    if not system and due is not None:
        require(now < due, "incognito.time_up")
    match action:
        case DoneDrawing():
            _done_drawing(nxt, seat, now)
        case Vote(author=author, tile=tile):
            _vote(nxt, seat, author, tile, now)
        case DoneVoting():
            _done_voting(nxt, seat, now)
        case Confirm():
            _confirm(nxt, seat, now)
        case System(type="timeout"):
            _timeout(nxt, now)
        case System(type="advance"):
            _advance(nxt, now)
        case Skip(seats=seats):
            require(nxt.phase in (DRAWING, VOTING, SCORED), "wrong_phase")
            absent.skip(nxt, seats, WAITS, now)
        case Remove(seat=target):
            require(nxt.phase in (DRAWING, VOTING, SCORED), "wrong_phase")
            absent.remove(nxt, target, WAITS, now)
    return nxt


def _advance(state: State, now: float) -> None:
    if state.phase in (DRAWING, VOTING):
        # The host hurries a table that waits on absent players: the same
        # countdown the rules start once all but one are finished.
        require(state.countdown_end is None, "wrong_phase")
        state.countdown_end = now + as_number(state.settings["countdown"])
    else:
        require(state.phase == SCORED, "wrong_phase")
        _next_round(state, now)


def _clone(state: State) -> State:
    """A copy that apply may change freely. Settings, names and the deal never change after
    ``new`` and scored rounds' reveals never change after scoring, so those are shared
    (a deep copy of everything costs ten times as much)."""
    return replace(
        state,
        done_drawing=list(state.done_drawing),
        tiles=list(state.tiles),
        votes=[dict(ballot) for ballot in state.votes],
        random_votes=[list(authors) for authors in state.random_votes],
        done_voting=list(state.done_voting),
        confirmed=list(state.confirmed),
        removed=list(state.removed),
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
    elif sum(done) >= state.players - 1 and state.countdown_end is None:
        state.countdown_end = now + as_number(state.settings["countdown"])


def _start_voting(state: State) -> None:
    state.phase = VOTING
    state.done_drawing = [True] * state.players
    state.done_voting = [d or state.is_removed(s) for s, d in enumerate(state.done_voting)]
    state.countdown_end = None


def _vote(state: State, seat: int, author: int, tile: int, now: float) -> None:
    require(state.phase == VOTING, "wrong_phase")
    require(0 <= author < state.players, "bad_target")
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
    finished = sum(state.finished_voting(s) for s in range(state.players))
    if finished == state.players:
        _end_voting(state)
    elif finished >= state.players - 1 and state.countdown_end is None:
        state.countdown_end = now + as_number(state.settings["countdown"])


def _timeout(state: State, now: float) -> None:
    require(state.phase in (DRAWING, VOTING), "wrong_phase")
    due = _due(state)
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
    with rolling(state) as rng:
        state.random_votes = place_remaining(rng, state.players, votes)
    state.countdown_end = None
    seats = list(range(state.players))
    words = {s: state.tile_of(s) for s in seats}
    result = score_round(seats, words, dict(enumerate(votes)))
    for s in seats:
        state.totals[s] += result.totals[s]
    state.results.append(_reveal(state, words, result.found_by, result.finding_points,
                                 result.author_points))
    state.confirmed = [c or state.is_removed(s) for s, c in enumerate(state.confirmed)]
    state.phase = OVER if state.round >= as_int(state.settings["rounds"]) else SCORED


def _reveal(state: State, words: dict[int, int], found_by: dict[int, list[int]],
            finding: dict[int, int], author: dict[int, int]) -> dict[str, JSON]:
    """The public account of a scored round."""
    drawings: list[JSON] = []
    for a in range(state.players):
        voters = [v for v in range(state.players) if v != a]
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
        "finding_points": [finding[s] for s in range(state.players)],
        "author_points": [author[s] for s in range(state.players)],
        "points": [finding[s] + author[s] for s in range(state.players)],
    }


# --- absent and removed players (the host's actions, applied as SYSTEM) --------------


def waiting_for(state: State) -> list[int]:
    """The seats the current phase waits for."""
    if state.phase == DRAWING:
        return [s for s in range(state.players) if not state.done_drawing[s]]
    if state.phase == VOTING:
        return [s for s in range(state.players) if not state.finished_voting(s)]
    if state.phase == SCORED:
        return [s for s in range(state.players) if not state.confirmed[s]]
    return []


def _treat_as_done(state: State, seat: int) -> None:
    """What ``seat`` doing nothing more this phase means, by the rules for a player the
    countdown overtakes: the drawing stays as it is; unplaced vote cards are placed at
    random when the voting ends; the scores are taken as read."""
    if state.phase == DRAWING:
        state.done_drawing[seat] = True
    elif state.phase == VOTING:
        state.done_voting[seat] = True
    elif state.phase == SCORED:
        state.confirmed[seat] = True


def _move_on(state: State, now: float) -> None:
    if state.phase == DRAWING and all(state.done_drawing):
        _start_voting(state)
    elif state.phase == DRAWING and sum(state.done_drawing) >= state.players - 1:
        # all but one finished: the rules' countdown starts, as for _done_drawing
        if state.countdown_end is None:
            state.countdown_end = now + as_number(state.settings["countdown"])
    elif state.phase == VOTING:
        _after_voting_progress(state, now)
    elif state.phase == SCORED and all(state.confirmed):
        _next_round(state, now)


WAITS = absent.Waits(waiting_for=waiting_for, treat_as_done=_treat_as_done, move_on=_move_on)
"""Going on without absent players, and taking a player out (games/absent.py):
what "done" means in each phase of Incognito. A seat taken out keeps its drawing
and the votes it placed; its unplaced vote cards are placed at random, the rule
for unplaced cards."""


def _confirm(state: State, seat: int, now: float) -> None:
    require(state.phase == SCORED, "wrong_phase")
    require(not state.confirmed[seat], "incognito.already_confirmed")
    state.confirmed[seat] = True
    if all(state.confirmed):
        _next_round(state, now)


def _next_round(state: State, now: float) -> None:
    _start_round(state, state.round + 1, now)


# --- serialising -------------------------------------------------------------------------


CODEC = StateCodec(State)
"""The state's JSON form, from the field types above (games/codec.py)."""


def dump(state: State) -> dict[str, JSON]:
    return CODEC.dump(state)


def load(data: Mapping[str, JSON]) -> State:
    return CODEC.load(data)
