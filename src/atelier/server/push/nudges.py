"""Which pushes a room's change calls for (pure; docs/piet.md, "Correspondence
play"): a correspondence game nudges the player whose turn begins, the player
to move when a quarter of their time is left, and both players when the game
ends. Live games send none: both players are there."""

from __future__ import annotations

from dataclasses import dataclass

from atelier.games.core import SYSTEM, CorrespondenceGame, move_seconds, result_winners
from atelier.jsonvalue import JSON
from atelier.server.room.model import RoomModel

QUARTER = 0.25


@dataclass(frozen=True)
class Nudge:
    player: str
    key: str
    """Unique per push: claimed in the store so it goes out once."""
    text: str
    """The string key of its text (``push.*``); its only parameter is the room."""


def correspondence(model: RoomModel) -> bool:
    return model.phase != "lobby" and move_seconds(model.game, model.settings) is not None


def _seat_player(model: RoomModel, seat: int | None) -> str | None:
    if seat is None or not 0 <= seat < len(model.seats):
        return None
    pid = model.seats[seat]
    return None if pid.startswith("c") else pid  # computers get no nudge


def after_event(model: RoomModel, seq: int, kind: str, data: dict[str, JSON]) -> list[Nudge]:
    """The pushes event ``seq`` (already applied to ``model``) calls for."""
    game = model.game
    if not correspondence(model) or not isinstance(game, CorrespondenceGame):
        return []
    code = model.code
    if model.phase == "over" and kind in ("action", "removed"):
        scores = list(game.final_scores(model.state)) if hasattr(game, "final_scores") else []
        won = set(result_winners(game, model.state, scores))
        out = []
        for seat in range(len(model.seats)):
            player = _seat_player(model, seat)
            if player is None:
                continue
            text = ("push.draw" if len(won) > 1 else
                    "push.won" if seat in won else "push.lost")
            out.append(Nudge(player, f"over:{code}:{seq}:{player}", text))
        return out
    if model.phase != "playing":
        return []
    to_move = game.seat_to_move(model.state)
    if kind == "action":
        action = data.get("action", {})
        mover = data.get("seat")
        # a hint changes no turn; a brush gives the mover a second move, no new turn
        if not isinstance(action, dict) or action.get("type") != "move" or mover in (
                to_move, SYSTEM):
            return []
    elif kind != "started":
        return []
    player = _seat_player(model, to_move)
    return [] if player is None else [Nudge(player, f"turn:{code}:{seq}:{player}", "push.turn")]


def quarter_due(model: RoomModel) -> tuple[float, Nudge] | None:
    """When the player to move is to be told a quarter of their time is left,
    and that push; None without a running clock."""
    game = model.game
    if not correspondence(model) or model.phase != "playing" or not isinstance(
            game, CorrespondenceGame):
        return None
    deadline = game.deadline(model.state)
    seconds = move_seconds(game, model.settings)
    player = _seat_player(model, game.seat_to_move(model.state))
    if deadline is None or seconds is None or player is None:
        return None
    # one quarter push per turn (and game in the room), whichever process finds it due
    turn = f"{model.games_started}.{game.moves_made(model.state)}"
    return deadline - seconds * QUARTER, Nudge(
        player, f"quarter:{model.code}:{turn}:{player}", "push.quarter")


def wake_at(model: RoomModel) -> float | None:
    """The room's next moment to act on with nobody there: its quarter push
    (the loss on time comes after it), for the store's due-room scan."""
    game = model.game
    seconds = move_seconds(game, model.settings)
    if model.phase != "playing" or seconds is None:
        return None
    deadline = game.deadline(model.state)
    return None if deadline is None else deadline - seconds * QUARTER
