"""Every game action is checked against its game's declared shapes before anything
is stored: unknown fields, wrong types and oversized values are refused with an
error, and the log does not grow by a byte."""

from __future__ import annotations

import json
from typing import Any

import pytest

from atelier.errors import RuleError
from atelier.games.actions import ActionSchema
from atelier.games.registry import GAME_NAMES, get_game
from support.client import Client, seated_room
from support.log import logged_events
from support.secrets_game import SECRETS
from support.server import ServerProcess

JUNK = "x" * 15_000

# one action of each game that is valid in its first phase, and what junk does to it
FIRST: dict[str, tuple[int, dict[str, Any]]] = {
    "secrets": (2, {"type": "note", "text": "hi"}),
    "pictomania": (3, {"type": "ready", "ready": True}),
    "incognito": (3, {"type": "done_drawing"}),
    "piet": (2, {"type": "move", "move": "?"}),  # filled in from legal_moves
}


def log_size(db: str, code: str) -> tuple[int, int]:
    rows = logged_events(db, code)
    return len(rows), sum(len(json.dumps(row.data)) for row in rows)  # as the store writes it


@pytest.mark.parametrize("game", ["secrets", *GAME_NAMES])
async def test_junk_in_actions_is_refused_and_not_stored(
    server: ServerProcess, clients: list[Client], game: str
) -> None:
    seats, valid = FIRST[game]
    code, players = await seated_room(clients, server, seats, game=game)
    first = players[0]
    state = [m for m in first.log if isinstance(m, dict) and m.get("t") == "state"][-1]
    if game == "piet":
        mover = players[state["game"]["to_move"]]
        first, valid = mover, {"type": "move", "move": state["game"]["legal_moves"][0]}
    assert server.db is not None
    before = log_size(server.db, code)
    junk_actions = [
        {**valid, "junk": JUNK},  # an unknown field, large
        {**valid, "junk": 1},  # an unknown field, small
        {**valid, "type": valid["type"], "id": 3},  # a message field inside the action
    ]
    for field in _schema(game).models[valid["type"]].model_fields:
        if field != "type":
            junk_actions.append({**valid, field: JUNK})  # oversized or mistyped
            junk_actions.append({**valid, field: [[1]]})
    for action in junk_actions:
        err = await first.request({"t": "act", "action": action})
        assert err["t"] == "error" and err["code"] == "action_invalid", (action, err)
        assert err["message"] and err["params"]["detail"]
    assert log_size(server.db, code) == before
    for action in ({"type": "fly"}, {"kind": "note"}, {"type": ["note"]}):
        assert (await first.request({"t": "act", "action": action}))["code"] == "bad_action"
    assert log_size(server.db, code) == before
    # the valid action goes through and is stored as sent, nothing added
    assert (await first.request({"t": "act", "action": valid}))["t"] == "ack"
    rows, size = log_size(server.db, code)
    assert rows == before[0] + 1 and size - before[1] < 200


def _schema(game: str) -> ActionSchema:
    return SECRETS.actions if game == "secrets" else get_game(game).actions


def test_every_game_declares_its_actions() -> None:
    for name in GAME_NAMES:
        schema = get_game(name).actions
        assert schema.types(), name
        with pytest.raises(RuleError) as refused:
            schema.parse({"type": schema.types()[0], "surprise": True})
        assert refused.value.code == "action_invalid"
