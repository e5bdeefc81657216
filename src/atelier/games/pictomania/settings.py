"""Room settings for Pictomania: defaults, validation, and the card pool they select."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atelier.content.custom import cards_from_settings, check_confusables
from atelier.content.decks import LEVELS, WORDS_PER_CARD, Card, pictomania_cards
from atelier.errors import RuleError
from atelier.i18n import LANGUAGES
from atelier.jsoncheck import is_int

MAX_ROUNDS = 12
MAX_CUSTOM_CARDS = 500
MAX_WORD_LENGTH = 60
MAX_TIME_LIMIT = 3600
MIN_TIME_LIMIT = 10

DEFAULTS: dict[str, Any] = {
    "edition": "second",
    "rounds": None,  # None: the edition's (first 5, second 4)
    "levels": None,  # None: easiest first, spread over the rounds
    "competitive": False,  # second edition: one black token fewer than players
    "kids": False,  # first edition: one card, number cards only
    "learning_round": False,  # second edition: round 1 without the black sheep
    "time_limit": None,  # seconds per round (house rule), None: no limit
    "player_token_values": None,  # None: docs/pictomania.md, Token values
    "black_token_values": None,  # None: docs/pictomania.md, Token values
    "card_swaps": 1,  # first edition: cards each player may swap per game
    "language": "en",
    "custom_cards": [],
    "custom_mode": "alongside",  # or "instead" of the built-in deck
}


def public_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """All of them: the rules hide who draws which card, not the deck. A custom
    deck (up to 64 KB) is cut to each card's level, all a lobby shows; its
    words are at GET /api/rooms/{code}/deck.json, so each state does not resend them."""
    cards = settings.get("custom_cards")
    if not isinstance(cards, list) or not cards:
        return dict(settings)
    return {**settings, "custom_cards": [{"level": c.get("level")} for c in cards]}


def default_levels(rounds: int, kids: bool) -> list[int]:
    """Easiest first, reaching the hardest deck in the last round."""
    if kids:
        return [1] * rounds
    return [1 + (i * len(LEVELS)) // rounds for i in range(rounds)]


def cards_per_round(settings: Mapping[str, Any]) -> int:
    if settings["kids"]:
        return 1
    return 6 if settings["edition"] == "first" else 3


def validate(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The complete settings; RuleError("bad_settings", field=...) if any is wrong."""
    if not isinstance(raw, Mapping):
        raise RuleError("bad_settings", field="settings")
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        _bad(unknown[0])
    s = {**DEFAULTS, **raw}
    out: dict[str, Any] = {}

    out["edition"] = s["edition"] if s["edition"] in ("first", "second") else _bad("edition")
    first = out["edition"] == "first"
    only_in = {"competitive": not first, "kids": first, "learning_round": not first}
    for flag, allowed in only_in.items():
        value = s[flag]
        if not isinstance(value, bool) or (value and not allowed):
            _bad(flag)
        out[flag] = value

    levels = s["levels"]
    rounds = s["rounds"]
    if rounds is None:
        rounds = len(levels) if isinstance(levels, list) and levels else (5 if first else 4)
    if not _int_in(rounds, 1, MAX_ROUNDS):
        _bad("rounds")
    out["rounds"] = rounds
    if levels is None:
        levels = default_levels(rounds, out["kids"])
    if not (
        isinstance(levels, list)
        and len(levels) == rounds
        and all(_int_in(v, LEVELS[0], LEVELS[-1]) for v in levels)
    ):
        _bad("levels")
    out["levels"] = list(levels)

    limit = s["time_limit"]
    if limit is not None and not _int_in(limit, MIN_TIME_LIMIT, MAX_TIME_LIMIT):
        _bad("time_limit")
    out["time_limit"] = limit
    out["player_token_values"] = _token_values(s["player_token_values"], "player_token_values", 5)
    out["black_token_values"] = _token_values(s["black_token_values"], "black_token_values", 6)
    if not _int_in(s["card_swaps"], 0, 20):
        _bad("card_swaps")
    out["card_swaps"] = s["card_swaps"]
    out["language"] = s["language"] if s["language"] in LANGUAGES else _bad("language")
    out["custom_mode"] = (
        s["custom_mode"] if s["custom_mode"] in ("alongside", "instead") else _bad("custom_mode")
    )
    out["custom_cards"] = _custom_cards(s["custom_cards"], out["language"], out["custom_mode"])

    needed = rounds * cards_per_round(out)
    if len(card_pool(out)) < needed:
        _bad("custom_cards")  # too few cards for the rounds chosen
    return out


def card_pool(settings: Mapping[str, Any]) -> list[Card]:
    """Every card this game may show, built-in and custom, in a fixed order."""
    custom = [
        Card(c["id"], c["level"], tuple(c["words"])) for c in settings["custom_cards"]
    ]
    if settings["custom_mode"] == "instead":
        return custom
    builtin = pictomania_cards(settings["language"])
    return [card for level in LEVELS for card in builtin.get(level, ())] + custom


def check_custom_confusables(settings: Mapping[str, Any]) -> None:
    """RuleError if custom cards hold words one drawing cannot tell apart, among
    themselves or, played alongside, with the built-in cards of their level."""
    custom = [Card(c["id"], c["level"], tuple(c["words"])) for c in settings["custom_cards"]]
    if not custom:
        return
    builtin: list[Card] = []
    if settings["custom_mode"] == "alongside":
        builtin = [c for cards in pictomania_cards(settings["language"]).values() for c in cards]
    check_confusables(custom, settings["language"], builtin)


def _custom_cards(value: Any, language: str, mode: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > MAX_CUSTOM_CARDS:
        _bad("custom_cards")
    # The deck checker names the card and the problem, in the host's language.
    if value:
        cards_from_settings(value)
    taken: set[str] = set()
    if mode == "alongside":
        taken = {c.id for cards in pictomania_cards(language).values() for c in cards}
    cards: list[dict[str, Any]] = []
    for raw in value:
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


def _token_values(value: Any, field: str, most: int) -> list[int] | None:
    if value is None:
        return None
    if not (
        isinstance(value, list)
        and 0 < len(value) <= most
        and all(_int_in(v, 0, 9) for v in value)
    ):
        _bad(field)
    return sorted(value, reverse=True)


def _int_in(value: Any, low: int, high: int) -> bool:
    return is_int(value) and low <= value <= high


def _bad(field: str) -> Any:
    raise RuleError("bad_settings", field=field)
