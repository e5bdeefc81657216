"""Piet's compiled engine (``_engine.c``) answers as the Python does, to the bit,
and every compiled part can be left out.

A computer's move, a hint and a review are pure functions of their seed, and a
replayed game must replay exactly, so the compiled play-out must end every game
where ``ai.playout_py`` ends it (the same moves, ties broken by the same draws
of Python's own random numbers), and the compiled exact search must give
search.py's values and moves after visiting as many positions, with the same
table kept for the next search."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import atelier
from atelier.games.piet import ai
from atelier.games.piet.ai import endgame_in_reach
from atelier.games.piet.endgame import Endgame
from atelier.games.piet.notation import format_move
from atelier.games.piet.rules import OVER, State, legal_moves, new_game, play

ROOT = Path(__file__).resolve().parent.parent


def random_game(game: int, brushes: bool) -> Iterator[State]:
    """Every position of random game number ``game``, its end included; the
    beginner's setup for odd numbers, the empty one for even."""
    state = new_game("beginner" if game % 2 else "empty", brushes=brushes)
    pick = random.Random(game)
    while state.phase != OVER:
        yield state
        state = play(state, pick.choice(sorted(legal_moves(state), key=format_move)))[0]
    yield state


def positions(games: int) -> list[State]:
    """Every position of ``games`` random games, both setups, brushes on and off."""
    return [state for game in range(games) for state in random_game(game, game % 3 == 0)]


def test_the_server_plays_out_and_searches_in_c_where_it_was_built() -> None:
    """setup.py builds it wherever there is a C compiler (here there is one)."""
    assert ai.COMPILED_PLAYOUT is not None
    assert Endgame(10)._compiled is not None


def test_every_game_ends_where_the_python_ends_it() -> None:
    states = positions(8)
    assert len({s.phase for s in states}) == 3 and any(s.brushes_on for s in states)
    seeds = [0, 1, 2**30 - 1, 2**32 - 1]  # the ends of MT19937's one-word seeds
    draw = random.Random(7)
    for state in states:
        # each position gets half of the seeds, by whose turn it is, to keep this quick
        for seed in [*seeds, draw.randrange(1 << 30)][state.to_move::2]:
            assert ai.playout(state, seed) == ai.playout_py(state, seed), (state, seed)


def test_the_games_differ_by_seed_as_the_python_ones_do() -> None:
    """A tie broken by a wrong draw would still end a game; different seeds
    must end the same position in the Python's different ways."""
    start = new_game("beginner")
    ends = {ai.playout(start, seed).scores for seed in range(40)}
    assert len(ends) > 5
    assert ends == {ai.playout_py(start, seed).scores for seed in range(40)}


def test_a_seed_beyond_one_word_is_played_out_in_python() -> None:
    start = new_game("empty")
    for seed in (2**32, 2**40 + 3):
        assert ai.playout(start, seed) == ai.playout_py(start, seed)


@pytest.mark.parametrize("bad", [{"phase": 3}, {"pal": 1 << 9}])
def test_the_compiled_playout_refuses_numbers_off_the_board(bad: dict[str, int]) -> None:
    assert ai.COMPILED_PLAYOUT is not None
    with pytest.raises(ValueError):
        ai.COMPILED_PLAYOUT(bad.get("pal", 0), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                             bad.get("phase", 1), 0, 0, 0, -1, 5)


def test_every_compiled_part_can_be_left_out_for_its_python_path() -> None:
    """ATELIER_PURE_PYTHON=1 runs the server as an install without a C compiler
    would (docs/deploy.md): every extension setup.py builds is listed, none can
    be imported, and each module takes its Python path."""
    built = re.findall(r'Extension\("([^"]+)"', (ROOT / "setup.py").read_text())
    assert sorted(built) == sorted(atelier.COMPILED_PARTS)
    probe = """
import importlib
import atelier, atelier.games.piet.ai as ai, atelier.ink.guard as guard
import atelier.server.edge.limits as limits, atelier.server.wire.wsframe as wsframe
import atelier.server.ink.bundles as bundles, atelier.games.piet.endgame as endgame
def importable(name):
    try:
        return bool(importlib.import_module(name))
    except ImportError:
        return False
print(*[importable(name) for name in atelier.COMPILED_PARTS], ai.COMPILED_PLAYOUT is not None,
      endgame.COMPILED, guard.COMPILED, limits.COMPILED is not None, wsframe.COMPILED,
      bundles.spread is not bundles.spread_py)
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    for pure, compiled in (("1", "False"), ("0", "True")):
        run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                             env={**env, "ATELIER_PURE_PYTHON": pure}, check=True)
        assert run.stdout.split() == [compiled] * 10, (pure, run.stdout)


def late_positions() -> list[State]:
    """Positions of random games without brushes from where the end is near:
    those the hard computer, hints and reviews search exactly, and a few
    earlier ones, which run out of any budget given here."""
    found = []
    for state in positions(40):
        if state.brushes_on or state.phase == OVER:
            continue
        empty = sum(16 - (c[0] | c[1] | c[2]).bit_count() for c in state.canvases)
        if endgame_in_reach(state) or empty in (14, 20):
            found.append(state)
    return found


def searched(state: State, budget: int, compiled: bool) -> tuple[object, ...]:
    search = Endgame(budget, compiled=compiled)
    solved = search.solve(state)
    first_nodes = search.nodes
    search.nodes = 0
    windows = (search.value(state, 0, 1), search.value(state, -1, 0))
    return solved, first_nodes, windows, search.nodes, search.kept()


def test_the_exact_search_is_the_pythons_value_move_count_and_table() -> None:
    states = late_positions()[::6]  # a sixth of them: search.py is most of the time here
    assert len(states) > 60
    outcomes = set()
    for state in states:
        for budget in (400, 3000):
            compiled, python = searched(state, budget, True), searched(state, budget, False)
            assert compiled == python, (state, budget)
            outcomes.add(compiled[0] is None)
    assert outcomes == {True, False}  # some searches finished, some ran out


def test_a_table_kept_over_a_whole_game_answers_as_the_pythons() -> None:
    """A review keeps one table for the game and searches each late ply with a
    fresh budget; an entry from an earlier ply is reused or searched again by
    its depth, as search.py does."""
    for game in range(40, 52):
        kept = {True: Endgame(0, compiled=True), False: Endgame(0, compiled=False)}
        answers: dict[bool, list[object]] = {True: [], False: []}
        for state in random_game(game, brushes=False):
            if endgame_in_reach(state):
                for compiled, search in kept.items():
                    search.nodes, search.budget = 0, 3000
                    answers[compiled].append((search.solve(state), search.nodes, search.kept()))
        assert answers[True] == answers[False], game


def test_the_compiled_search_refuses_a_mask_off_the_board() -> None:
    table = Endgame(10)._compiled
    assert table is not None
    with pytest.raises(ValueError):
        table.value(1 << 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, False, True, -10, 10, 0, 10)
