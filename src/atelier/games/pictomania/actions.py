"""Every action Pictomania accepts, by shape (docs/pictomania.md says when each is allowed)."""

from __future__ import annotations

from typing import Literal

from atelier.games.actions import Action, ActionSchema, Int, Remove, Skip, System, Word

ACTIONS = ActionSchema()


@ACTIONS.action
class Replace(Action):
    type: Literal["replace"] = "replace"
    card: Word


@ACTIONS.action
class Ready(Action):
    type: Literal["ready"] = "ready"
    ready: bool = True


@ACTIONS.action
class Guess(Action):
    type: Literal["guess"] = "guess"
    target: Int
    number: Int


@ACTIONS.action
class Black(Action):
    type: Literal["black"] = "black"
    value: Int | None = None  # None: the highest token left


@ACTIONS.action
class Done(Action):
    type: Literal["done"] = "done"


@ACTIONS.action
class Void(Action):
    type: Literal["void"] = "void"
    target: Int | None = None  # None: your own drawing
    void: bool = True


@ACTIONS.action
class Confirm(Action):
    type: Literal["confirm"] = "confirm"


ACTIONS.action(System)


@ACTIONS.action
class Canvas(Action):
    """The server's own (first edition): a canvas gained its first ink or lost all of it."""

    type: Literal["canvas"] = "canvas"
    seat: Int
    drawn: bool


ACTIONS.action(Skip)
ACTIONS.action(Remove)
