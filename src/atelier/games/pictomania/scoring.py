"""Scoring one Pictomania round: pure, shared by the engine and the scorer CLI.

Players are indices 0..n-1. The input is assumed legal (the engine enforces the
rules as actions arrive; the scorer CLI validates its JSON first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Counted = Literal["+", "-", "0"]
Edition = Literal["first", "second"]


@dataclass(frozen=True)
class Guess:
    by: int
    number: int


@dataclass(frozen=True)
class RoundInput:
    players: int
    numbers: Mapping[int, int]
    """Each drawer's secret number; a drawer absent here has an empty stack."""
    stacks: Mapping[int, Sequence[Guess]]
    """Guesses on each drawer, in the order they were placed."""
    black: Mapping[int, int]
    """The value of the black token each player took; absent: took none."""
    player_tokens: Sequence[int]
    void: frozenset[int] = field(default_factory=frozenset)
    learning_round: bool = False
    edition: Edition = "second"
    """Decides a void drawer's black token: 2nd edition it goes back to the
    centre (0, even for the black sheep), 1st edition it still counts negative
    for the black sheep."""


@dataclass(frozen=True)
class PlayerScore:
    received: tuple[tuple[int, int], ...]
    """(from whom, stars) for each token received, in scoring order."""
    kept: tuple[int, ...]
    """Own tokens nobody earned; they count negative."""
    black_token: int | None
    black_counted: Counted | None
    wrong_guesses: int
    guessed: bool
    """At least one correct guess on this player's (non-void) drawing."""
    score: int


@dataclass(frozen=True)
class RoundScore:
    players: tuple[PlayerScore, ...]
    black_sheep: int | None
    verdicts: Mapping[int, tuple[bool | None, ...]]
    """Per drawer, per guess in stack order: correct, wrong, or None (returned: void)."""


def score_round(data: RoundInput) -> RoundScore:
    n = data.players
    tokens = sorted(data.player_tokens, reverse=True)
    received: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    kept: list[tuple[int, ...]] = [tuple(tokens) for _ in range(n)]
    wrong = [0] * n
    guessed = [False] * n
    verdicts: dict[int, tuple[bool | None, ...]] = {}

    for drawer in range(n):
        stack = data.stacks.get(drawer, ())
        if drawer in data.void:
            # Guesses are handed back: neither correct nor wrong.
            verdicts[drawer] = tuple(None for _ in stack)
            continue
        remaining = list(tokens)
        marks: list[bool | None] = []
        for guess in stack:
            correct = guess.number == data.numbers.get(drawer)
            marks.append(correct)
            if correct:
                guessed[drawer] = True
                if remaining:  # the first correct guesser gets the highest token left
                    received[guess.by].append((drawer, remaining.pop(0)))
            else:
                wrong[guess.by] += 1
        verdicts[drawer] = tuple(marks)
        kept[drawer] = tuple(remaining)

    sheep = None if data.learning_round else black_sheep(wrong)
    results: list[PlayerScore] = []
    for player in range(n):
        black = data.black.get(player)
        counted = _black_counted(
            black,
            player == sheep,
            player in data.void,
            guessed[player],
            data.learning_round,
            data.edition,
        )
        score = sum(v for _, v in received[player]) - sum(kept[player])
        if black is not None and counted == "+":
            score += black
        elif black is not None and counted == "-":
            score -= black
        results.append(
            PlayerScore(
                received=tuple(received[player]),
                kept=kept[player],
                black_token=black,
                black_counted=counted,
                wrong_guesses=wrong[player],
                guessed=guessed[player],
                score=score,
            )
        )
    return RoundScore(tuple(results), sheep, verdicts)


def black_sheep(wrong: Sequence[int]) -> int | None:
    """The one player with strictly more wrong guesses than everyone else."""
    if not wrong:
        return None
    most = max(wrong)
    leaders = [p for p, count in enumerate(wrong) if count == most]
    return leaders[0] if most > 0 and len(leaders) == 1 else None


def _black_counted(
    black: int | None,
    is_sheep: bool,
    is_void: bool,
    guessed: bool,
    learning: bool,
    edition: Edition,
) -> Counted | None:
    if black is None:
        return None
    if is_void and edition == "second":
        # "You return your black token to the center": it counts 0, even for
        # the black sheep.
        return "0"
    if is_sheep:
        return "-"
    if is_void:
        # 1st edition: no plus points for a void drawing, "aber immer noch
        # Minuspunkte" (above); never positive, not even in the learning round.
        return "0"
    if learning or guessed:
        return "+"
    return "0"


def totals(round_scores: Sequence[Sequence[int]], players: int) -> list[int]:
    return [sum(scores[p] for scores in round_scores) for p in range(players)]
