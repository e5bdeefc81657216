"""Pictomania, both editions: rules engine, views and the round scorer.

``GAME`` is what the server hosts; see docs/pictomania.md for actions and phases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources.abc import Traversable

from atelier.content.check import Report
from atelier.games.actions import Action
from atelier.games.core import JSON
from atelier.games.party import PartyGame
from atelier.games.pictomania import decks, engine, legal, view
from atelier.games.pictomania.actions import ACTIONS, Guess, Ready
from atelier.games.pictomania.settings import (
    Settings,
    cards_per_round,
    check_custom_confusables,
    public_settings,
    validate,
)
from atelier.games.pictomania.state import State, dump, load
from atelier.games.pictomania.tokens import MAX_PLAYERS, MIN_PLAYERS
from atelier.jsoncheck import as_int


class Pictomania(PartyGame[State]):
    # The 1st edition's boards wipe clean; the 2nd edition's "once you have made
    # your first guess, you cannot modify your drawing" means you may until then.
    # Either way the tools end exactly when `may_draw` does (PartyGame.ink_tools).
    name = "pictomania"
    actions = ACTIONS
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    settings_model = Settings
    quick_settings: Mapping[str, JSON] = {"rounds": 2}
    ends_part_types = frozenset({"done", "confirm"})

    def validate_settings(self, settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        full = validate(settings)
        # Only when a host changes settings: a game already started (and
        # replayed after a restart) keeps the deck it was accepted with.
        check_custom_confusables(full)
        return full

    def public_settings(self, settings: Mapping[str, JSON]) -> dict[str, JSON]:
        return public_settings(settings)

    def new_avoiding(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int,
                     dealt: Sequence[str]) -> State:
        return engine.new(settings, seats, seed, dealt)

    def cards_needed(self, settings: Mapping[str, JSON]) -> int:
        return as_int(settings["rounds"]) * cards_per_round(settings)

    def check_decks(self, root: Traversable, report: Report) -> None:
        decks.check_decks(root, report)

    def deck_counts(self, root: Traversable) -> dict[str, dict[str, int]]:
        return decks.deck_counts(root)

    def apply(self, state: State, seat: int, action: Action, now: float) -> State:
        return engine.apply(state, seat, action, now)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal.legal_actions(state, seat)

    def ends_part(self, action: Action) -> bool:
        return super().ends_part(action) or (isinstance(action, Ready) and action.ready)

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return view.view(state, seat)

    def deadline(self, state: State) -> float | None:
        return engine.deadline(state)

    def dump(self, state: State) -> dict[str, JSON]:
        return dump(state)

    def load(self, data: Mapping[str, JSON]) -> State:
        return load(dict(data))

    def drawing_key(self, state: State) -> str | None:
        return view.drawing_key(state)

    def drawing_keys(self, state: State) -> list[str]:
        drawn = state.round if state.phase in ("drawing", "review", "over") else state.round - 1
        return [f"round-{r}" for r in range(1, drawn + 1)]

    def may_draw(self, state: State, seat: int) -> bool:
        return engine.may_draw(state, seat)

    def ink_visible(self, state: State, drawer: int, viewer: int | None) -> bool:
        return True  # everyone draws in plain sight

    def canvas_action(self, state: State, seat: int, blank: bool) -> Action | None:
        return engine.canvas_action(state, seat, blank)

    # -- guesses on a drawing's replay (atelier.server.room.marks) --------------------

    def marked_drawing(self, action: Action) -> int | None:
        """The seat whose drawing ``action`` marks: a guess marks its target's."""
        return action.target if isinstance(action, Guess) else None

    def revealed_guesses(self, state: State, key: str, seat: int) -> list[dict[str, JSON]] | None:
        """The guesses on ``seat``'s drawing of round ``key`` with their verdicts,
        once revealed; None while that round is still being drawn."""
        return view.revealed_guesses(state, key, seat)


GAME = Pictomania()
