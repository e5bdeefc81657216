"""The Pictomania rules: both editions, every variant, as a pure state machine.

Phases: ``display`` (cards shown, replacements, players mark ready) ->
``drawing`` (everyone draws and guesses at once) -> ``review`` (all is revealed;
void drawings; players confirm) -> next round's ``display``, or ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from atelier.content.decks import LEVELS, Card
from atelier.errors import RuleError, require
from atelier.games.core import JSON, SYSTEM, Handler, rolling, seeded, winners
from atelier.games.pictomania import settings as settings_mod
from atelier.games.pictomania import tokens
from atelier.games.pictomania.reveal import is_void, labels, round_result
from atelier.games.pictomania.state import Seat, State
from atelier.jsoncheck import as_int, as_ints, as_list, as_number, as_object, is_int, is_number

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


def apply(state: State, seat: int, action: Mapping[str, JSON], now: float) -> State:
    """The state after ``seat`` does ``action``; RuleError leaves ``state`` as it was."""
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not isinstance(kind, str):
        raise RuleError("bad_action")
    if state.phase == "over":
        raise RuleError("game_over")
    if seat == SYSTEM:
        handler = _SYSTEM_ACTIONS.get((state.phase, kind))
        require(handler is not None or kind in ("advance", "timeout"), "bad_action")
    else:
        require(isinstance(seat, int) and 0 <= seat < state.players, "not_a_player")
        if kind in ("advance", "timeout"):
            raise RuleError("host_only")
        handler = _PLAYER_ACTIONS.get((state.phase, kind))
        if handler is None and any(k == kind for _, k in _PLAYER_ACTIONS):
            raise RuleError("wrong_phase")
        require(not state.is_removed(seat), "player_removed", name=state.names[seat])
    if handler is None:
        raise RuleError("bad_action" if seat != SYSTEM else "wrong_phase")
    after = state.clone()
    handler(after, seat, action, now)
    return after


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


def _replace(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    names = labels(state.settings)[: len(state.display)]
    label = action.get("card")
    require(isinstance(label, str) and label in names, "bad_card")
    slot = names.index(label)
    require(_spare_cards(state), "no_cards_left")
    if state.settings["edition"] == "first":
        # 1st edition: a limited number of swaps per player for the whole game.
        require(state.swaps_used[seat] < as_int(state.settings["card_swaps"]), "no_swaps_left")
        state.swaps_used[seat] += 1
    state.display[slot] = _draw_card(state, as_int(state.display[slot]["level"]))
    # Everyone must see the new card before the deal.
    state.ready = [state.is_removed(p) for p in range(state.players)]


def _ready(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    value = action.get("ready", True)
    require(isinstance(value, bool), "bad_action")
    assert isinstance(value, bool)
    state.ready[seat] = value
    if all(state.ready):
        _deal(state, now)


def _deal_now(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    _deal(state, now)


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


def _guess(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    target = action.get("target")
    number = action.get("number")
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    require(is_int(target) and 0 <= target < state.players, "bad_target")
    require(target != seat, "own_drawing")
    require(not state.seats[as_int(target)].out, "player_removed",
            name=state.names[as_int(target)])
    require(is_int(number) and number in NUMBERS, "bad_number")
    assert is_int(target) and is_int(number)
    stack = state.seats[target].stack
    require(all(by != seat for by, _ in stack), "already_guessed", name=state.names[target])
    require(number not in spent_numbers(state, seat), "number_spent", number=number)
    stack.append((seat, number))
    if state.settings["edition"] == "second":
        mine.locked = True  # 2nd edition: the first guess ends your drawing


def _black(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    require(bool(state.black_left), "no_black_tokens")
    first = state.settings["edition"] == "first"
    # 1st edition: "Es ist erlaubt, gar nichts zu zeichnen ... nimmst du kein
    # Bonusplättchen": an empty canvas takes no token (guessing and "done" stay open).
    require(not (first and not mine.drawn), "black_token_nothing_drawn")
    highest = max(state.black_left)
    value = action.get("value")
    if value is None:
        value = highest
    require(is_int(value) and value in state.black_left, "black_token_gone", value=value)
    # 1st edition: always the token with the most stars still in the centre;
    # the 2nd edition lets you take any.
    require(not first or value == highest, "black_token_not_highest", value=value, highest=highest)
    assert is_int(value)
    state.black_left.remove(value)
    mine.black = value
    mine.finished = True
    if len(state.black_table) < state.players and not state.black_left:
        # One token fewer than players: the last token stops everyone at once.
        _end_round(state, "last_token")
    elif all(s.finished for s in state.seats):
        _end_round(state, "finished")


def _done(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    mine.finished = True
    if all(s.finished for s in state.seats):
        _end_round(state, "finished")


def _canvas(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    """The server reports whether a canvas shows pen ink (it sees the ink, the
    rules do not): sent when that changes, so the log replays the same."""
    target = action.get("seat")
    drawn = action.get("drawn")
    require(is_int(target) and 0 <= target < state.players, "bad_target")
    require(isinstance(drawn, bool), "bad_action")
    assert is_int(target) and isinstance(drawn, bool)
    state.seats[target].drawn = drawn


def canvas_action(state: State, seat: int, blank: bool) -> dict[str, JSON] | None:
    """The system action that tells the rules ``seat``'s canvas is (not)
    ``blank`` now, or None if they know already or it no longer matters."""
    if state.settings["edition"] != "first":
        return None  # only the 1st edition has a rule for drawing nothing
    if state.phase != "drawing" or not 0 <= seat < len(state.seats):
        return None
    if state.seats[seat].drawn != blank:
        return None
    return {"type": "canvas", "seat": seat, "drawn": not blank}


def _timeout(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    due = deadline(state)
    require(due is not None, "wrong_phase")
    require(is_number(now) and now >= (due or 0.0), "timeout_early")
    _end_round(state, "time")


def _stop(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    _end_round(state, "host")


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


def _void(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    target = action.get("target", seat)
    value = action.get("void", True)
    require(is_int(target) and 0 <= target < state.players, "bad_target")
    require(isinstance(value, bool), "bad_action")
    assert is_int(target) and isinstance(value, bool)
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


def _confirm(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    state.seats[seat].confirmed = True
    if all(s.confirmed for s in state.seats):
        _finish_round(state)


def _advance(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
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


def _skip(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    """``{"type": "skip", "seats": [...]}``: go on without those (absent) players,
    allowed only when they are all the phase still waits for."""
    seats = _seat_list(state, action.get("seats"))
    waiting = waiting_for(state)
    others = [p for p in waiting if p not in seats]
    require(not others, "still_waiting", names=", ".join(state.names[p] for p in others))
    for p in seats:
        _treat_as_done(state, p)
    _move_on(state, now)


def _remove(state: State, seat: int, action: Mapping[str, JSON], now: float) -> None:
    """``{"type": "remove", "seat": n}``: the seat plays no further part. Its
    drawing and guesses so far stay in this round's scoring; it is treated as
    done now and in every later phase, and later rounds deal it no drawing."""
    target = action.get("seat")
    require(is_int(target) and 0 <= target < state.players, "bad_target")
    assert is_int(target)
    require(not state.is_removed(target), "player_removed", name=state.names[target])
    require(state.removed.count(False) > 2, "too_few_left", min=2)
    state.removed[target] = True
    _treat_as_done(state, target)
    _move_on(state, now)


def _seat_list(state: State, value: JSON) -> list[int]:
    require(
        isinstance(value, list) and len(value) > 0
        and all(is_int(p) and 0 <= p < state.players for p in value)
        and len(set(value)) == len(value),
        "bad_action",
    )
    return as_ints(value)


def game_winners(state: State) -> list[int]:
    return winners(state.totals) if state.phase == "over" else []


_PLAYER_ACTIONS: dict[tuple[str, str], Handler[State]] = {
    ("display", "replace"): _replace,
    ("display", "ready"): _ready,
    ("drawing", "guess"): _guess,
    ("drawing", "black"): _black,
    ("drawing", "done"): _done,
    ("review", "void"): _void,
    ("review", "confirm"): _confirm,
}
_SYSTEM_ACTIONS: dict[tuple[str, str], Handler[State]] = {
    **{(phase, "skip"): _skip for phase in ("display", "drawing", "review")},
    **{(phase, "remove"): _remove for phase in ("display", "drawing", "review")},
    ("display", "advance"): _deal_now,
    ("drawing", "timeout"): _timeout,
    ("drawing", "canvas"): _canvas,
    ("drawing", "advance"): _stop,
    ("review", "advance"): _advance,
}
