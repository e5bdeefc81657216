"""Room settings for Pictomania: defaults, validation, and the card pool they select."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, NoReturn

from pydantic import Field

from atelier.content.custom import cards_from_settings, check_confusables
from atelier.content.decks import LEVELS, WORDS_PER_CARD, Card
from atelier.errors import RuleError
from atelier.games.core import JSON
from atelier.games.pictomania.decks import pictomania_cards
from atelier.games.pictomania.tokens import Edition
from atelier.games.settings import Language, SettingsModel, checked, defaults
from atelier.jsoncheck import as_int, as_ints, as_list, as_object, as_str, as_strs, is_int

MAX_ROUNDS = 12
MAX_CUSTOM_CARDS = 500
MAX_WORD_LENGTH = 60
MAX_TIME_LIMIT = 3600
MIN_TIME_LIMIT = 10
TIME_LIMIT_STEP = 10
"""The form's step, counted from the minimum as a browser counts it."""
TIME_LIMIT_OFFERED = 180
"""What a ticked "time limit" box starts at."""

Level = Annotated[int, Field(ge=LEVELS[0], le=LEVELS[-1])]
TokenValue = Annotated[int, Field(ge=0, le=9)]
PlayerTokens = Annotated[list[TokenValue], Field(min_length=1, max_length=5)]
BlackTokens = Annotated[list[TokenValue], Field(min_length=1, max_length=6)]


class Settings(SettingsModel):
    """Each field's type, bounds and default; docs/pictomania.md says what they mean.
    Which fields an edition allows, and how many levels, are checked in ``validate``."""

    edition: Literal["first", "second"] = "second"
    competitive: bool = False
    """Second edition: one black token fewer than players."""
    kids: bool = False
    """First edition: one card, number cards only."""
    learning_round: bool = False
    """Second edition: round 1 without the black sheep."""
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] | None = None
    """None: the edition's (first 5, second 4)."""
    levels: list[Level] | None = None
    """None: easiest first, spread over the rounds."""
    time_limit: (
        Annotated[int, Field(ge=MIN_TIME_LIMIT, le=MAX_TIME_LIMIT,
                             json_schema_extra={"step": TIME_LIMIT_STEP})] | None
    ) = Field(default=None, examples=[TIME_LIMIT_OFFERED])
    """Seconds per round (house rule); None: no limit."""
    player_token_values: PlayerTokens | None = None
    """None: docs/pictomania.md, Token values."""
    black_token_values: BlackTokens | None = None
    card_swaps: Annotated[int, Field(ge=0, le=20)] = 1
    """First edition: cards each player may swap per game."""
    language: Language = "en"
    custom_mode: Literal["alongside", "instead"] = "alongside"
    """Custom cards played alongside the built-in deck, or instead of it."""
    custom_cards: list[Any] = Field(default=[], max_length=MAX_CUSTOM_CARDS)


def default_settings() -> dict[str, JSON]:
    return defaults(Settings)


def public_settings(settings: Mapping[str, JSON]) -> dict[str, JSON]:
    """All of them: the rules hide who draws which card, not the deck. A custom
    deck (up to 64 KB) is cut to each card's level, all a lobby shows; its
    words are at GET /api/rooms/{code}/deck.json, so each state does not resend them."""
    cards = settings.get("custom_cards")
    if not isinstance(cards, list) or not cards:
        return dict(settings)
    return {**settings, "custom_cards": [{"level": c.get("level")} for c in cards]}


def edition_of(settings: Mapping[str, JSON]) -> Edition:
    return "first" if settings["edition"] == "first" else "second"


def default_levels(rounds: int, kids: bool) -> list[int]:
    """Easiest first, reaching the hardest deck in the last round."""
    if kids:
        return [1] * rounds
    return [1 + (i * len(LEVELS)) // rounds for i in range(rounds)]


def cards_per_round(settings: Mapping[str, JSON]) -> int:
    if settings["kids"]:
        return 1
    return 6 if settings["edition"] == "first" else 3


def validate(settings: Mapping[str, JSON]) -> dict[str, JSON]:
    """The complete settings; RuleError("bad_settings", field=...) if any is wrong."""
    s = checked(Settings, settings)
    out: dict[str, JSON] = dict(s)
    first = s["edition"] == "first"
    only_in = {"competitive": not first, "kids": first, "learning_round": not first}
    for flag, allowed in only_in.items():
        if s[flag] and not allowed:
            _bad(flag)

    levels = None if s["levels"] is None else as_ints(s["levels"])
    rounds = None if s["rounds"] is None else as_int(s["rounds"])
    if rounds is None:
        rounds = len(levels) if levels else (5 if first else 4)
        if rounds > MAX_ROUNDS:
            _bad("rounds")
    out["rounds"] = rounds
    if levels is None:
        levels = default_levels(rounds, bool(s["kids"]))
    if len(levels) != rounds:
        _bad("levels")
    out["levels"] = levels
    for field in ("player_token_values", "black_token_values"):
        if s[field] is not None:
            out[field] = sorted(as_ints(s[field]), reverse=True)
    out["custom_cards"] = _custom_cards(s["custom_cards"], as_str(s["language"]),
                                        as_str(s["custom_mode"]))

    needed = rounds * cards_per_round(out)
    if len(card_pool(out)) < needed:
        _bad("custom_cards")  # too few cards for the rounds chosen
    return out


def card_pool(settings: Mapping[str, JSON]) -> list[Card]:
    """Every card this game may show, built-in and custom, in a fixed order."""
    custom = [
        _card(as_object(c)) for c in as_list(settings["custom_cards"])
    ]
    if settings["custom_mode"] == "instead":
        return custom
    builtin = pictomania_cards(settings["language"])
    return [card for level in LEVELS for card in builtin.get(level, ())] + custom


def check_custom_confusables(settings: Mapping[str, JSON]) -> None:
    """RuleError if custom cards hold words one drawing cannot tell apart, among
    themselves or, played alongside, with the built-in cards of their level."""
    custom = [_card(as_object(c)) for c in as_list(settings["custom_cards"])]
    if not custom:
        return
    builtin: list[Card] = []
    if settings["custom_mode"] == "alongside":
        builtin = [c for cards in pictomania_cards(settings["language"]).values() for c in cards]
    check_confusables(custom, as_str(settings["language"]), builtin)


def _card(card: Mapping[str, JSON]) -> Card:
    return Card(as_str(card["id"]), as_int(card["level"]), tuple(as_strs(card["words"])))


def _custom_cards(value: JSON, language: str, mode: str) -> list[dict[str, JSON]]:
    # The deck checker names the card and the problem, in the host's language.
    if value:
        cards_from_settings(value)
    taken: set[str] = set()
    if mode == "alongside":
        taken = {c.id for cards in pictomania_cards(language).values() for c in cards}
    cards: list[dict[str, JSON]] = []
    for raw in as_list(value or []):
        if not isinstance(raw, Mapping) or set(raw) - {"id", "level", "words", "theme"}:
            _bad("custom_cards")
        card_id, level, words = raw.get("id"), raw.get("level"), raw.get("words")
        if not (isinstance(card_id, str) and 0 < len(card_id) <= 40 and card_id not in taken):
            _bad("custom_cards")
        if not _int_in(level, LEVELS[0], LEVELS[-1]):
            _bad("custom_cards")
        if not (
            isinstance(words, list)
            and len(words) == WORDS_PER_CARD
            and all(isinstance(w, str) and 0 < len(w.strip()) <= MAX_WORD_LENGTH for w in words)
        ):
            _bad("custom_cards")
        taken.add(card_id)
        cards.append({"id": card_id, "level": level, "words": [w.strip() for w in words]})
    return cards


def _int_in(value: JSON, low: int, high: int) -> bool:
    return is_int(value) and low <= value <= high


def _bad(field: str) -> NoReturn:
    raise RuleError("bad_settings", field=field)
