"""Properties over random games: replay, refusals change nothing, tokens balance, no leaks."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atelier.errors import RuleError
from atelier.games.actions import as_json
from atelier.games.core import SYSTEM
from atelier.games.pictomania import GAME
from atelier.games.pictomania.legal import legal_actions
from atelier.games.pictomania.state import State
from support.actions import apply_json
from support.log_replay import LoggedAction, Replay
from support.pictomania import NAMES
from support.pictomania import settings as game_settings
from support.views import seen

SECRET_KEYS = {"number", "letter", "word"}


@st.composite
def game_setups(draw: st.DrawFn) -> tuple[dict[str, Any], list[str], int]:
    edition = draw(st.sampled_from(["first", "second"]))
    over: dict[str, Any] = {
        "edition": edition,
        "rounds": draw(st.integers(1, 2)),
        "time_limit": draw(st.sampled_from([None, 30])),
    }
    if edition == "second":
        over["competitive"] = draw(st.booleans())
        over["learning_round"] = draw(st.booleans())
    else:
        over["kids"] = draw(st.booleans())
    players = draw(st.integers(3, 6))
    return game_settings(**over), NAMES[:players], draw(st.integers(0, 2**32))


def candidate_actions(state: State) -> list[tuple[int, dict[str, Any]]]:
    """Every player's legal action in this state, and the host's and the clock's."""
    out: list[tuple[int, dict[str, Any]]] = [(SYSTEM, {"type": "advance"})]
    if state.phase == "drawing":
        out.append((SYSTEM, {"type": "timeout"}))
    for p in range(state.players):
        out += [(p, as_json(action)) for action in legal_actions(state, p)]
    return out


def is_legal(state: State, seat: int, action: dict[str, Any]) -> bool:
    """Whether ``action`` is listed (compared as JSON: ``true`` is not ``1``)."""
    return json.dumps(action, sort_keys=True) in {
        json.dumps(as_json(a), sort_keys=True) for a in legal_actions(state, seat)}


noise = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["ready", "replace", "guess", "black", "done", "void", "confirm", "advance", "x"]
        ),
        "target": st.one_of(st.integers(-2, 7), st.none(), st.text(max_size=2)),
        "number": st.one_of(st.integers(-1, 9), st.booleans(), st.floats(0, 8)),
        "value": st.one_of(st.integers(-1, 4), st.none()),
        "card": st.sampled_from(["A", "D", "1", "7", ""]),
    }
)


def assert_no_secrets(state: State) -> None:
    """While a round is drawn, nobody sees another's number, letter, word or guess numbers."""
    if state.phase != "drawing":
        return
    for seat in [None, *range(state.players)]:
        view = seen(GAME, state, seat)
        json.dumps(view)  # JSON-ready
        mine = view.pop("me", None)
        assert not _secret_paths(view), (seat, _secret_paths(view))
        if seat is None:
            assert mine is None
        else:
            assert mine is not None and mine["number"] == state.seats[seat].number
        # Scramble everybody else's secrets: this seat's view must not change.
        assert seen(GAME, scrambled(state, seat), seat) == seen(GAME, state, seat)


def _secret_paths(node: Any, path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in SECRET_KEYS and path not in ("cards",):
                found.append(f"{path}.{key}")
            found += _secret_paths(value, key if key in ("cards",) else f"{path}.{key}")
    elif isinstance(node, list):
        for item in node:
            found += _secret_paths(item, path)
    return [f for f in found if not f.startswith("cards.") and not f.startswith(".history")]


def scrambled(state: State, keep: int | None) -> State:
    other = state.clone()
    others = [p for p in range(state.players) if p != keep]
    numbers = [other.seats[p].number for p in others]
    letters = [other.seats[p].letter for p in others]
    for i, p in enumerate(others):
        other.seats[p].number = numbers[(i + 1) % len(others)] % 7 + 1
        other.seats[p].letter = letters[(i + 1) % len(others)]
    for mine in other.seats:
        mine.stack = [(by, n if by == keep else n % 7 + 1) for by, n in mine.stack]
    return other


def check_round_balance(state: State) -> None:
    if state.phase != "review":
        return
    result = seen(GAME, state, None)["round_result"]
    given_out = sum(
        sum(state.player_tokens) - sum(p["tokens_kept"]) for p in result["players"]
    )
    received = sum(t["value"] for p in result["players"] for t in p["tokens_received"])
    assert given_out == received
    for drawing in result["drawings"]:
        seat = drawing["seat"]
        gave = [t for p in result["players"] for t in p["tokens_received"] if t["from"] == seat]
        correct = sum(1 for g in drawing["guesses"] if g["correct"])
        assert len(gave) == min(correct, len(state.player_tokens))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=game_setups(), data=st.data())
def test_random_games(setup: tuple[dict[str, Any], list[str], int], data: st.DataObject) -> None:
    raw, names, seed = setup
    state = GAME.new(raw, names, seed)
    replay = Replay(settings=raw, seats=names, seed=seed)
    now = 0.0
    for _ in range(120):
        if GAME.is_over(state):
            break
        now += data.draw(st.sampled_from([0.0, 1.0, 25.0]))
        if data.draw(st.integers(0, 4)) == 0:
            seat, action = data.draw(st.integers(-1, state.players)), data.draw(noise)
        else:
            seat, action = data.draw(st.sampled_from(candidate_actions(state)))
        before = GAME.dump(state)
        try:
            after = apply_json(GAME, state, seat, action, now)
        except RuleError as err:
            assert GAME.dump(state) == before, "a refused action changed the state"
            assert seat == SYSTEM or not is_legal(state, seat, action), err.code
            assert err.message("de") != f"error.{err.code}", err.code
            continue
        assert GAME.dump(state) == before, "apply changed its input"
        replay.log.append(LoggedAction(seat, dict(action), now))
        state = after
        assert_no_secrets(state)
        check_round_balance(state)
    assert GAME.dump(replay.run(GAME)) == GAME.dump(state)
    assert GAME.dump(GAME.load(json.loads(json.dumps(GAME.dump(state))))) == GAME.dump(state)


def test_a_view_of_the_finished_round_reveals_everything() -> None:
    state = GAME.new(game_settings(), NAMES[:4], 5)
    state = apply_json(GAME, state, SYSTEM, {"type": "advance"}, 0)
    state = apply_json(GAME, state, 1, {"type": "guess", "target": 0, "number": 4}, 0)
    assert_no_secrets(state)
    state = apply_json(GAME, state, SYSTEM, {"type": "advance"}, 0)
    view = seen(GAME, state, 2)
    drawings = view["round_result"]["drawings"]
    assert [d["number"] for d in drawings] == [s.number for s in state.seats]
    assert all(d["word"] for d in drawings)
    assert drawings[0]["guesses"] == [
        {"by": 1, "number": 4, "correct": state.seats[0].number == 4}
    ]
