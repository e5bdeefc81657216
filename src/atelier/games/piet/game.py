"""Piet for the server: the ``Game``/``BotGame`` adapter over the pure rules.

Seat 0 is player 1 (who moves first) and seat 1 is player 2. Piet has no
hidden information, so every seat and every spectator gets the same view.
A game's JSON form is its settings and its moves in notation; loading
replays them, so a stored game can never disagree with the rules.

The setting ``record`` (record text) starts a game part-way: its headers set
``setup`` and ``brushes`` and ``new()`` replays its moves, so any room can go
on from a loaded record. It is stored canonically (no comments), which keeps
validating it idempotent.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from pydantic import Field

from atelier.errors import RuleError, require
from atelier.games.actions import Action, ActionSchema, System
from atelier.games.core import JSON, SYSTEM, Advice
from atelier.games.piet import coach, ending
from atelier.games.piet.ai import COMPUTER_LEVELS, choose_move
from atelier.games.piet.board import COLOURS, Masks, colour_at
from atelier.games.piet.notation import (
    Record,
    RecordError,
    Replayed,
    format_move,
    parse_move,
    read_record,
)
from atelier.games.piet.rules import OVER, Move, State, legal_moves, new_game, play, winner
from atelier.games.settings import SettingsModel, checked, defaults
from atelier.i18n import translate
from atelier.jsoncheck import as_int, as_list, as_object, as_strs

MAX_RECORD_CHARS = 8000
"""A whole game with comments fits many times over; settings travel in every
state message, so they stay small."""


class RecordSettingError(RuleError):
    """The ``record`` setting cannot be read or replayed: ``piet.bad_record``
    with the line and the reason. The reason is translated along with the
    message; ``params`` carry it as its own code and params too, so a client
    can translate it as well."""

    def __init__(self, error: RecordError) -> None:
        inner = error.error
        super().__init__("piet.bad_record", line=error.line, reason=inner.message("en"),
                         reason_code=inner.code, reason_params=dict(inner.params))
        self.inner = inner

    def message(self, lang: str = "en") -> str:
        return translate("error.piet.bad_record", lang, line=self.params["line"],
                         reason=self.inner.message(lang))


def read_record_setting(text: JSON) -> Replayed:
    """The ``record`` setting read and replayed; RuleError if it cannot start a game."""
    if not isinstance(text, str):
        raise RuleError("bad_settings", field="record")
    require(len(text) <= MAX_RECORD_CHARS, "piet.record_too_long", max=MAX_RECORD_CHARS)
    try:
        replayed = read_record(text)
    except RecordError as error:
        raise RecordSettingError(error) from error
    require(replayed.final.phase != OVER, "piet.record_finished")
    return replayed


@dataclass(frozen=True)
class PietState:
    settings: dict[str, JSON]
    seats: tuple[str, ...]
    seed: int
    board: State
    moves: tuple[Move, ...] = ()
    points: tuple[int, ...] = ()
    loaded: int = 0
    """How many of ``moves`` came from the ``record`` setting."""
    movers: tuple[int, ...] = ()
    """Who made each of ``moves`` (a brush gives a player two turns running), kept
    so that a view does not replay the game to say it."""
    hinted: tuple[int, ...] = ()
    """Plies (indices into ``moves``) whose player asked for a hint first."""
    turn_started: float = 0.0
    """When the player to move began their turn (the server's clock; 0: the clock
    has not started). A correspondence game's deadline counts from here."""
    ended: ending.Ending | None = None
    """A game ended before its canvases were full: who lost, and how."""


def _cells(masks: Masks, count: int) -> list[str | None]:
    return [COLOURS[c] if (c := colour_at(masks, i)) >= 0 else None for i in range(count)]


ACTIONS = ActionSchema()


@ACTIONS.action
class MoveAction(Action):
    """A move in the notation of docs/piet.md (``legal_moves`` lists them)."""

    type: Literal["move"] = "move"
    move: Annotated[str, Field(max_length=64)]


@ACTIONS.action
class ResignAction(Action):
    """A player gives the game up, at any time, whoever is to move."""

    type: Literal["resign"] = "resign"


ACTIONS.action(System)  # "timeout": a correspondence game's move time ran out


@ACTIONS.action
class HintAction(Action):
    """The player to move asks the engine for a hint: logged, so the record says
    which moves were hinted; the hint itself comes from the analysis service."""

    type: Literal["hint"] = "hint"


class Settings(SettingsModel):
    """Each field's type and default; docs/piet.md says what they mean."""

    setup: Literal["beginner", "empty"] = "beginner"
    brushes: bool = False
    opponent: Literal["easy", "medium", "hard"] | None = None
    """The computer's level; None: two people play."""
    computer_seat: Annotated[int, Field(ge=0, le=1)] = 1
    """The seat the computer takes."""
    record: str | None = None
    """A record to start from (its own checks: ``read_record_setting``)."""
    hints: bool = False
    """Hints between two people: set at the start, on only if both agreed in the
    lobby (``PietGame.agreements``); a game against the computer always allows them."""
    move_days: Literal[1, 3, 7] | None = None
    """Correspondence play: days each player has for a move; None: a live game."""


def hints_allowed(settings: Mapping[str, JSON]) -> bool:
    return settings.get("opponent") in COMPUTER_LEVELS or settings.get("hints") is True


def hinted_record(record: str, hinted: Sequence[int]) -> str:
    """The record with a comment line before each move played after a hint."""
    if not hinted:
        return record
    lines = record.splitlines()
    moves_from = next((i for i, line in enumerate(lines) if ":" not in line), len(lines))
    for ply in sorted(set(hinted), reverse=True):
        lines.insert(min(moves_from + ply, len(lines)), HINT_COMMENT)
    return "\n".join(lines) + "\n"


HINT_COMMENT = "# hint"


def position_key(board: State) -> str:
    """A position as one string: the same board, scores, brushes and player to move."""
    drawn = coach.position(board)
    return "|".join([str(drawn["palette"]), *as_strs(drawn["canvases"]),
                     ",".join(map(str, board.scores)), ",".join(map(str, board.brushes)),
                     str(board.brushes_on), str(board.to_move), str(board.phase)])


class PietGame:
    name = "piet"
    actions = ACTIONS
    min_seats = 2
    max_seats = 2
    settings_model = Settings
    # each player's own say, not the host's: hints between two people only if both agreed
    agreements: tuple[str, ...] = ("hints",)

    def default_settings(self) -> dict[str, JSON]:
        return defaults(Settings)

    def validate_settings(self, settings: Mapping[str, JSON], seats: int) -> dict[str, JSON]:
        require(seats == 2, "seat_count_exact", count=2)
        full = checked(Settings, settings)
        ending.move_seconds(full["move_days"])  # a Literal[1, ...] takes True as 1
        record = full["record"]
        if isinstance(record, str) and not record.strip():
            full["record"] = None  # an empty record is no record: the way to remove one
        elif record is not None:
            loaded = read_record_setting(record).record
            full["setup"], full["brushes"] = loaded.setup, loaded.brushes
            full["record"] = loaded.text()
        return full

    def public_settings(self, settings: Mapping[str, JSON]) -> dict[str, JSON]:
        """All of them: Piet has no hidden information (a loaded record is the
        game's own past moves)."""
        return dict(settings)

    def new(self, settings: Mapping[str, JSON], seats: Sequence[str], seed: int) -> PietState:
        full = self.validate_settings(settings, len(seats))
        if full["record"] is None:
            board = new_game(str(full["setup"]), bool(full["brushes"]))
            return PietState(full, tuple(seats), seed, board)
        replayed = read_record_setting(full["record"])
        moves = tuple(replayed.record.moves)
        movers = tuple(before.to_move for before in replayed.states[:-1])
        return PietState(full, tuple(seats), seed, replayed.final, moves,
                         tuple(replayed.points), len(moves), movers)

    def apply(self, state: PietState, seat: int, action: Action, now: float) -> PietState:
        require(isinstance(action, (MoveAction, HintAction, ResignAction, System)),
                "bad_action")
        require(not self.is_over(state), "game_over")
        if isinstance(action, System):
            require(seat == SYSTEM and action.type == "timeout", "bad_action")
            return replace(state, ended=ending.on_time(state.board.to_move, self.deadline(state),
                                                       now))
        require(seat in (0, 1), "not_a_player")
        if isinstance(action, ResignAction):
            return replace(state, ended=ending.resigned(seat))
        require(seat == state.board.to_move, "not_your_turn")
        match action:
            case HintAction():
                require(hints_allowed(state.settings), "piet.hints_off")
                ply = len(state.moves)
                return state if ply in state.hinted else replace(state, hinted=(*state.hinted, ply))
            case MoveAction(move=text):
                move = parse_move(text)
                board, points = play(state.board, move)
                # the clock of whoever moves next starts now, even after a brush gives
                # the same player a second move: every move has the same time
                return replace(state, board=board, moves=(*state.moves, move),
                               points=(*state.points, points), movers=(*state.movers, seat),
                               turn_started=now)
        raise RuleError("bad_action")

    def start_clock(self, state: PietState, now: float) -> PietState:
        """The game begins now: the first player's time runs from here."""
        return replace(state, turn_started=now)

    def seat_to_move(self, state: PietState) -> int | None:
        return None if self.is_over(state) else state.board.to_move

    def moves_made(self, state: PietState) -> int:
        return len(state.moves)

    def move_seconds(self, settings: Mapping[str, JSON]) -> float | None:
        return ending.move_seconds(settings.get("move_days"))

    def final_winners(self, state: PietState) -> list[int]:
        """Who won: the opponent of a player who resigned or ran out of time,
        whatever the scores; otherwise the rules' winner (both on a draw)."""
        if state.ended is not None:
            return [1 - state.ended.loser]
        won = winner(state.board)
        return [0, 1] if won is None or won < 0 else [won]

    quick_settings: Mapping[str, JSON] = {}

    def ends_part(self, action: Action) -> bool:
        return isinstance(action, MoveAction)  # every move ends the mover's turn

    def legal_actions(self, state: PietState, seat: int) -> list[Action]:
        board = state.board
        if self.is_over(state) or seat != board.to_move:
            return []
        return [MoveAction(move=format_move(m)) for m in legal_moves(board)]

    def view(self, state: PietState, seat: int | None) -> dict[str, JSON]:
        board = state.board
        over = self.is_over(state)
        won = winner(board) if state.ended is None else 1 - state.ended.loser
        players = []
        computers = self.computer_seats(state.settings)
        for index in (0, 1):
            players.append({
                "seat": index,
                "name": state.seats[index] if index < len(state.seats) else "",
                "score": board.scores[index],
                "brushes": board.brushes[index],
                "computer": computers.get(index),
            })
        history: list[JSON] = [{"seat": mover, "move": format_move(move), "points": points}
                   for move, points, mover in zip(state.moves, state.points, state.movers,
                                                  strict=True)]
        return {
            "game": self.name,
            "you": seat,
            "settings": dict(state.settings),
            "players": players,
            "palette": _cells(board.palette, 9),
            "canvases": [_cells(board.canvases[0], 16), _cells(board.canvases[1], 16)],
            "scores": list(board.scores),
            "brushes": list(board.brushes),
            "brushes_on": board.brushes_on,
            # a game ended early is over whatever phase its board was in
            "phase": OVER if over else board.phase,
            "to_move": None if over else board.to_move,
            "legal_moves": [] if over else sorted(format_move(m, brush=False)
                                                  for m in legal_moves(board)),
            "clock": None if over or self.deadline(state) is None else {
                "deadline": self.deadline(state), "move_days": state.settings.get("move_days"),
            },
            "moves": history,
            "loaded_moves": state.loaded,
            "record": hinted_record(self._record(state), state.hinted)
                      + ("" if state.ended is None else state.ended.comment() + "\n"),
            "hints": hints_allowed(state.settings),
            "hinted": list(state.hinted),
            "result": None if not over else {
                "winner": None if won is None or won < 0 else won,
                "draw": won == -1,
                "finisher": board.finisher if board.finisher >= 0 else None,
                "by": None if state.ended is None else state.ended.how,
            },
        }

    def deadline(self, state: PietState) -> float | None:
        seconds = self.move_seconds(state.settings)
        if seconds is None or state.turn_started <= 0 or self.is_over(state):
            return None
        return state.turn_started + seconds

    def final_scores(self, state: PietState) -> list[int]:
        return list(state.board.scores)

    def is_over(self, state: PietState) -> bool:
        return state.board.phase == OVER or state.ended is not None

    def dump(self, state: PietState) -> dict[str, JSON]:
        # The record's moves are in the settings; "moves" are those played since.
        return {
            "settings": dict(state.settings),
            "seats": list(state.seats),
            "seed": state.seed,
            "moves": [format_move(m) for m in state.moves[state.loaded:]],
            "turn_started": state.turn_started,
            "ended": None if state.ended is None else state.ended.dump(),
        }

    def load(self, data: Mapping[str, JSON]) -> PietState:
        state = self.new(as_object(data["settings"]), as_strs(data["seats"]), as_int(data["seed"]))
        for text in as_list(data["moves"]):
            state = self.apply(state, state.board.to_move, MoveAction(move=str(text)), 0.0)
        # keys absent from states dumped before correspondence play: a live game
        started = data.get("turn_started", 0.0)
        ended = data.get("ended")
        return replace(state, turn_started=float(started) if isinstance(started, int | float)
                       else 0.0, ended=None if ended is None else ending.Ending.load(ended))

    # --- the engine's advice (run by the server's analysis pool) -----------------

    def advice(self, state: PietState, kind: str, params: Mapping[str, str]) -> Advice:
        record = self._record(state)
        if kind == "hint":
            # only for the position whose player asked (and was allowed) to be hinted
            require(state.board.phase != OVER and len(state.moves) in state.hinted,
                    "piet.hint_not_asked")
            against = params.get("against") or None
            if against is not None:
                move = parse_move(against)
                play(state.board, move)  # the rules' own refusal if it is not legal here
                against = format_move(move)
            return Advice(f"hint|{against}|{record}", coach.hint_job, (record, against))
        require(kind == "review", "bad_request")
        require(self.is_over(state), "piet.review_not_over")
        return Advice(f"review|{record}", coach.review_job, (record,))

    def record_advice(self, kind: str, record: str, params: Mapping[str, str],
                      guarded: Collection[str] = ()) -> Advice:
        if kind == "puzzles":
            return Advice("puzzles", coach.puzzles_job, ())
        require(kind in ("review", "try", "answer"), "bad_request")
        require(len(record) <= MAX_RECORD_CHARS, "piet.record_too_long", max=MAX_RECORD_CHARS)
        try:
            replayed = read_record(record)
        except RecordError as error:
            raise RecordSettingError(error) from error
        text = replayed.record.text()
        if kind == "review":
            # A review names the best move of every position it passes: an
            # unfinished record would be advice on a game still being played, and
            # so would a finished one passing a live game's position (its record
            # played on to the end) where the players did not agree to hints.
            require(replayed.final.phase == OVER, "piet.review_not_over")
            require(not guarded or all(position_key(s) not in guarded for s in replayed.states),
                    "piet.review_live_game")
            return Advice(f"review|{text}", coach.review_job, (text,))
        puzzle = next((p for p in coach.puzzles() if p["record"] == text), None)
        require(puzzle is not None, "piet.no_puzzle")
        assert puzzle is not None
        if kind == "answer":
            return Advice(f"answer|{text}", coach.answer_job,
                          (puzzle["answer"], puzzle["margin"]))
        tried = parse_move(params.get("move", ""))
        play(read_record(text).final, tried)  # the rules' own refusal if it is not legal
        move = format_move(tried)
        return Advice(f"try|{move}|{text}", coach.try_job,
                      (text, move, puzzle["answer"], puzzle["margin"]))

    def guarded_position(self, state: PietState) -> str | None:
        """The live position no advice may reach (a game between people who did
        not agree to hints), as :func:`position_key`; None when advice is allowed.
        The opening position is every game's (any review passes it), so it
        is nobody's to guard: a game is guarded from its first move on."""
        if state.board.phase == OVER or hints_allowed(state.settings) or not state.moves:
            return None
        return position_key(state.board)

    @staticmethod
    def _record(state: PietState) -> str:
        return Record(str(state.settings["setup"]), bool(state.settings["brushes"]),
                      list(state.moves)).text()

    # --- computer players ---------------------------------------------------------

    def computer_seats(self, settings: Mapping[str, JSON]) -> dict[int, str]:
        level = settings.get("opponent")
        if level not in COMPUTER_LEVELS:
            return {}
        seat = settings.get("computer_seat", 1)
        return {int(seat) if seat in (0, 1) else 1: str(level)}

    def bot_to_act(self, state: PietState, seat: int) -> bool:
        board = state.board
        return (seat in self.computer_seats(state.settings) and not self.is_over(state)
                and board.to_move == seat)

    def bot_action(self, state: PietState, seat: int) -> Action | None:
        if not self.bot_to_act(state, seat):
            return None
        board = state.board
        level = str(state.settings["opponent"])
        move = choose_move(board, level, self.bot_seed(state))
        return MoveAction(move=format_move(move))

    @staticmethod
    def bot_seed(state: PietState) -> int:
        """The computer's seed for this position: fixed by the game and its length,
        so a replayed game gets the same answers."""
        return (state.seed * 1_000_003 + len(state.moves) * 7919) & 0xFFFFFFFF

    def choose_move(self, state: PietState, level: str, seed: int) -> MoveAction:
        """The action ``level`` takes for the player to move."""
        if level not in COMPUTER_LEVELS:
            raise RuleError("piet.bad_level", level=level)
        return MoveAction(move=format_move(choose_move(state.board, level, seed)))


GAME = PietGame()

__all__ = ["GAME", "PietGame", "PietState"]

