"""What moves are worth, for teaching: move ratings, a hint, a game's review.

A value is the expected final margin, in points, for the player to move in the
position rated (their points minus the opponent's) after a move. It is exact
where the endgame solver proves it (``ai.endgame_in_reach``, within the
budget); otherwise it is the mean margin of games played out greedily on both
sides (``ai.playout``) from the position after the move, the same games for
every move compared, so that two moves differ by what they do and not by the
luck of their games.

Everything here is a pure function of its arguments: ``budget`` counts
played-out games and solver positions, never clock time, so the same position
(or record) with the same budget and seed always gets the same answer. How
budget maps to work is in docs/piet.md, Analysis.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from atelier.errors import RuleError
from atelier.games.piet.ai import ENDGAME_BUDGET, choose_move, endgame_in_reach, playout
from atelier.games.piet.endgame import Endgame
from atelier.games.piet.notation import format_move, read_record
from atelier.games.piet.rules import OVER, Move, State, legal_moves, play

DEFAULT_BUDGET = 120
"""Played-out games per position: the budget docs/piet.md recommends."""
NODES_PER_GAME = 500
"""Solver positions allowed per played-out game of budget (one game played out
costs about as much as that many positions searched), never fewer than the
hard engine's own endgame budget."""
CANDIDATES = 12
"""Painting moves always played out (the best by points now), as many as the
hard engine considers; a bigger budget plays out one more per GAMES_PER_MOVE."""
GAMES_PER_MOVE = 8
TURNING_LOSS = 3.0
"""Points given away that make a move a turning point on their own."""
FLIP_LOSS = 1.0
"""Points given away that make a turning point of a move that also changes who
is expected to win (less would mark the estimates' noise near a draw)."""
SIGNIFICANCE = 2.0
"""A loss estimated from played-out games counts only when it is at least this
many standard errors: the chance that noise alone makes a move look that much
worse is then about 2 in 100, where a bare threshold marked every move whose
games happened to go badly."""
CONFIRM_SHARE = 2
"""A ply that may be a turning point is played out again with fresh games, a
budget // CONFIRM_SHARE for the best move and the same number for the played
one: the best was picked as the highest of several noisy means, so the games
that picked it overrate it, and new games do not."""


@dataclass(frozen=True)
class MoveValue:
    move: Move
    margin: float
    """Expected final margin for the player to move (their points minus the
    opponent's) after this move."""
    exact: bool
    """True when proved by the endgame solver (or the move ends the game)."""


@dataclass(frozen=True)
class PlyReview:
    ply: int
    """From 0, in the record's order."""
    player: int
    """0 or 1: who played this ply."""
    played: str
    best: str
    """The best move found, in record notation; the played one when it is as good."""
    played_margin: float
    best_margin: float
    loss: float
    """Points the played move gave away against the best: best_margin - played_margin."""
    margin_after: float
    """Expected final margin for player 0 after this ply."""
    exact: bool
    turning: bool
    noise: float = 0.0
    """The standard error of ``loss`` when it is estimated from played-out games
    (both moves on the same games), 0 when proved."""


# --- the two ways of valuing a move ----------------------------------------------


def _solver_budget(budget: int) -> int:
    return max(ENDGAME_BUDGET, budget * NODES_PER_GAME)


def _final_margin(final: State, player: int) -> int:
    return final.scores[player] - final.scores[1 - player]


def _exact_after(search: Endgame, state: State, child: State) -> int | None:
    """The proved margin for the player to move in ``state`` once ``child`` is
    reached, or None past the search's budget."""
    if child.phase == OVER:
        return _final_margin(child, state.to_move)
    value = search.value(child)
    if value is None:
        return None
    return value if child.to_move == state.to_move else -value


def _solvable(state: State, child: State) -> bool:
    return endgame_in_reach(state) or (child.phase != OVER and endgame_in_reach(child))


def _mean_margin(child: State, player: int, seeds: Sequence[int]) -> float:
    return sum(_final_margin(playout(child, seed), player) for seed in seeds) / len(seeds)


def _seeds(rng: random.Random, count: int) -> list[int]:
    return [rng.randrange(1 << 30) for _ in range(count)]


def _round(value: float) -> float:
    return round(value, 2)


@dataclass
class _Candidate:
    move: Move
    child: State
    points: int
    total: float = 0.0
    games: int = 0
    tier: int = 0
    """Rounds of play-outs it stayed in; the last round's survivors rank first."""
    results: list[float] | None = None
    """Each game's final margin, in the order of the seeds it was given."""

    @property
    def mean(self) -> float:
        return self.total / self.games


def _rollout_ratings(state: State, moves: Sequence[Move], budget: int, rng: random.Random,
                     keep: Move | None = None) -> list[MoveValue]:
    return _rollouts(state, moves, budget, rng, keep)[0]


def _rollouts(state: State, moves: Sequence[Move], budget: int, rng: random.Random,
              keep: Move | None = None) -> tuple[list[MoveValue], dict[Move, list[float]]]:
    """Every move in ``moves`` (and ``keep``) rated by play-outs, best first.

    The best CANDIDATES painting moves by points now (more with a bigger
    budget; every filling move) are played out by successive halving, as the
    hard engine does: each round gives every live move the same new games, then
    the worse half drops out, until the budget is spent. ``keep`` (a review's
    played move) never drops out, so it ends with as many games as the best.
    A move that ends the game is worth its final margin. The list is ordered
    by rounds survived, then by mean, and a margin never reads higher than one
    above it (a move dropped earlier was judged worse with the evidence of its
    round). Painting moves beyond the ones played out are placed last, each
    worth the last played-out move's margin less the points it scores fewer
    now. Also each played-out move's games, for the noise of a comparison
    (moves that stayed in the same rounds were given the same seeds)."""
    player = state.to_move
    budget = max(1, budget)  # every move examined gets a game, whatever the budget
    all_moves = list(moves)
    if keep is not None and keep not in all_moves:
        all_moves.append(keep)
    cands: list[_Candidate] = []
    for move in all_moves:
        child, points = play(state, move)
        cands.append(_Candidate(move, child, points))
    cands.sort(key=lambda c: -c.points)  # stable: filling moves keep their order
    ended = [c for c in cands if c.child.phase == OVER]
    going = [c for c in cands if c.child.phase != OVER]
    room = max(CANDIDATES, budget // GAMES_PER_MOVE)
    examined = going[:room]
    rest = going[room:]
    if keep is not None:
        kept = [c for c in rest if c.move == keep]
        examined += kept
        rest = [c for c in rest if c.move != keep]
    live = list(examined)
    spent = 0
    rounds = 0
    while live and spent < budget:
        spread = 1 if len(live) <= 2 else len(live).bit_length()
        per = max(1, (budget - spent) // (len(live) * spread))
        seeds = _seeds(rng, per)
        for cand in live:
            games = [float(_final_margin(playout(cand.child, s), player)) for s in seeds]
            cand.results = (cand.results or []) + games
            cand.total += sum(games)
            cand.games += per
        spent += per * len(live)
        rounds += 1
        for cand in live:
            cand.tier = rounds
        if len(live) <= 2:
            break
        live.sort(key=lambda c: -c.mean)
        survivors = live[: (len(live) + 1) // 2]
        survivors += [c for c in live[len(survivors):] if c.move == keep]
        live = survivors
    rated: list[tuple[int, float, bool, Move]] = [
        (rounds, float(_final_margin(c.child, player)), True, c.move) for c in ended]
    rated += [(c.tier, c.mean, False, c.move) for c in examined if c.games]
    rated.sort(key=lambda item: (-item[0], -item[1]))
    out: list[MoveValue] = []
    ceiling = float("inf")
    for _, margin, exact, move in rated:
        value = margin if exact else min(margin, ceiling)
        ceiling = min(ceiling, value)
        out.append(MoveValue(move, _round(value), exact))
    if rest:
        floor = ceiling if out else 0.0
        least = min((c.points for c in examined), default=rest[0].points)
        out += [MoveValue(c.move, _round(floor - max(0, least - c.points)), False) for c in rest]
    return out, {c.move: c.results for c in examined if c.results}


def standard_error(samples: Sequence[float]) -> float:
    """The standard error of the mean of ``samples`` (0 for fewer than two)."""
    n = len(samples)
    if n < 2:
        return 0.0
    mean = sum(samples) / n
    return math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1) / n)


def paired_noise(best: Sequence[float] | None, played: Sequence[float] | None) -> float:
    """The standard error of best minus played, game by game when both were
    played out on the same seeds; a move without games (exact) adds none."""
    if best and played and len(best) == len(played):
        return standard_error([b - p for b, p in zip(best, played, strict=True)])
    return standard_error(played or best or [])


def _exact_ratings(state: State, moves: Sequence[Move], search: Endgame) -> list[MoveValue] | None:
    values = []
    for move in moves:
        value = _exact_after(search, state, play(state, move)[0])
        if value is None:
            return None
        values.append(MoveValue(move, float(value), True))
    values.sort(key=lambda v: -v.margin)
    return values


# --- the API -----------------------------------------------------------------------


def rate_moves(state: State, budget: int, seed: int) -> list[MoveValue]:
    """Every legal move (brushes aside, as ``rules.legal_moves``), best first."""
    if state.phase == OVER:
        raise RuleError("game_over")
    moves = legal_moves(state)
    if endgame_in_reach(state):
        search = Endgame(_solver_budget(budget))
        # The root first: its table then orders and cuts the moves' searches.
        if search.value(state) is not None:
            exact = _exact_ratings(state, moves, search)
            if exact is not None:
                return exact
    return _rollout_ratings(state, moves, budget, random.Random(seed))


def value_of(state: State, move: Move, budget: int, seed: int) -> MoveValue:
    """What ``move`` (legal in ``state``, brush and all) is worth: exact when
    the solver proves it, else the mean of ``budget`` played-out games."""
    if state.phase == OVER:
        raise RuleError("game_over")
    child = play(state, move)[0]
    if child.phase == OVER:
        return MoveValue(move, float(_final_margin(child, state.to_move)), True)
    if _solvable(state, child):
        value = _exact_after(Endgame(_solver_budget(budget)), state, child)
        if value is not None:
            return MoveValue(move, float(value), True)
    seeds = _seeds(random.Random(seed), max(1, budget))
    return MoveValue(move, _round(_mean_margin(child, state.to_move, seeds)), False)


def hint(state: State, budget: int, seed: int) -> MoveValue:
    """The hard engine's move here (``choose_move(state, "hard", seed, budget)``)
    with what it is worth (``value_of`` with the same budget and seed)."""
    move = choose_move(state, "hard", seed, budget)
    return value_of(state, move, budget, seed)


@dataclass(frozen=True)
class Comparison:
    """The hint's move beside the move the player had in mind, both valued the
    same way: proved by the solver, or played out on the very same games."""
    best: MoveValue
    mine: MoveValue
    noise: float
    """The standard error of best minus mine (0 when proved)."""
    games: int
    """Played-out games behind each value (0 when proved)."""
    verdict: str
    """"same" (the hint's move), "worse" (mine gives points away), "equal"
    (within a point either way), or "better": mine did clearly better on the
    same games, which happens because the engine chooses among many moves with
    a few games each and these values come from many more."""


RECHECK = 4
"""When the player's move seems better than the engine's pick, both are played
out again on this many times the budget before the answer says so."""


def _paired(state: State, moves: tuple[Move, Move], games: int, seed: int
            ) -> tuple[list[float], list[float]]:
    player = state.to_move
    seeds = _seeds(random.Random(seed), max(1, games))
    first, second = (
        [float(_final_margin(playout(play(state, move)[0], s), player)) for s in seeds]
        for move in moves)
    return first, second


def compare(state: State, best: Move, mine: Move, budget: int, seed: int) -> Comparison:
    """``best`` (the hint's move) and ``mine`` valued by one evaluation: the
    solver for both, or else the same ``budget`` played-out games for both, and
    ``RECHECK`` times as many when ``mine`` comes out ahead (a verdict that
    says the engine's pick is worse should rest on more than the first games)."""
    if best == mine:
        value = value_of(state, best, budget, seed)
        return Comparison(value, value, 0.0, 0 if value.exact else max(1, budget), "same")
    values = [value_of(state, move, budget, seed) for move in (best, mine)]
    if all(v.exact for v in values):
        diff = values[1].margin - values[0].margin
        verdict = "worse" if diff <= -1 else "better" if diff >= 1 else "equal"
        return Comparison(values[0], values[1], 0.0, 0, verdict)
    games = max(1, budget)
    ours, theirs = _paired(state, (best, mine), games, seed)
    if sum(theirs) > sum(ours):
        games *= RECHECK
        ours, theirs = _paired(state, (best, mine), games, seed + 1)
    noise = paired_noise(ours, theirs)
    margins = [_round(sum(x) / len(x)) for x in (ours, theirs)]
    diff = margins[1] - margins[0]
    if diff > max(1.0, SIGNIFICANCE * noise):
        verdict = "better"
    elif diff < -max(1.0, SIGNIFICANCE * noise):
        verdict = "worse"
    else:
        verdict = "equal"
    return Comparison(MoveValue(best, margins[0], False), MoveValue(mine, margins[1], False),
                      _round(noise), games, verdict)


def _lead(margin: float, band: float = 1.0) -> int:
    """Who is expected to win for player 0's margin: 1, -1, or 0 within ``band``."""
    return 1 if margin >= band else -1 if margin <= -band else 0


def is_turning(loss: float, noise: float, before: float, after: float) -> bool:
    """Whether a ply is a turning point: it gave away at least TURNING_LOSS
    points, or at least FLIP_LOSS and changed who is expected to win (player
    0's expected margin ``before`` and ``after`` it, on either side of a band
    of a point, wider where the estimate is noisier). Either way the loss must
    be at least SIGNIFICANCE standard errors (``noise``, 0 when proved), so the
    luck of the played-out games alone does not make one."""
    if loss <= 0 or loss < SIGNIFICANCE * noise:
        return False
    band = max(1.0, SIGNIFICANCE * noise)
    flips = _lead(after, band) != _lead(before, band)
    return loss >= TURNING_LOSS or (flips and loss >= FLIP_LOSS)


def review(record_text: str, budget: int, seed: int) -> list[PlyReview]:
    """Every ply of a record rated against the best move in its position
    (``review_plies``, all at once)."""
    return list(review_plies(record_text, budget, seed))


def _confirmed(state: State, best: Move, played: Move, games: int,
               rng: random.Random) -> tuple[float, float, float]:
    """Best and played move played out again on the same ``games`` fresh
    games: their mean margins for the player to move, and the noise of the
    difference."""
    player = state.to_move
    seeds = _seeds(rng, max(2, games))
    results: list[list[float] | None] = []
    for move in (best, played):
        child = play(state, move)[0]
        if child.phase == OVER:
            results.append(None)
            continue
        results.append([float(_final_margin(playout(child, s), player)) for s in seeds])
    means = [
        float(_final_margin(play(state, move)[0], player)) if games_of is None
        else sum(games_of) / len(games_of)
        for move, games_of in zip((best, played), results, strict=True)]
    return means[0], means[1], paired_noise(results[0], results[1])


def review_plies(record_text: str, budget: int, seed: int) -> Iterator[PlyReview]:
    """``review`` one ply at a time, for a caller that reports progress.

    Each estimated ply's moves are rated by play-outs (``_rollouts``, the
    played move kept); where the played move seems to give away at least
    FLIP_LOSS, the best and the played move are played out again on fresh
    common games (``_confirmed``) and those figures are the ones reported,
    with their noise. Turning points: ``is_turning``. RecordError if the
    record cannot be read or replayed."""
    replayed = read_record(record_text)
    search = Endgame(0)  # one table for the whole game: later plies reuse it
    before = 0.0
    for ply, move in enumerate(replayed.record.moves):
        state, child = replayed.states[ply], replayed.states[ply + 1]
        player = state.to_move
        best_move: Move = move
        proved = None
        noise = 0.0
        if endgame_in_reach(state):
            search.nodes, search.budget = 0, _solver_budget(budget)
            solved = search.solve(state)
            mine = _exact_after(search, state, child) if solved is not None else None
            if solved is not None and mine is not None:
                proved = (float(solved[0]), float(mine), solved[1])
        if proved is not None:
            best_margin, played_margin, best_move = proved
            exact = True
        else:
            rng = random.Random(f"{seed}:{ply}")
            ratings, games = _rollouts(state, legal_moves(state), budget, rng, keep=move)
            played_value = next(v for v in ratings if v.move == move)
            best_margin, best_move = ratings[0].margin, ratings[0].move
            played_margin = played_value.margin
            exact = ratings[0].exact and played_value.exact
            noise = 0.0 if exact else paired_noise(games.get(best_move), games.get(move))
            if best_move != move and best_margin - played_margin >= FLIP_LOSS and not exact:
                best_margin, played_margin, noise = _confirmed(
                    state, best_move, move, budget // CONFIRM_SHARE,
                    random.Random(f"{seed}:{ply}:confirm"))
                best_margin, played_margin = _round(best_margin), _round(played_margin)
        if played_margin >= best_margin:
            best_margin, best_move = played_margin, move
        loss = _round(best_margin - played_margin)
        after = played_margin if player == 0 else -played_margin
        yield PlyReview(
            ply=ply, player=player, played=format_move(move), best=format_move(best_move),
            played_margin=played_margin, best_margin=best_margin, loss=loss,
            margin_after=after, exact=exact, turning=is_turning(loss, noise, before, after),
            noise=_round(noise))
        before = after


# --- command line ------------------------------------------------------------------

USAGE = """usage: python -m atelier.games.piet.analysis review FILE [--budget N] [--seed S]
       python -m atelier.games.piet.analysis rate FILE [--budget N] [--seed S]
       python -m atelier.games.piet.analysis hint FILE [--budget N] [--seed S]"""


def _options(argv: list[str]) -> tuple[str, int, int] | None:
    if not argv:
        return None
    path, budget, seed = argv[0], DEFAULT_BUDGET, 0
    rest = argv[1:]
    while rest:
        if len(rest) < 2 or rest[0] not in ("--budget", "--seed") or not rest[1].isdigit():
            return None
        if rest[0] == "--budget":
            budget = int(rest[1])
        else:
            seed = int(rest[1])
        rest = rest[2:]
    return path, budget, seed


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    options = _options(args[1:]) if args and args[0] in ("review", "rate", "hint") else None
    if options is None:
        print(USAGE, file=sys.stderr)
        return 2
    path, budget, seed = options
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    started, cpu = time.perf_counter(), time.process_time()
    if args[0] == "review":
        plies: list[PlyReview] = []
        spans: list[float] = []
        for ply in review_plies(text, budget, seed):
            plies.append(ply)
            spans.append(time.perf_counter() - started - sum(spans))
        took, took_cpu = time.perf_counter() - started, time.process_time() - cpu
        for r in plies:
            mark = " turning" if r.turning else ""
            kind = "exact" if r.exact else "est."
            print(f"{r.ply + 1:3} P{r.player + 1} {r.played:14} best {r.best:14} "
                  f"{r.played_margin:+7.2f} / {r.best_margin:+7.2f} loss {r.loss:5.2f} "
                  f"P1 {r.margin_after:+7.2f} {kind}{mark}")
        exact = sum(r.exact for r in plies)
        slowest = max((r.ply for r in plies), key=lambda i: spans[i], default=0)
        print(f"{len(plies)} plies ({exact} exact), budget {budget}: {took:.1f} s "
              f"({took_cpu:.1f} s of CPU), {took / max(1, len(plies)):.2f} s a ply, "
              f"slowest ply {slowest + 1}: {spans[slowest] if spans else 0:.2f} s")
        return 0
    state = read_record(text).final
    if args[0] == "hint":
        value = hint(state, budget, seed)
        print(f"{format_move(value.move)} {value.margin:+.2f}{' exact' if value.exact else ''}")
    else:
        for value in rate_moves(state, budget, seed):
            print(f"{format_move(value.move):14} {value.margin:+7.2f}"
                  f"{' exact' if value.exact else ''}")
    print(f"{time.perf_counter() - started:.2f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__ = ["Comparison", "MoveValue", "PlyReview", "compare", "hint", "is_turning", "rate_moves",
           "review", "review_plies", "value_of"]
