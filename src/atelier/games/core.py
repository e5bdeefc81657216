"""The game core: what every game is (its errors: ``atelier.errors``).

A game is a pure state machine, knowing nothing of sockets, clocks, databases or threads:

- ``new(settings, seats, seed)`` makes the first state; all randomness comes
  from ``seed`` (the generator's state kept inside the state, drawn from
  through :func:`rolling`), so a game is replayed exactly from its seed and
  its action log;
- ``apply(state, seat, action, now)`` returns the next state or raises
  :class:`RuleError`; the state passed in is never modified;
- ``view(state, seat)`` is everything that seat may know, as JSON-ready data;
  ``seat=None`` is a spectator, who sees only public facts;
- ``deadline(state)`` is the time (seconds, same clock as ``now``) at which
  the server must apply ``{"type": "timeout"}`` as :data:`SYSTEM`, or None.

Seats are numbered 0..n-1 in joining order. Actions are JSON objects with a
``"type"``, each declared in the game's ``actions`` schema (games/actions.py), which
turns one into its model before ``apply`` sees it.
States serialise to JSON with ``dump``/``load``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, _ProtocolMeta, runtime_checkable

from atelier.jsoncheck import as_ints
from atelier.jsonvalue import JSON as JSON  # every game names it here

if TYPE_CHECKING:
    from atelier.games.actions import Action, ActionSchema
    from atelier.games.settings import SettingsModel

SYSTEM = -1
"""The seat the server acts as when a deadline passes."""


def winners(totals: Sequence[int]) -> list[int]:
    """The seats with the highest total: ties share the victory (every game's
    rule, and the room's running totals')."""
    if not totals:
        return []
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


S = TypeVar("S")


class Capability(_ProtocolMeta):
    """The metaclass of the games' runtime-checkable protocols: ``isinstance(game,
    DrawingGame)`` is answered once per class of game and then remembered.
    Python 3.11 checks every member of the protocol on every call (30 to 45 us
    for these, several times for each state the server sends: docs/performance.md);
    a game's capabilities are its class's, its members methods and attributes
    every instance has."""

    def __instancecheck__(cls, instance: object) -> bool:
        key = (cls, type(instance))
        found = _CAPABLE.get(key)
        if found is None:
            found = _CAPABLE[key] = super().__instancecheck__(instance)
        return found


_CAPABLE: dict[tuple[type, type], bool] = {}

RngState = tuple[int, tuple[int, ...], float | None]
"""``random.Random.getstate()``. A game state keeps its generator as this
immutable value, so the state's copies share it safely, and draws through
:func:`rolling`."""


class HasRng(Protocol):
    rng: RngState


def seeded(seed: int) -> RngState:
    return random.Random(seed).getstate()


@contextmanager
def rolling(state: HasRng) -> Iterator[random.Random]:
    """A generator at ``state.rng``; what it drew is written back on leaving
    (an error leaves ``state.rng`` as it was: ``apply`` throws that copy away)."""
    rng = random.Random()
    rng.setstate(state.rng)
    yield rng
    state.rng = rng.getstate()


def rng_to_json(rng: RngState) -> list[JSON]:
    version, internal, gauss = rng
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence[JSON]) -> RngState:
    version, internal, gauss = data
    if not isinstance(version, int) or not (gauss is None or isinstance(gauss, float)):
        raise TypeError(f"not a generator state: {data!r}")
    return (version, tuple(as_ints(internal)), gauss)


class Game(Protocol[S]):
    """What the server needs of a game, and nothing more."""

    name: str
    min_seats: int
    max_seats: int
    actions: ActionSchema
    """Every action's shape (games/actions.py): the server refuses any other
    before ``apply`` sees it or the log stores it."""
    @property
    def settings_model(self) -> type[SettingsModel]:
        """Every setting's type, bounds and default (games/settings.py); the
        client reads its limits from this model's JSON schema."""
        ...

    def default_settings(self) -> dict[str, JSON]: ...

    def validate_settings(self, settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        """The full settings with defaults filled in; RuleError if invalid."""
        ...

    def public_settings(self, settings: Mapping[str, JSON]) -> dict[str, JSON]:
        """The settings as every player and spectator sees them (the lobby, every
        ``state``, ``GET /api/rooms/{code}``). A setting is shown as it is only if
        the rules make it public; a secret one (Incognito's own words) is
        replaced by what may be known of it, such as its count."""
        ...

    def new(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int) -> S: ...

    def apply(self, state: S, seat: int, action: Action, now: float) -> S:
        """The state after ``seat`` takes ``action``, one of this game's declared
        models (``actions.parse`` made it; the game matches on its class)."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, JSON]: ...

    def deadline(self, state: S) -> float | None: ...

    def is_over(self, state: S) -> bool: ...

    def dump(self, state: S) -> dict[str, JSON]: ...

    def load(self, data: Mapping[str, JSON]) -> S: ...


@runtime_checkable
class LegalActionsGame(Game[S], Protocol[S], metaclass=Capability):
    """A game that lists its players' moves, as OpenSpiel's ``legal_actions``."""

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every action ``apply`` accepts from player ``seat`` now (before any
        deadline passes), fields written out; empty when the seat has none."""
        ...


@runtime_checkable
class DrawingGame(Game[S], Protocol[S], metaclass=Capability):
    """A game whose players draw (Pictomania, Incognito): the server relays
    and stores ink only where the game allows it."""

    def drawing_key(self, state: S) -> str | None:
        """Names the current set of canvases (e.g. ``"round-2"``); None when
        nobody draws. Ink is stored and replayed per key."""
        ...

    def drawing_keys(self, state: S) -> list[str]:
        """Every key this game has drawn under so far, the current one included,
        in order: each names a drawing of every seat (a seat that drew nothing
        there has a blank one). The server serves and replays these."""
        ...

    def may_draw(self, state: S, seat: int) -> bool:
        """Whether ``seat`` may put ink on its canvas right now."""
        ...

    def ink_visible(self, state: S, drawer: int, viewer: int | None) -> bool:
        """Whether ``viewer`` (None: a spectator) may see ``drawer``'s ink now.
        Pictomania: always; Incognito: only the drawer until the drawings are
        turned over. The server holds back ink, and sends it once visible."""
        ...

    def ink_tools(self, state: S, seat: int) -> frozenset[str]:
        """Which ink operations ``seat`` may use now, a subset of
        ``{"pen", "eraser", "undo", "clear"}`` (pencil on paper has no eraser;
        a wipeable board has). The server refuses the others."""
        ...

    def canvas_action(self, state: S, seat: int, blank: bool) -> Action | None:
        """The system action that tells the rules whether ``seat``'s canvas
        shows pen ink (``blank``: none), or None if the game has no use for it
        now. The server asks after each batch it accepts and commits the action
        before it reads that player's next message: the rules stay pure, and
        the log replays the same."""
        ...


@runtime_checkable
class GuessTimelineGame(DrawingGame[S], Protocol[S], metaclass=Capability):
    """A drawing game whose guesses are shown on a drawing's replay
    (Pictomania); see atelier.server.room.marks."""

    def marked_drawing(self, action: Action) -> int | None:
        """The seat whose drawing ``action`` marks (a guess: its target), so
        the server logs where in that drawing it was made; None otherwise."""
        ...

    def revealed_guesses(self, state: S, key: str, seat: int) -> list[dict[str, JSON]] | None:
        """The guesses on ``seat``'s drawing of ``key`` as ``{"by", "number",
        "correct"}``, once public (the reveal); None while secret."""
        ...


@runtime_checkable
class BotGame(Game[S], Protocol[S], metaclass=Capability):
    """A game with computer players (Piet against the computer)."""

    def computer_seats(self, settings: Mapping[str, JSON]) -> dict[int, str]:
        """Seats the computer takes under these settings, each with its level
        (``"hard"``: data the client translates, never a display name); the
        server seats human players in the others, in joining order."""
        ...

    def bot_action(self, state: S, seat: int) -> Action | None:
        """The action computer ``seat`` takes now, or None when it has none to
        take. Pure and deterministic given the state; may think for up to a
        second or two, so the server runs it in its engine's worker processes."""
        ...

    def bot_to_act(self, state: S, seat: int) -> bool:
        """Whether computer ``seat`` may have an action to take now: cheap (asked
        on the event loop, so a worker process is not sent work that returns None)."""
        ...


@dataclass(frozen=True)
class Advice:
    """Work for the game's engine, run in a process of its own (the server's
    analysis pool): ``run(*args)`` must be a module-level function of plain
    values, deterministic, so ``key`` names its answer for the cache."""

    key: str
    run: Callable[..., JSON]
    args: tuple[JSON, ...]


@runtime_checkable
class AdvisedGame(Game[S], Protocol[S], metaclass=Capability):
    """A game whose engine advises players (Piet: hints, reviews)."""

    def advice(self, state: S, kind: str, params: Mapping[str, str]) -> Advice:
        """The work behind advice ``kind`` on a room's game, or RuleError when
        the rules do not allow it now (a hint nobody asked for, a review of an
        unfinished game)."""
        ...

    def record_advice(self, kind: str, record: str, params: Mapping[str, str],
                      guarded: Collection[str] = ()) -> Advice:
        """The work behind advice ``kind`` on a record sent by anyone, or
        RuleError; ``guarded`` holds the live positions no advice may reach
        (``guarded_position`` of the rooms' games)."""
        ...

    def guarded_position(self, state: S) -> str | None:
        """A key for this game's live position when its players did not agree
        to advice (a record that passes it must not be advised on), else None."""
        ...


@runtime_checkable
class CustomDeckGame(Game[S], Protocol[S], metaclass=Capability):
    """A game dealt from cards a room may bring (a custom deck, docs/decks.md;
    Pictomania): the deck travels in the settings ``custom_cards``/``custom_mode``."""

    def cards_needed(self, settings: Mapping[str, JSON]) -> int:
        """How many cards a game with these settings deals: a deck used instead
        of the built-in cards must have at least as many."""
        ...


@runtime_checkable
class DealingGame(Game[S], Protocol[S], metaclass=Capability):
    """A game that deals cards or words a room should not see twice: the room
    remembers what its games dealt (as opaque ids) and hands that memory to the
    next game, which deals none of it until a level or pool runs out."""

    def new_avoiding(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int,
                     dealt: Sequence[str]) -> S:
        """Like ``new``, avoiding ``dealt`` (the room's memory) where it can."""
        ...

    def dealt(self, state: S) -> list[str]:
        """The room's memory after this game: what it had, with this game's
        deals added and any level or pool that was started afresh forgotten."""
        ...


@runtime_checkable
class ScoredGame(Game[S], Protocol[S], metaclass=Capability):
    """A game with points per seat: a room sums its finished games."""

    def final_scores(self, state: S) -> list[int]:
        """Each seat's points (the highest wins; ties share the win)."""
        ...


S_in = TypeVar("S_in", contravariant=True)


@runtime_checkable
class WinnersGame(Protocol[S_in], metaclass=Capability):
    """A game whose winner is not always the highest score (Piet: a player who
    resigns or runs out of time loses whatever the scores)."""

    def final_winners(self, state: S_in) -> list[int]:
        """The seats that won the finished game (several on a tie)."""
        ...


@runtime_checkable
class CorrespondenceGame(Protocol[S], metaclass=Capability):
    """A turn-based game two people may play over days (Piet): a room may give
    each move a time (its settings say how long); the game goes on with nobody
    connected, and the server nudges the player whose turn it is."""

    def start_clock(self, state: S, now: float) -> S:
        """The game begins at ``now``: the first player's time runs from here."""
        ...

    def seat_to_move(self, state: S) -> int | None:
        """Whose turn it is; None once the game is over."""
        ...

    def moves_made(self, state: S) -> int:
        """How many moves the game has had: it names the current turn."""
        ...

    def move_seconds(self, settings: Mapping[str, JSON]) -> float | None:
        """The time each move has under these settings; None: a live game."""
        ...


def result_winners(game: object, state: object, scores: Sequence[int]) -> list[int]:
    """The seats that won a finished game: the game's own say if it has one,
    otherwise the highest scores."""
    return game.final_winners(state) if isinstance(game, WinnersGame) else winners(scores)


def move_seconds(game: object, settings: Mapping[str, JSON]) -> float | None:
    """A room's time per move: None for a live game (and for every game that
    cannot be played by correspondence)."""
    return game.move_seconds(settings) if isinstance(game, CorrespondenceGame) else None


@runtime_checkable
class RemovableSeats(Protocol, metaclass=Capability):
    """A game that lets the host take a player out while it runs (SYSTEM "remove")."""

    seats_removable: bool


@runtime_checkable
class AgreementsGame(Protocol, metaclass=Capability):
    """A game with settings no single player decides: each human player agrees
    or not in the lobby, and the server sets each one at the start (Piet's hints
    between two people)."""

    agreements: tuple[str, ...]
    """Setting names (bools) that are on only if every human player agreed to
    them; the host cannot set them through the settings."""


def agreements(game: object) -> tuple[str, ...]:
    """The settings ``game`` leaves to its players' agreement (none if it declares none)."""
    return game.agreements if isinstance(game, AgreementsGame) else ()


@runtime_checkable
class PlayedThrough(Protocol, metaclass=Capability):
    """What a driver that plays a game to its end (the protocol fuzzer) asks of it."""

    quick_settings: Mapping[str, JSON]
    """Settings for a short game without clocks, so nothing but the players' moves
    changes it."""

    def ends_part(self, action: Action) -> bool:
        """Whether ``action`` ends its seat's part of the current phase (a driver
        that prefers these brings the game to its end)."""
        ...
