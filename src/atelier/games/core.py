"""The game core: what every game is, and the errors it raises.

A game is a pure state machine (see DESIGN.md):

- ``new(settings, seats, seed)`` makes the first state; all randomness comes
  from ``seed`` (``random.Random(seed)`` kept inside the state), so a game is
  replayed exactly from its seed and its action log;
- ``apply(state, seat, action, now)`` returns the next state or raises
  :class:`RuleError`; the state passed in is never modified;
- ``view(state, seat)`` is everything that seat may know, as JSON-ready data;
  ``seat=None`` is a spectator, who sees only public facts;
- ``deadline(state)`` is the time (seconds, same clock as ``now``) at which
  the server must apply ``{"type": "timeout"}`` as :data:`SYSTEM`, or None.

Seats are numbered 0..n-1 in joining order. Actions are JSON objects with a
``"type"``. States serialise to JSON with ``dump``/``load``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from atelier.i18n import LANGUAGES, translate

JSON = Any
SYSTEM = -1
"""The seat the server acts as when a deadline passes."""

S = TypeVar("S")


class RuleError(Exception):
    """A refused action. ``code`` is stable (clients and tests key on it);
    ``params`` fill the translated message ``error.<code>``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def message(self, lang: str = "en") -> str:
        return translate(f"error.{self.code}", lang, **self.params)

    def messages(self) -> dict[str, str]:
        return {lang: self.message(lang) for lang in LANGUAGES}

    def to_json(self) -> dict[str, JSON]:
        return {"code": self.code, "params": self.params}

    def __str__(self) -> str:
        return self.message("en")


class Game(Protocol[S]):
    """What the server needs of a game, and nothing more."""

    name: str
    min_seats: int
    max_seats: int

    def default_settings(self) -> dict[str, JSON]: ...

    def validate_settings(self, settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        """The full settings with defaults filled in; RuleError if invalid."""
        ...

    def new(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int) -> S: ...

    def apply(self, state: S, seat: int, action: Mapping[str, JSON], now: float) -> S: ...

    def view(self, state: S, seat: int | None) -> dict[str, JSON]: ...

    def deadline(self, state: S) -> float | None: ...

    def is_over(self, state: S) -> bool: ...

    def dump(self, state: S) -> dict[str, JSON]: ...

    def load(self, data: Mapping[str, JSON]) -> S: ...


@dataclass(frozen=True)
class LoggedAction:
    seat: int
    action: dict[str, JSON]
    now: float


@dataclass
class Replay:
    """A game rebuilt from its seed and accepted actions."""

    settings: dict[str, JSON]
    seats: list[str]
    seed: int
    log: list[LoggedAction] = field(default_factory=list)

    def run(self, game: Game[S]) -> S:
        state = game.new(self.settings, self.seats, self.seed)
        for entry in self.log:
            state = game.apply(state, entry.seat, entry.action, entry.now)
        return state


def require(condition: bool, code: str, **params: Any) -> None:
    """Raise ``RuleError(code)`` unless ``condition`` holds."""
    if not condition:
        raise RuleError(code, **params)


class DrawingGame(Game[S], Protocol[S]):
    """A game whose players draw (Pictomania, Incognito): the server relays
    and stores ink only where the game allows it."""

    def drawing_key(self, state: S) -> str | None:
        """Names the current set of canvases (e.g. ``"round-2"``); None when
        nobody draws. Ink is stored and replayed per key."""
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


class BotGame(Game[S], Protocol[S]):
    """A game with computer players (Piet against the computer)."""

    def computer_seats(self, settings: Mapping[str, JSON]) -> dict[int, str]:
        """Seats the computer takes under these settings, with display names;
        the server seats human players in the others, in joining order."""
        ...

    def bot_action(self, state: S, seat: int) -> dict[str, JSON] | None:
        """The action computer ``seat`` takes now, or None when it has none to
        take. Pure and deterministic given the state; may think for up to a
        second or two, so the server runs it off the event loop."""
        ...
