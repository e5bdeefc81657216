"""The Pictomania rules: both editions, every variant, as a pure state machine.

Phases: ``display`` (cards shown, replacements, players mark ready) ->
``drawing`` (everyone draws and guesses at once) -> ``review`` (all is revealed;
void drawings; players confirm) -> next round's ``display``, or ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atelier.content.decks import LEVELS, Card
from atelier.errors import RuleError, require
from atelier.games import absent
from atelier.games.actions import Action, Remove, Skip, System
from atelier.games.core import JSON, SYSTEM, rolling, seeded, winners
from atelier.games.pictomania import settings as settings_mod
from atelier.games.pictomania import tokens
from atelier.games.pictomania.actions import (
    Black,
    Canvas,
    Confirm,
    Done,
    Guess,
    Ready,
    Replace,
    Void,
)
from atelier.games.pictomania.reveal import is_void, labels, round_result
from atelier.games.pictomania.state import Seat, State
from atelier.jsoncheck import as_int, as_ints, as_list, as_number, as_object

NUMBERS = tuple(range(1, 8))


def new(
    settings: Mapping[str, JSON], names: Sequence[str], seed: int, dealt: Sequence[str] = ()
) -> State:
    """A new game; ``dealt``: cards the room's earlier games dealt, drawn again
    only once their level has no other card left."""
    players = len(names)
    require(
        tokens.MIN_PLAYERS <= players <= tokens.MAX_PLAYERS,
        "seat_count",
        min=tokens.MIN_PLAYERS,
        max=tokens.MAX_PLAYERS,
    )
    s = settings_mod.validate(settings)
    black = (as_ints(s["black_token_values"]) if s["black_token_values"]
             else list(tokens.black_tokens(settings_mod.edition_of(s), bool(s["competitive"]),
                                           players)))
    state = State(
        settings=s,
        names=[str(n) for n in names],
        rng=seeded(seed),
        phase="display",
        round=1,
        display=[],
        used=[],
        ready=[False] * players,
        swaps_used=[0] * players,
        player_tokens=(as_ints(s["player_token_values"]) if s["player_token_values"]
                       else list(tokens.player_tokens(players))),
        black_table=black,
        totals=[0] * players,
        pool=tuple(settings_mod.card_pool(s)),
        memory=[str(card_id) for card_id in dealt],
        removed=[False] * players,
    )
    _show_cards(state)
    return state


_PLAYER_PHASE: dict[type[Action], str] = {
    Replace: "display", Ready: "display",
    Guess: "drawing", Black: "drawing", Done: "drawing",
    Void: "review", Confirm: "review",
}
"""The phase in which each player action is allowed."""
_WAITING = frozenset({"display", "drawing", "review"})
_SYSTEM_PHASES: dict[type[Action], frozenset[str]] = {
    Skip: _WAITING, Remove: _WAITING, System: _WAITING, Canvas: frozenset({"drawing"}),
}
"""The phases in which each of the server's own actions is allowed."""


def apply(state: State, seat: int, action: Action, now: float) -> State:
    """The state after ``seat`` does ``action``; RuleError leaves ``state`` as it was."""
    if state.phase == "over":
        raise RuleError("game_over")
    if seat == SYSTEM:
        phases = _SYSTEM_PHASES.get(type(action))
        require(phases is not None, "bad_action")
        assert phases is not None
        if state.phase not in phases:
            raise RuleError("wrong_phase" if isinstance(action, System) else "bad_action")
        require(not (isinstance(action, System) and action.type == "timeout"
                     and state.phase != "drawing"), "wrong_phase")
    else:
        require(0 <= seat < state.players, "not_a_player")
        require(not isinstance(action, System), "host_only")
        phase = _PLAYER_PHASE.get(type(action))
        require(phase is not None, "bad_action")
        require(state.phase == phase, "wrong_phase")
        require(not state.is_removed(seat), "player_removed", name=state.names[seat])
    after = state.clone()
    _do(after, seat, action, now)
    return after


def _do(state: State, seat: int, action: Action, now: float) -> None:
    match action:
        case Replace(card=card):
            _replace(state, seat, card)
        case Ready(ready=ready):
            _ready(state, seat, ready, now)
        case Guess(target=target, number=number):
            _guess(state, seat, target, number)
        case Black(value=value):
            _black(state, seat, value)
        case Done():
            _done(state, seat)
        case Void(target=target, void=void):
            _void(state, seat, seat if target is None else target, void)
        case Confirm():
            _confirm(state, seat)
        case Canvas(seat=target, drawn=drawn):
            _canvas(state, target, drawn)
        case Skip(seats=seats):
            absent.skip(state, seats, WAITS, now)
        case Remove(seat=target):
            absent.remove(state, target, WAITS, now)
        case System(type="timeout"):
            _timeout(state, now)
        case System(type="advance"):
            _advance(state, now)
        case _:
            raise RuleError("bad_action")


def deadline(state: State) -> float | None:
    limit = state.settings["time_limit"]
    if state.phase != "drawing" or limit is None or state.started is None:
        return None
    return state.started + as_number(limit)


def may_take_token(state: State, seat: int) -> bool:
    """Whether a ``black`` action by ``seat`` would be accepted now (with the
    highest token): tokens left, not finished, and (1st edition) ink drawn."""
    if state.phase != "drawing" or not 0 <= seat < len(state.seats) or not state.black_left:
        return False
    mine = state.seats[seat]
    return not mine.finished and (state.settings["edition"] != "first" or mine.drawn)


def may_draw(state: State, seat: int) -> bool:
    if state.phase != "drawing" or not 0 <= seat < len(state.seats):
        return False
    mine = state.seats[seat]
    return not (mine.finished or mine.locked)


# --- display ----------------------------------------------------------------


def _show_cards(state: State) -> None:
    level = as_ints(state.settings["levels"])[state.round - 1]
    count = settings_mod.cards_per_round(state.settings)
    state.display = [_draw_card(state, level) for _ in range(count)]
    state.ready = [state.is_removed(p) for p in range(state.players)]


def _draw_card(state: State, level: int) -> dict[str, JSON]:
    """A random unused card of ``level``, else of the nearest level that has one.
    Cards the room dealt before are passed over while the level has others;
    once it has none, the room starts that level afresh (forgets it)."""
    pool = _unused_cards(state)
    for wanted in _levels_near(level):
        candidates = [c for c in pool if c.level == wanted]
        if candidates:
            seen = set(state.memory)
            fresh = [c for c in candidates if c.id not in seen]
            if not fresh:
                of_level = {c.id for c in state.pool if c.level == wanted}
                state.memory = [i for i in state.memory if i not in of_level]
                fresh = candidates
            with rolling(state) as rng:
                card: Card = fresh[rng.randrange(len(fresh))]
            state.used.append(card.id)
            state.memory.append(card.id)
            return {"id": card.id, "level": card.level, "words": list(card.words)}
    raise RuleError("no_cards_left")


def _unused_cards(state: State) -> list[Card]:
    used = set(state.used)
    return [c for c in state.pool if c.id not in used]


def _spare_cards(state: State) -> bool:
    """Whether a card may be replaced: enough unused ones stay for the rounds to come."""
    rounds_left = as_int(state.settings["rounds"]) - state.round
    later = settings_mod.cards_per_round(state.settings) * rounds_left
    return len(_unused_cards(state)) > later


def may_replace(state: State, seat: int) -> bool:
    """Whether a ``replace`` by ``seat`` of a card on display would be accepted now."""
    if state.phase != "display" or not _spare_cards(state):
        return False
    first = state.settings["edition"] == "first"
    return not first or state.swaps_used[seat] < as_int(state.settings["card_swaps"])


def _levels_near(level: int) -> list[int]:
    return sorted(LEVELS, key=lambda lv: (abs(lv - level), lv))


def _replace(state: State, seat: int, label: str) -> None:
    names = labels(state.settings)[: len(state.display)]
    require(label in names, "bad_card")
    slot = names.index(label)
    require(_spare_cards(state), "no_cards_left")
    if state.settings["edition"] == "first":
        # 1st edition: a limited number of swaps per player for the whole game.
        require(state.swaps_used[seat] < as_int(state.settings["card_swaps"]), "no_swaps_left")
        state.swaps_used[seat] += 1
    state.display[slot] = _draw_card(state, as_int(state.display[slot]["level"]))
    # Everyone must see the new card before the deal.
    state.ready = [state.is_removed(p) for p in range(state.players)]


def _ready(state: State, seat: int, value: bool, now: float) -> None:
    state.ready[seat] = value
    if all(state.ready):
        _deal(state, now)


def _advance(state: State, now: float) -> None:
    """The host's "next": deal now, stop the drawing, or end the review."""
    if state.phase == "display":
        _deal(state, now)
    elif state.phase == "drawing":
        _end_round(state, "host")
    else:
        _finish_round(state)


def _deal(state: State, now: float) -> None:
    with rolling(state) as rng:
        numbers = list(NUMBERS)
        rng.shuffle(numbers)
        letters: list[int | None]
        if state.settings["kids"]:
            letters = [None] * state.players
        else:
            # 2nd edition: letter cards A A B B C C; 1st edition: one symbol card per card shown.
            deck = [0, 0, 1, 1, 2, 2] if state.settings["edition"] == "second" else list(range(6))
            rng.shuffle(deck)
            letters = list(deck[: state.players])
    state.seats = [
        Seat(letter=letters[p], number=numbers[p], finished=out, out=out)
        for p in range(state.players)
        for out in [state.is_removed(p)]
    ]
    state.black_left = list(state.black_table)
    state.started = now
    state.ended_by = None
    state.phase = "drawing"


# --- drawing ----------------------------------------------------------------


def _guess(state: State, seat: int, target: int, number: int) -> None:
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    require(0 <= target < state.players, "bad_target")
    require(target != seat, "own_drawing")
    require(not state.seats[target].out, "player_removed", name=state.names[target])
    require(number in NUMBERS, "bad_number")
    stack = state.seats[target].stack
    require(all(by != seat for by, _ in stack), "already_guessed", name=state.names[target])
    require(number not in spent_numbers(state, seat), "number_spent", number=number)
    stack.append((seat, number))
    if state.settings["edition"] == "second":
        mine.locked = True  # 2nd edition: the first guess ends your drawing


def _black(state: State, seat: int, value: int | None) -> None:
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    require(bool(state.black_left), "no_black_tokens")
    first = state.settings["edition"] == "first"
    # 1st edition: "Es ist erlaubt, gar nichts zu zeichnen ... nimmst du kein
    # Bonusplättchen": an empty canvas takes no token (guessing and "done" stay open).
    require(not (first and not mine.drawn), "black_token_nothing_drawn")
    highest = max(state.black_left)
    if value is None:
        value = highest
    require(value in state.black_left, "black_token_gone", value=value)
    # 1st edition: always the token with the most stars still in the centre;
    # the 2nd edition lets you take any.
    require(not first or value == highest, "black_token_not_highest", value=value, highest=highest)
    state.black_left.remove(value)
    mine.black = value
    mine.finished = True
    if len(state.black_table) < state.players and not state.black_left:
        # One token fewer than players: the last token stops everyone at once.
        _end_round(state, "last_token")
    elif all(s.finished for s in state.seats):
        _end_round(state, "finished")


def _done(state: State, seat: int) -> None:
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    mine.finished = True
    if all(s.finished for s in state.seats):
        _end_round(state, "finished")


def _canvas(state: State, target: int, drawn: bool) -> None:
    """The server reports whether a canvas shows pen ink (it sees the ink, the
    rules do not): sent when that changes, so the log replays the same."""
    require(0 <= target < state.players, "bad_target")
    state.seats[target].drawn = drawn


def canvas_action(state: State, seat: int, blank: bool) -> Canvas | None:
    """The system action that tells the rules ``seat``'s canvas is (not)
    ``blank`` now, or None if they know already or it no longer matters."""
    if state.settings["edition"] != "first":
        return None  # only the 1st edition has a rule for drawing nothing
    if state.phase != "drawing" or not 0 <= seat < len(state.seats):
        return None
    if state.seats[seat].drawn != blank:
        return None
    return Canvas(type="canvas", seat=seat, drawn=not blank)


def _timeout(state: State, now: float) -> None:
    due = deadline(state)
    require(due is not None, "wrong_phase")
    require(now >= (due or 0.0), "timeout_early")
    _end_round(state, "time")


def _end_round(state: State, why: str) -> None:
    for p, mine in enumerate(state.seats):
        mine.finished = True
        mine.confirmed = state.is_removed(p)
    state.ended_by = why
    state.phase = "review"


def spent_numbers(state: State, seat: int) -> list[int]:
    """The guess numbers ``seat`` has placed this round, in no particular order."""
    return [n for s in state.seats for by, n in s.stack if by == seat]


# --- review -----------------------------------------------------------------


def _void(state: State, seat: int, target: int, value: bool) -> None:
    require(0 <= target < state.players, "bad_target")
    drawing = state.seats[target]
    before = is_void(state, target)
    if target == seat:
        drawing.void_admitted = value
    elif value and seat not in drawing.void_votes:
        drawing.void_votes.append(seat)
    elif not value and seat in drawing.void_votes:
        drawing.void_votes.remove(seat)
    if is_void(state, target) != before:
        # The scores changed: everyone still playing confirms again.
        for p, s in enumerate(state.seats):
            s.confirmed = state.is_removed(p)


def _confirm(state: State, seat: int) -> None:
    state.seats[seat].confirmed = True
    if all(s.confirmed for s in state.seats):
        _finish_round(state)


def _finish_round(state: State) -> None:
    result = round_result(state)
    result["final"] = True
    state.history.append(result)
    for p, details in enumerate(as_list(result["players"])):
        state.totals[p] += as_int(as_object(details)["score"])
    if state.round >= as_int(state.settings["rounds"]):
        state.phase = "over"
        return
    state.round += 1
    state.seats = []
    state.black_left = []
    state.started = None
    state.ended_by = None
    state.phase = "display"
    _show_cards(state)


# --- absent and removed players (the host's actions, applied as SYSTEM) ---------


def waiting_for(state: State) -> list[int]:
    """The seats the current phase waits for: not ready, not finished, not confirmed."""
    if state.phase == "display":
        return [p for p in range(state.players) if not state.ready[p]]
    if state.phase == "drawing":
        return [p for p, s in enumerate(state.seats) if not s.finished]
    if state.phase == "review":
        return [p for p, s in enumerate(state.seats) if not s.confirmed]
    return []


def _treat_as_done(state: State, seat: int) -> None:
    """What ``seat`` doing nothing more this phase means: ready for the deal; in a
    round, finished with the drawing as it is and no black token; content with
    the scores."""
    if state.phase == "display":
        state.ready[seat] = True
    elif state.phase == "drawing":
        state.seats[seat].finished = True
    elif state.phase == "review":
        state.seats[seat].confirmed = True


def _move_on(state: State, now: float) -> None:
    if state.phase == "display" and all(state.ready):
        _deal(state, now)
    elif state.phase == "drawing" and all(s.finished for s in state.seats):
        _end_round(state, "finished")
    elif state.phase == "review" and all(s.confirmed for s in state.seats):
        _finish_round(state)


WAITS = absent.Waits(waiting_for=waiting_for, treat_as_done=_treat_as_done, move_on=_move_on)
"""Going on without absent players, and taking a player out (games/absent.py):
what "done" means in each phase of Pictomania."""


def game_winners(state: State) -> list[int]:
    return winners(state.totals) if state.phase == "over" else []
