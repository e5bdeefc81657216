"""The Pictomania rules: both editions, every variant, as a pure state machine.

Phases: ``display`` (cards shown, replacements, players mark ready) ->
``drawing`` (everyone draws and guesses at once) -> ``review`` (all is revealed;
void drawings; players confirm) -> next round's ``display``, or ``over``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from atelier.content.decks import LEVELS, Card
from atelier.games.core import SYSTEM, RuleError, require
from atelier.games.pictomania import settings as settings_mod
from atelier.games.pictomania import tokens
from atelier.games.pictomania.reveal import is_void, labels, round_result
from atelier.games.pictomania.scoring import winners
from atelier.games.pictomania.state import Seat, State

NUMBERS = tuple(range(1, 8))


def new(raw_settings: Mapping[str, Any], names: Sequence[str], seed: int) -> State:
    players = len(names)
    require(
        tokens.MIN_PLAYERS <= players <= tokens.MAX_PLAYERS,
        "seat_count",
        min=tokens.MIN_PLAYERS,
        max=tokens.MAX_PLAYERS,
    )
    s = settings_mod.validate(raw_settings)
    black = s["black_token_values"] or list(
        tokens.black_tokens(s["edition"], s["competitive"], players)
    )
    state = State(
        settings=s,
        names=[str(n) for n in names],
        rng=_seeded(seed),
        phase="display",
        round=1,
        display=[],
        used=[],
        ready=[False] * players,
        swaps_used=[0] * players,
        player_tokens=s["player_token_values"] or list(tokens.player_tokens(players)),
        black_table=list(black),
        totals=[0] * players,
        pool=tuple(settings_mod.card_pool(s)),
    )
    _show_cards(state)
    return state


def apply(state: State, seat: int, action: Mapping[str, Any], now: float) -> State:
    """The state after ``seat`` does ``action``; RuleError leaves ``state`` as it was."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise RuleError("bad_action")
    kind = action["type"]
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
    if handler is None:
        raise RuleError("bad_action" if seat != SYSTEM else "wrong_phase")
    after = state.clone()
    handler(after, seat, action, now)
    return after


def deadline(state: State) -> float | None:
    limit = state.settings["time_limit"]
    if state.phase != "drawing" or limit is None or state.started is None:
        return None
    return float(state.started + limit)


def may_draw(state: State, seat: int) -> bool:
    if state.phase != "drawing" or not 0 <= seat < len(state.seats):
        return False
    mine = state.seats[seat]
    return not (mine.finished or mine.locked)


# --- display ----------------------------------------------------------------


def _seeded(seed: int) -> Any:
    import random

    return random.Random(seed).getstate()


def _show_cards(state: State) -> None:
    level = state.settings["levels"][state.round - 1]
    count = settings_mod.cards_per_round(state.settings)
    state.display = [_draw_card(state, level) for _ in range(count)]
    state.ready = [False] * state.players


def _draw_card(state: State, level: int) -> dict[str, Any]:
    """A random unused card of ``level``, else of the nearest level that has one."""
    pool = _unused_cards(state)
    for wanted in _levels_near(level):
        candidates = [c for c in pool if c.level == wanted]
        if candidates:
            rng = state.random()
            card: Card = candidates[rng.randrange(len(candidates))]
            state.rng = rng.getstate()
            state.used.append(card.id)
            return {"id": card.id, "level": card.level, "words": list(card.words)}
    raise RuleError("no_cards_left")


def _unused_cards(state: State) -> list[Card]:
    used = set(state.used)
    return [c for c in state.pool if c.id not in used]


def _levels_near(level: int) -> list[int]:
    return sorted(LEVELS, key=lambda lv: (abs(lv - level), lv))


def _replace(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    names = labels(state.settings)[: len(state.display)]
    label = action.get("card")
    require(isinstance(label, str) and label in names, "bad_card")
    slot = names.index(label)
    # Keep enough unused cards for the rounds still to come.
    later = settings_mod.cards_per_round(state.settings) * (state.settings["rounds"] - state.round)
    require(len(_unused_cards(state)) > later, "no_cards_left")
    if state.settings["edition"] == "first":
        # 1st edition: a limited number of swaps per player for the whole game.
        require(state.swaps_used[seat] < state.settings["card_swaps"], "no_swaps_left")
        state.swaps_used[seat] += 1
    state.display[slot] = _draw_card(state, state.display[slot]["level"])
    # Everyone must see the new card before the deal.
    state.ready = [False] * state.players


def _ready(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    value = action.get("ready", True)
    require(isinstance(value, bool), "bad_action")
    state.ready[seat] = value
    if all(state.ready):
        _deal(state, now)


def _deal_now(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    _deal(state, now)


def _deal(state: State, now: float) -> None:
    rng = state.random()
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
    state.rng = rng.getstate()
    state.seats = [Seat(letter=letters[p], number=numbers[p]) for p in range(state.players)]
    state.black_left = list(state.black_table)
    state.started = now
    state.ended_by = None
    state.phase = "drawing"


# --- drawing ----------------------------------------------------------------


def _guess(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    target: Any = action.get("target")
    number: Any = action.get("number")
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    require(_is_int(target) and 0 <= target < state.players, "bad_target")
    require(target != seat, "own_drawing")
    require(_is_int(number) and number in NUMBERS, "bad_number")
    stack = state.seats[target].stack
    require(all(by != seat for by, _ in stack), "already_guessed", name=state.names[target])
    require(number not in spent_numbers(state, seat), "number_spent", number=number)
    stack.append((seat, number))
    if state.settings["edition"] == "second":
        mine.locked = True  # 2nd edition: the first guess ends your drawing


def _black(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    require(bool(state.black_left), "no_black_tokens")
    value = action.get("value")
    if value is None:
        value = max(state.black_left)
    require(_is_int(value) and value in state.black_left, "black_token_gone", value=value)
    state.black_left.remove(value)
    mine.black = value
    mine.finished = True
    if len(state.black_table) < state.players and not state.black_left:
        # One token fewer than players: the last token stops everyone at once.
        _end_round(state, "last_token")
    elif all(s.finished for s in state.seats):
        _end_round(state, "finished")


def _done(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    mine = state.seats[seat]
    require(not mine.finished, "already_finished")
    mine.finished = True
    if all(s.finished for s in state.seats):
        _end_round(state, "finished")


def _timeout(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    due = deadline(state)
    require(due is not None, "wrong_phase")
    require(_is_number(now) and now >= (due or 0.0), "timeout_early")
    _end_round(state, "time")


def _stop(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    _end_round(state, "host")


def _end_round(state: State, why: str) -> None:
    for mine in state.seats:
        mine.finished = True
    state.ended_by = why
    state.phase = "review"


def spent_numbers(state: State, seat: int) -> list[int]:
    """The guess numbers ``seat`` has placed this round, in no particular order."""
    return [n for s in state.seats for by, n in s.stack if by == seat]


# --- review -----------------------------------------------------------------


def _void(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    target: Any = action.get("target", seat)
    value: Any = action.get("void", True)
    require(_is_int(target) and 0 <= target < state.players, "bad_target")
    require(isinstance(value, bool), "bad_action")
    drawing = state.seats[target]
    before = is_void(state, target)
    if target == seat:
        drawing.void_admitted = value
    elif value and seat not in drawing.void_votes:
        drawing.void_votes.append(seat)
    elif not value and seat in drawing.void_votes:
        drawing.void_votes.remove(seat)
    if is_void(state, target) != before:
        # The scores changed: everyone confirms again.
        for s in state.seats:
            s.confirmed = False


def _confirm(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    state.seats[seat].confirmed = True
    if all(s.confirmed for s in state.seats):
        _finish_round(state)


def _advance(state: State, seat: int, action: Mapping[str, Any], now: float) -> None:
    _finish_round(state)


def _finish_round(state: State) -> None:
    result = round_result(state)
    result["final"] = True
    state.history.append(result)
    for p, details in enumerate(result["players"]):
        state.totals[p] += details["score"]
    if state.round >= state.settings["rounds"]:
        state.phase = "over"
        return
    state.round += 1
    state.seats = []
    state.black_left = []
    state.started = None
    state.ended_by = None
    state.phase = "display"
    _show_cards(state)


def game_winners(state: State) -> list[int]:
    return winners(state.totals) if state.phase == "over" else []


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


Handler = Callable[[State, int, Mapping[str, Any], float], None]

_PLAYER_ACTIONS: dict[tuple[str, str], Handler] = {
    ("display", "replace"): _replace,
    ("display", "ready"): _ready,
    ("drawing", "guess"): _guess,
    ("drawing", "black"): _black,
    ("drawing", "done"): _done,
    ("review", "void"): _void,
    ("review", "confirm"): _confirm,
}
_SYSTEM_ACTIONS: dict[tuple[str, str], Handler] = {
    ("display", "advance"): _deal_now,
    ("drawing", "timeout"): _timeout,
    ("drawing", "advance"): _stop,
    ("review", "advance"): _advance,
}
