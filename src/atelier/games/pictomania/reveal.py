"""What a finished round shows: the secrets, the verdicts and the scores.

Only for rounds in review or done; the view of a round still being drawn must
never call :func:`round_result`.
"""

from __future__ import annotations

from collections.abc import Mapping

from atelier.games.core import JSON
from atelier.games.pictomania.scoring import Guess, PlayerScore, RoundInput, score_round
from atelier.games.pictomania.settings import edition_of
from atelier.games.pictomania.state import State
from atelier.jsoncheck import as_ints, as_strs

LETTERS = ("A", "B", "C")
SYMBOLS = ("1", "2", "3", "4", "5", "6")


def labels(settings: Mapping[str, JSON]) -> tuple[str, ...]:
    """How the cards on display are named: letters (2nd edition) or symbols (1st)."""
    return LETTERS if settings["edition"] == "second" else SYMBOLS


def is_blank(state: State, drawer: int) -> bool:
    """1st edition: the drawer drew nothing (an empty canvas when the round
    ended), which makes the drawing void without a vote. The 2nd edition has
    no such rule: an empty drawing is simply one nobody can guess."""
    return state.settings["edition"] == "first" and not state.seats[drawer].drawn


def is_void(state: State, drawer: int) -> bool:
    """Void by the drawer's own admission, by a majority of the other players,
    or (1st edition) because nothing was drawn."""
    mine = state.seats[drawer]
    return (
        mine.void_admitted
        or 2 * len(mine.void_votes) > state.players - 1
        or is_blank(state, drawer)
    )


def is_learning_round(state: State) -> bool:
    return bool(state.settings["learning_round"]) and state.round == 1


def letter_of(state: State, seat: int) -> str | None:
    letter = state.seats[seat].letter
    return None if letter is None else labels(state.settings)[letter]


def word_of(state: State, seat: int) -> str:
    mine = state.seats[seat]
    card = state.display[mine.letter if mine.letter is not None else 0]
    words = as_strs(card["words"])
    return words[mine.number - 1]


def round_input(state: State) -> RoundInput:
    return RoundInput(
        players=state.players,
        numbers={p: s.number for p, s in enumerate(state.seats)},
        stacks={p: [Guess(by, n) for by, n in s.stack] for p, s in enumerate(state.seats)},
        black={p: s.black for p, s in enumerate(state.seats) if s.black is not None},
        player_tokens=state.player_tokens,
        void=frozenset(p for p in range(state.players) if is_void(state, p)),
        learning_round=is_learning_round(state),
        edition=edition_of(state.settings),
    )


def cards_json(state: State) -> list[dict[str, JSON]]:
    names = labels(state.settings)
    return [{"label": names[i], **card} for i, card in enumerate(state.display)]


def player_details(score: PlayerScore) -> dict[str, JSON]:
    """One player's round, in the same words as the scorer's output."""
    return {
        "tokens_received": [{"from": src, "value": v} for src, v in score.received],
        "tokens_kept": list(score.kept),
        "black_token": score.black_token,
        "black_token_counted": score.black_counted,
        "wrong_guesses": score.wrong_guesses,
        "guessed": score.guessed,
        "score": score.score,
    }


def round_result(state: State) -> dict[str, JSON]:
    """The full reveal of the round under review (scores provisional until final)."""
    scored = score_round(round_input(state))
    drawings = []
    for p, mine in enumerate(state.seats):
        verdicts = scored.verdicts.get(p, ())
        drawings.append(
            {
                "seat": p,
                "letter": letter_of(state, p),
                "number": mine.number,
                "word": word_of(state, p),
                "void": is_void(state, p),
                "blank": is_blank(state, p),
                "void_admitted": mine.void_admitted,
                "void_votes": list(mine.void_votes),
                "guesses": [
                    {"by": by, "number": n, "correct": verdicts[i]}
                    for i, (by, n) in enumerate(mine.stack)
                ],
            }
        )
    return {
        "round": state.round,
        "level": as_ints(state.settings["levels"])[state.round - 1],
        "learning_round": is_learning_round(state),
        "ended_by": state.ended_by,
        "cards": cards_json(state),
        "drawings": drawings,
        "black_sheep": scored.black_sheep,
        # "total": the running total with this round (state.totals are the rounds before)
        "players": [{"seat": p, **player_details(s), "total": state.totals[p] + s.score}
                    for p, s in enumerate(scored.players)],
        "final": False,
    }
