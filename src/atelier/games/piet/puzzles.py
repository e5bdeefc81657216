"""Puzzles: positions from engine games where exactly one move wins.

"Wins" is proved by the exact endgame solver: with the answer the player to
move ends ahead under best play by both sides (solved margin > 0), and with
every other legal move they do not (<= 0: a draw or a loss). The shipped set
is ``puzzles.json`` beside this module (docs/piet.md, Puzzles), made by
``python -m atelier.games.piet.puzzles generate --count N --seed S``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from atelier.games.piet.ai import choose_move, endgame_in_reach, scored_paints
from atelier.games.piet.endgame import Endgame
from atelier.games.piet.notation import Record, format_move, read_record
from atelier.games.piet.rules import OVER, PAINTING, Move, State, legal_moves, play

SHIPPED = Path(__file__).with_name("puzzles.json")
CHECK_BUDGET = 20_000
"""Solver positions a puzzle may take to check: keeps the shipped set's test
short, and the positions small enough to work out at the board."""
LEVELS = ("easy", "greedy")
"""The engines whose games against themselves puzzles are taken from: quick
ones, whose slips leave close endgames (hard's games are seldom close enough
for a single winning move, and take far longer to play)."""
MIN_CHOICES = 4
"""Fewer legal moves than this is no puzzle."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    record: str
    """The game up to the position (record text, canonical)."""
    answer: str
    """The one winning move, in record notation."""
    margin: int
    """The solved final margin for the player to move after the answer."""
    moves_left: int
    """Moves (plies) the game lasts from here when both sides play best."""
    phase: str
    to_move: int
    """1 or 2, as on screen."""
    choices: int
    """Legal moves in the position."""
    most_points: bool
    """Whether the answer also scores the most points now (an easier puzzle)."""


def _after(state: State, move: Move, search: Endgame) -> tuple[int, int] | None:
    """A bound on the mover's final margin after ``move`` from a null-window
    search around zero: (value, sign), sign 1 if it wins (value is a lower
    bound, > 0), -1 if not (value is an upper bound, <= 0); None past budget."""
    child = play(state, move)[0]
    mover = state.to_move
    if child.phase == OVER:
        value = child.scores[mover] - child.scores[1 - mover]
        return value, 1 if value > 0 else -1
    if child.to_move == mover:
        found = search.value(child, 0, 1)
        if found is None:
            return None
        return found, 1 if found >= 1 else -1
    found = search.value(child, -1, 0)
    if found is None:
        return None
    return -found, 1 if found <= -1 else -1


def the_winning_move(state: State, budget: int = CHECK_BUDGET) -> tuple[Move, int] | None:
    """The only legal move that wins, with its solved margin, if exactly one
    move wins and the solver shows it within ``budget`` positions; else None."""
    if state.phase == OVER or not endgame_in_reach(state):
        return None
    search = Endgame(budget)
    winner: Move | None = None
    for move in legal_moves(state):
        found = _after(state, move, search)
        if found is None:
            return None
        if found[1] > 0:
            if winner is not None:
                return None
            winner = move
    if winner is None:
        return None
    child = play(state, winner)[0]
    if child.phase == OVER:
        return winner, child.scores[state.to_move] - child.scores[1 - state.to_move]
    value = search.value(child)
    if value is None:
        return None
    return winner, value if child.to_move == state.to_move else -value


def _moves_left(state: State) -> int:
    """Plies to the end of the game along the solver's best play."""
    search = Endgame(10 * CHECK_BUDGET)
    plies = 0
    while state.phase != OVER:
        search.nodes = 0
        solved = search.solve(state)
        if solved is None:
            return -1
        state = play(state, solved[1])[0]
        plies += 1
    return plies


def _most_points(state: State, move: Move) -> bool:
    if state.phase != PAINTING:
        return False
    best = max(points for points, *_ in scored_paints(state))
    return play(state, move)[1] == best


def _game(rng: random.Random) -> Iterator[tuple[Record, State]]:
    """The positions of one engine game, each with the record that reaches it."""
    record = Record(setup=rng.choice(("beginner", "empty")))
    level = rng.choice(LEVELS)
    state = record.start()
    while state.phase != OVER:
        yield Record(record.setup, record.brushes, list(record.moves)), state
        move = choose_move(state, level, rng.randrange(1 << 30))
        record.moves.append(move)
        state = play(state, move)[0]


def generate(count: int, seed: int, log: bool = False) -> list[Puzzle]:
    """``count`` puzzles from engine games against themselves, at most one a
    game."""
    rng = random.Random(seed)
    out: list[Puzzle] = []
    games = 0
    while len(out) < count:
        games += 1
        found = []
        for record, state in _game(rng):
            if len(legal_moves(state)) < MIN_CHOICES:
                continue
            solved = the_winning_move(state)
            if solved is not None:
                found.append((record, state, solved))
        if not found:
            continue
        # Variety: a filling-phase puzzle for every two painting ones while
        # they come up, then an answer that is not simply the most points now,
        # then the longest.
        want_filling = sum(p.phase != PAINTING for p in out) * 2 < len(out)
        found.sort(key=lambda f: ((f[1].phase != PAINTING) != want_filling,
                                  _most_points(f[1], f[2][0]), -_moves_left(f[1])))
        record, state, (move, margin) = found[0]
        out.append(Puzzle(
            id=f"p{len(out) + 1:02}", record=record.text(), answer=format_move(move),
            margin=margin, moves_left=_moves_left(state), phase=state.phase,
            to_move=state.to_move + 1, choices=len(legal_moves(state)),
            most_points=_most_points(state, move)))
        if log:
            print(f"game {games}: {out[-1].id} {out[-1].phase} {out[-1].answer} "
                  f"{out[-1].margin:+} in {out[-1].moves_left}", file=sys.stderr)
    return out


def load(path: Path = SHIPPED) -> list[Puzzle]:
    with path.open(encoding="utf-8") as handle:
        return [Puzzle(**item) for item in json.load(handle)]


def position(puzzle: Puzzle) -> State:
    return read_record(puzzle.record).final


USAGE = "usage: python -m atelier.games.piet.puzzles generate --count N --seed S [--out FILE]"


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    if not args or args[0] != "generate" or len(args) % 2 == 0:
        print(USAGE, file=sys.stderr)
        return 2
    options = dict(zip(args[1::2], args[2::2], strict=True))
    if set(options) - {"--count", "--seed", "--out"} or not all(
            options.get(key, "0").isdigit() for key in ("--count", "--seed")):
        print(USAGE, file=sys.stderr)
        return 2
    puzzles = generate(int(options.get("--count", "36")), int(options.get("--seed", "0")),
                       log=True)
    text = json.dumps([asdict(p) for p in puzzles], indent=1, ensure_ascii=False) + "\n"
    if "--out" in options:
        Path(options["--out"]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__ = ["SHIPPED", "Puzzle", "generate", "load", "position", "the_winning_move"]
