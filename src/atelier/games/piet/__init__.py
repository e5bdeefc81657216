"""Piet: a two-player abstract painting game (rules, records, computer players).

``GAME`` is what the server hosts; ``choose_move(state, level, seed)`` gives
the computer's action for the player to move in a ``GAME`` state.
"""

from atelier.games.piet.game import GAME, PietGame, PietState

choose_move = GAME.choose_move

__all__ = ["GAME", "PietGame", "PietState", "choose_move"]
