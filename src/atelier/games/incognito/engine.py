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
from atelier.games.codec import SavedRng, StateCodec, saved_as
from atelier.games.core import (
    JSON,
    SYSTEM,
    Handler,
    rolling,
    seeded,
)
from atelier.games.incognito.scoring import score_round
from atelier.games.incognito.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TILES,
    pools,
    validate_settings,
)
from atelier.jsoncheck import as_int, as_ints, as_number, is_int

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
    def seats(self) -> int:
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
        return self.done_voting[seat] or len(self.votes[seat]) == self.seats - 1


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
    n = state.seats
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


def is_over(state: State) -> bool:
    return state.phase == OVER


# --- actions -----------------------------------------------------------------------------


def apply(state: State, seat: int, action: Mapping[str, JSON], now: float) -> State:
    require(isinstance(action, Mapping) and isinstance(action.get("type"), str), "bad_action")
    kind = str(action["type"])
    handler = _PLAYER_ACTIONS.get(kind) or _SYSTEM_ACTIONS.get(kind)
    if handler is None:
        raise RuleError("bad_action")
    require(state.phase != OVER, "game_over")
    if kind in _SYSTEM_ACTIONS:
        require(seat == SYSTEM, "incognito.system_only")
    else:
        require(is_int(seat) and 0 <= seat < state.seats, "not_a_player")
        require(not state.is_removed(seat), "player_removed", name=state.names[seat])

    nxt = _clone(state)
    if nxt.phase == DRAWING and nxt.started is None:
        nxt.started = now
        if kind == "timeout" and nxt.settings["drawing_time_limit"] is not None:
            return nxt  # the timeout deadline() asked for to start round 1's drawing clock
    due = _due(nxt)
    if kind in _PLAYER_ACTIONS and due is not None:
        require(now < due, "incognito.time_up")
    handler(nxt, seat, action, now)
    return nxt


def _advance(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
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


def _done_drawing(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    require(state.phase == DRAWING, "wrong_phase")
    done = state.done_drawing
    require(not done[seat], "incognito.already_done")
    done[seat] = True
    if all(done):
        _start_voting(state)
    elif sum(done) >= state.seats - 1 and state.countdown_end is None:
        state.countdown_end = now + as_number(state.settings["countdown"])


def _start_voting(state: State) -> None:
    state.phase = VOTING
    state.done_drawing = [True] * state.seats
    state.done_voting = [d or state.is_removed(s) for s, d in enumerate(state.done_voting)]
    state.countdown_end = None


def _vote(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    require(state.phase == VOTING, "wrong_phase")
    author, tile = action.get("author"), action.get("tile")
    require(is_int(author) and 0 <= author < state.seats, "bad_action")
    require(is_int(tile), "bad_action")
    assert isinstance(author, int) and isinstance(tile, int)
    require(not state.done_voting[seat], "incognito.finished_voting")
    require(author != seat, "incognito.own_drawing")
    ballot = state.votes[seat]
    require(author not in ballot, "incognito.already_voted", author=state.names[author])
    require(1 <= tile <= TILES, "incognito.bad_tile", tile=tile, max=TILES)
    require(tile not in ballot.values(), "incognito.tile_used", tile=tile)
    ballot[author] = tile
    _after_voting_progress(state, now)


def _done_voting(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    require(state.phase == VOTING, "wrong_phase")
    require(not state.finished_voting(seat), "incognito.finished_voting")
    state.done_voting[seat] = True
    _after_voting_progress(state, now)


def _after_voting_progress(state: State, now: float) -> None:
    finished = sum(state.finished_voting(s) for s in range(state.seats))
    if finished == state.seats:
        _end_voting(state)
    elif finished >= state.seats - 1 and state.countdown_end is None:
        state.countdown_end = now + as_number(state.settings["countdown"])


def _timeout(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
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
        state.random_votes = place_remaining(rng, state.seats, votes)
    state.countdown_end = None
    seats = list(range(state.seats))
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


# --- absent and removed players (the host's actions, applied as SYSTEM) --------------


def waiting_for(state: State) -> list[int]:
    """The seats the current phase waits for."""
    if state.phase == DRAWING:
        return [s for s in range(state.seats) if not state.done_drawing[s]]
    if state.phase == VOTING:
        return [s for s in range(state.seats) if not state.finished_voting(s)]
    if state.phase == SCORED:
        return [s for s in range(state.seats) if not state.confirmed[s]]
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
    elif state.phase == VOTING:
        _after_voting_progress(state, now)
    elif state.phase == SCORED and all(state.confirmed):
        _next_round(state, now)


def _skip(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    """``{"type": "skip", "seats": [...]}``: go on without those (absent) players, allowed
    only when they are all the phase still waits for: the phase ends at once."""
    require(state.phase in (DRAWING, VOTING, SCORED), "wrong_phase")
    seats = _seat_list(state, action.get("seats"))
    others = [s for s in waiting_for(state) if s not in seats]
    require(not others, "still_waiting", names=", ".join(state.names[s] for s in others))
    for s in seats:
        _treat_as_done(state, s)
    _move_on(state, now)


def _remove(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    """``{"type": "remove", "seat": n}``: the seat plays no further part. Its drawing and
    the votes it placed stay in this round; from now on it is done in every phase, as a
    player who neither draws nor votes (its vote cards are placed at random, the rule for
    unplaced cards)."""
    require(state.phase in (DRAWING, VOTING, SCORED), "wrong_phase")
    target = action.get("seat")
    require(is_int(target) and 0 <= target < state.seats, "bad_action")
    assert isinstance(target, int)
    require(not state.is_removed(target), "player_removed", name=state.names[target])
    require(state.removed.count(False) > 2, "too_few_left", min=2)
    state.removed[target] = True
    _treat_as_done(state, target)
    if state.phase == DRAWING and not all(state.done_drawing):
        remaining = sum(state.done_drawing)
        if remaining >= state.seats - 1 and state.countdown_end is None:
            state.countdown_end = now + as_number(state.settings["countdown"])
    _move_on(state, now)


def _seat_list(state: State, value: JSON) -> list[int]:
    require(isinstance(value, list) and len(value) > 0
            and all(is_int(s) and 0 <= s < state.seats
                    for s in value)
            and len(set(value)) == len(value), "bad_action")
    return as_ints(value)


def _confirm(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
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


_PLAYER_ACTIONS: dict[str, Handler[State]] = {
    "done_drawing": _done_drawing,
    "vote": _vote,
    "done_voting": _done_voting,
    "confirm": _confirm,
}
_SYSTEM_ACTIONS: dict[str, Handler[State]] = {
    "timeout": _timeout,
    "advance": _advance,
    "skip": _skip,
    "remove": _remove,
}
