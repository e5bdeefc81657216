"""Every action Incognito accepts, by shape (docs/incognito.md says when each is allowed)."""

from __future__ import annotations

from typing import Literal

from atelier.games.actions import Action, ActionSchema, Int, Remove, Skip, System

ACTIONS = ActionSchema()


@ACTIONS.action
class DoneDrawing(Action):
    type: Literal["done_drawing"] = "done_drawing"


@ACTIONS.action
class Vote(Action):
    type: Literal["vote"] = "vote"
    author: Int
    tile: Int


@ACTIONS.action
class DoneVoting(Action):
    type: Literal["done_voting"] = "done_voting"


@ACTIONS.action
class Confirm(Action):
    type: Literal["confirm"] = "confirm"


ACTIONS.action(System)
ACTIONS.action(Skip)
ACTIONS.action(Remove)
