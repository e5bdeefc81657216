"""An action as the server hands it to a game: a JSON object sent by a client
is parsed into the game's declared model first (games/actions.py), exactly as
``session.py`` does; a model (from ``legal_actions``) passes as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from atelier.games.actions import Action
from atelier.games.core import Game

S = TypeVar("S")


def apply_json(game: Game[S], state: S, seat: int, action: Action | Mapping[str, Any],
               now: float) -> S:
    """``game.apply`` of ``action``, parsed first if it is JSON (RuleError
    ``bad_action``/``action_invalid`` for a shape the game does not declare)."""
    model = action if isinstance(action, Action) else game.actions.parse(action)
    return game.apply(state, seat, model, now)
