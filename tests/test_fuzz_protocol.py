"""The protocol fuzzer's short run (atelier.bench.fuzz; the long one is `atelier bench
fuzz`): every game, from the lobby to the end, under random and broken messages and ink
on real WebSockets to a real server. No server exception, every refused message answered
with an error, and no refused message changes a room."""

from __future__ import annotations

from collections.abc import Callable

from atelier.bench.fuzz import Runner
from atelier.games.registry import GAME_NAMES, get_game
from support.secrets_game import SECRETS
from support.server import ServerProcess
from tally.rules import GAME as TALLY


def test_fuzzing_the_protocol_in_every_phase_of_every_game(
    server_factory: Callable[..., ServerProcess],
) -> None:
    # Tally (tests/tally/) is registered as any game outside the package is: its
    # settings for the run and the moves that end its turns come from the game
    srv = server_factory("--extra-game", "tally.rules")
    games = {name: get_game(name) for name in GAME_NAMES} | {"secrets": SECRETS,
                                                            "tally": TALLY}
    runner = Runner(srv.http, srv.db, games, strict=True)
    figures = runner.run(messages=1500, examples_per_batch=8)
    srv.stop()
    log = srv.log()
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]
    assert (figures.server_exceptions, figures.unanswered, figures.state_changes,
            figures.legal_refused) == (0, 0, 0, 0), figures.problems
    # the driver plays the moves the games list (legal_actions), so a list that
    # offers a move the rules refuse fails here
    assert figures.legal_played > 50
    assert figures.messages >= 1500 and figures.refused > 100 and figures.binary > 50
    # the driver took the rooms through their phases, not just the lobby
    played = {game for game, phase in figures.phases if not phase.startswith("lobby")}
    assert played == set(games), figures.phases
