"""What each seat may see: the one place secrets are filtered.

Before a round is over, another player's letter, number and word, and the
numbers on their face-down guesses, are absent (not hidden by a flag). Who
guessed on whom, in order, is public: everyone sees the backs of the cards.
"""

from __future__ import annotations

from atelier.games.core import JSON
from atelier.games.pictomania.engine import (
    deadline,
    game_winners,
    may_draw,
    may_take_token,
    spent_numbers,
    waiting_for,
)
from atelier.games.pictomania.reveal import (
    cards_json,
    is_learning_round,
    letter_of,
    round_result,
    word_of,
)
from atelier.games.pictomania.state import Seat, State
from atelier.jsoncheck import as_int, as_ints, as_list, as_object


def drawing_key(state: State) -> str | None:
    """The canvases of the current round, kept on show while it is reviewed."""
    return f"round-{state.round}" if state.phase in ("drawing", "review") else None


def view(state: State, seat: int | None) -> dict[str, JSON]:
    me = seat if seat is not None and 0 <= seat < state.players else None
    s = state.settings
    out: dict[str, JSON] = {
        "game": "pictomania",
        "phase": state.phase,
        "round": state.round,
        "rounds": s["rounds"],
        "level": as_ints(s["levels"])[state.round - 1],
        "edition": s["edition"],
        "competitive": s["competitive"],
        "kids": s["kids"],
        "learning_round": is_learning_round(state),
        "time_limit": s["time_limit"],
        "language": s["language"],
        "seat": me,
        "deadline": deadline(state),
        "drawing_key": drawing_key(state),
        "cards": cards_json(state),
        "player_tokens": list(state.player_tokens),
        "black_token_table": list(state.black_table),
        "black_tokens_left": list(state.black_left) if state.phase == "drawing" else [],
        "players": [_public_player(state, p) for p in range(state.players)],
        "totals": list(state.totals),
        "history": state.history,
        "winners": game_winners(state),
        "waiting_for": waiting_for(state),
    }
    if state.phase == "review":
        out["round_result"] = round_result(state)
    if me is not None:
        out["me"] = _private(state, me)
    return out


def _public_player(state: State, p: int) -> dict[str, JSON]:
    out: dict[str, JSON] = {"seat": p, "name": state.names[p], "total": state.totals[p],
                           "removed": state.is_removed(p)}
    if state.phase == "display":
        out["ready"] = state.ready[p]
        if state.settings["edition"] == "first":
            out["swaps_left"] = max(0, as_int(state.settings["card_swaps"]) - state.swaps_used[p])
    if state.phase in ("drawing", "review"):
        mine = state.seats[p]
        out["finished"] = mine.finished
        out["out"] = mine.out
        out["black_token"] = mine.black
        out["may_draw"] = may_draw(state, p)
        out["guessed_by"] = [by for by, _ in mine.stack]
        out["guessed_on"] = [t for t, other in enumerate(state.seats) if _guessed(other, p)]
    if state.phase == "review":
        out["confirmed"] = state.seats[p].confirmed
    return out


def _private(state: State, me: int) -> dict[str, JSON]:
    """Only ``me``'s own secrets: their word, and the numbers of their own guesses."""
    if state.phase not in ("drawing", "review"):
        return {}
    guesses = [
        {"target": t, "number": n}
        for t, other in enumerate(state.seats)
        for by, n in other.stack
        if by == me
    ]
    return {
        "letter": letter_of(state, me),
        "number": state.seats[me].number,
        "word": word_of(state, me),
        "guesses": guesses,
        "spent": sorted(spent_numbers(state, me)),
        "may_draw": may_draw(state, me),
        "finished": state.seats[me].finished,
        "may_take_token": may_take_token(state, me),
    }


def _guessed(seat_state: Seat, by: int) -> bool:
    return any(g == by for g, _ in seat_state.stack)


def revealed_guesses(state: State, key: str, seat: int) -> list[dict[str, JSON]] | None:
    """Who guessed what on one drawing and whether right, for a round that is
    revealed (in review or finished); None for the round being drawn or one
    that has not happened."""
    if not key.startswith("round-") or not key[6:].isdigit():
        return None
    n = int(key[6:])
    result: dict[str, JSON] | None = None
    if n == state.round and state.phase == "review":
        result = round_result(state)
    else:
        result = next((r for r in state.history if r["round"] == n), None)
    if result is None:
        return None
    for drawing in map(as_object, as_list(result["drawings"])):
        if drawing["seat"] == seat:
            return [dict(as_object(g)) for g in as_list(drawing["guesses"])]
    return None
