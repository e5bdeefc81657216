from atelier.cli import main
from atelier.errors import RuleError
from atelier.i18n import pick_language, translate


def test_rule_error_speaks_three_languages() -> None:
    err = RuleError("seat_count", min=3, max=6)
    messages = err.messages()
    assert messages["en"] == "This game needs 3 to 6 players."
    assert "3" in messages["de"] and "6" in messages["uk"]
    assert len(set(messages.values())) == 3


def test_browser_language_is_matched_to_a_supported_one() -> None:
    assert pick_language("de-AT,de;q=0.9,en;q=0.8") == "de"
    assert pick_language("uk-UA") == "uk"
    assert pick_language("fr-FR") == "en"
    assert pick_language(None) == "en"


def test_unknown_key_falls_back_to_the_key() -> None:
    assert translate("no.such.key", "de") == "no.such.key"


def test_unknown_command_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["frobnicate"]) == 2
    assert "usage: atelier" in capsys.readouterr().err


def test_every_shipped_game_declares_the_capabilities_the_server_uses() -> None:
    # the server finds a game's capabilities by these protocols: a game that
    # lacks one method of a protocol silently loses the whole capability
    from atelier.bench.sketch import GAME as SKETCH
    from atelier.games.core import (
        BotGame,
        CustomDeckGame,
        DealingGame,
        DrawingGame,
        GuessTimelineGame,
        LegalActionsGame,
        RemovableSeats,
        ScoredGame,
    )
    from atelier.games.registry import get_game

    def kinds(game: object) -> set[str]:
        return {p.__name__ for p in (DrawingGame, GuessTimelineGame, BotGame, DealingGame,
                                     ScoredGame, RemovableSeats, CustomDeckGame,
                                     LegalActionsGame)
                if isinstance(game, p)}

    # every shipped game lists its moves (the property tests and the fuzzer play them)
    both = {"DrawingGame", "DealingGame", "ScoredGame", "RemovableSeats", "LegalActionsGame"}
    assert kinds(get_game("pictomania")) == both | {"GuessTimelineGame", "CustomDeckGame"}
    assert kinds(get_game("incognito")) == both
    assert kinds(get_game("piet")) == {"BotGame", "ScoredGame", "LegalActionsGame"}
    assert kinds(SKETCH) == {"DrawingGame"}


def test_a_capability_remembered_per_class_is_the_protocol_s_own_answer() -> None:
    # isinstance against the games' protocols is remembered per class of game
    # (Python 3.11 checks every member each time): the same answers, every time
    from typing import _ProtocolMeta

    from atelier.bench.sketch import GAME as SKETCH
    from atelier.games import core
    from atelier.games.registry import GAME_NAMES, get_game

    protocols = [p for p in vars(core).values()
                 if isinstance(p, type) and type(p) is core.Capability]
    assert len(protocols) >= 10
    for game in [*(get_game(name) for name in GAME_NAMES), SKETCH, object()]:
        for protocol in protocols:
            own = _ProtocolMeta.__instancecheck__(protocol, game)
            assert isinstance(game, protocol) is own, (game, protocol)
            assert isinstance(game, protocol) is own  # asked again: remembered
