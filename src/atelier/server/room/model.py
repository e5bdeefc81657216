"""A room as data, rebuilt from its log: the one place room events take effect.

Live changes and replays after a restart go through :meth:`RoomModel.apply_event`,
so what a client saw is exactly what a restart rebuilds. Deciding whether a
request is allowed happens in ``decide_*`` functions that raise ``RuleError``
and return the event to log; nothing here does I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from atelier.errors import require
from atelier.games.actions import Action, Remove, Skip, System, as_json
from atelier.games.core import (
    JSON,
    SYSTEM,
    BotGame,
    CorrespondenceGame,
    DealingGame,
    DrawingGame,
    Game,
    RemovableSeats,
    ScoredGame,
    agreements,
    result_winners,
)
from atelier.server.room import events
from atelier.server.room.events import LogEvent

if TYPE_CHECKING:
    from atelier.store import EventRow

COLOUR_HEX: dict[str, str] = {
    # the players' colours, in the order the lobby offers them: the one list, sent
    # to every client in ``welcome`` and used for the drawings' PNGs and replays.
    # Yellow is a dark yellow: #fdd835 was too pale on a white canvas.
    "red": "#e53935",
    "blue": "#1e88e5",
    "green": "#43a047",
    "yellow": "#f2c200",
    "purple": "#8e24aa",
    "orange": "#fb8c00",
}
COLOURS: tuple[str, ...] = tuple(COLOUR_HEX)
NAME_MAX = 20


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def computer_name(level: str) -> str:
    """A computer player's name for clients that do not translate its level
    (bots, the command line); the web client names it in the reader's language."""
    return f"Computer ({level})"


def computer_level(logged: str) -> str:
    """The level a ``started`` event logged for a computer seat: the level
    itself, or, in logs written before levels were data, its English name
    ("Computer (hard)")."""
    if logged.endswith(")") and "(" in logged:
        return logged[logged.rindex("(") + 1:-1]
    return logged


@dataclass
class Player:
    id: str
    name: str
    colour: str
    token_hash: str = ""
    seat: int | None = None
    computer: str | None = None
    """A computer player's level (the game's word for it, such as ``"hard"``);
    None for a person."""
    removed: bool = False  # left or removed during this game: the seat stays, nobody plays it
    out_by: str | None = None  # who ended their part in this game: "self" or "host"
    # The game's agreements (core.AgreementsGame) this player gave in the lobby.
    agreed: set[str] = field(default_factory=set)
    # A one-time token (hash) that moves this seat to another device, if offered.
    transfer_hash: str | None = None


@dataclass
class RoomModel:
    code: str
    game: Game[Any]
    settings: dict[str, JSON]
    seed: int
    language: str
    created: float
    players: list[Player] = field(default_factory=list)
    host: str | None = None
    phase: str = "lobby"
    seats: list[str] = field(default_factory=list)
    computers: dict[int, Player] = field(default_factory=dict)
    state: Any = None
    seq: int = 1
    joined_count: int = 0
    # The creator's host credential (hash): whoever joins with it becomes host,
    # even if a friend sat down first; it works once. While the creator is in
    # the room unseated, a friend who sits down is not host (decide_join).
    host_key_hash: str | None = None
    games_started: int = 0
    # Players gone during the current game (left or removed): their seats stay.
    gone: dict[str, Player] = field(default_factory=dict)
    # Every finished game in this room, for the running totals (see _record_result).
    played: list[dict[str, JSON]] = field(default_factory=list)
    # What the room's games have dealt (opaque ids): the next game avoids them.
    dealt: list[str] = field(default_factory=list)
    past_drawings: set[str] = field(default_factory=set)
    """Ink keys of the room's finished games' drawings (the game said which)."""

    # -- reading -------------------------------------------------------------

    def player(self, player_id: str | None) -> Player | None:
        if player_id is None:
            return None
        for p in self.players:
            if p.id == player_id:
                return p
        return None

    def player_by_token(self, token: str) -> Player | None:
        """Constant-time comparison against every player's stored hash."""
        digest = hash_token(token)
        found: Player | None = None
        for p in self.players:
            if p.token_hash and hmac.compare_digest(p.token_hash, digest):
                found = p
        return found

    def taken_out_by_token(self, token: str) -> Player | None:
        """The player of this game the host took out, whose token this is."""
        digest = hash_token(token)
        found: Player | None = None
        for p in self.gone.values():
            if p.out_by == "host" and p.token_hash and hmac.compare_digest(p.token_hash, digest):
                found = p
        return found

    def seat_of(self, player_id: str | None) -> int | None:
        p = self.player(player_id)
        return None if p is None else p.seat

    def lobby_computers(self) -> dict[int, str]:
        game = self.game
        return game.computer_seats(self.settings) if isinstance(game, BotGame) else {}

    def all_players(self) -> list[Player]:
        """Humans and computers; seated order once the game runs."""
        if self.phase == "lobby":
            bots = [
                Player(f"c{seat}", computer_name(level), "", computer=level)
                for seat, level in sorted(self.lobby_computers().items())
            ]
            return self.players + bots
        by_id = {p.id: p for p in self.gone.values()}
        by_id.update({p.id: p for p in self.players})
        by_id.update({p.id: p for p in self.computers.values()})
        return [by_id[pid] for pid in self.seats if pid in by_id]

    @property
    def ink_prefix(self) -> str:
        """Ink keys of a room's later games start with this, so game 2's
        round 1 is not game 1's (the first game keeps plain keys)."""
        return "" if self.games_started <= 1 else f"g{self.games_started}-"

    def game_seed(self) -> int:
        """The seed of the next game: the room's own for the first, then one
        derived from it per game, so a second game shuffles differently."""
        if self.games_started == 0:
            return self.seed
        return random.Random(f"{self.seed}:{self.games_started}").getrandbits(63)

    def drawing_keys(self) -> set[str]:
        """Ink keys of every drawing this room has had: its finished games' and
        the current game's so far (each names a drawing of every seat)."""
        keys = set(self.past_drawings)
        if isinstance(self.game, DrawingGame) and self.state is not None:
            keys.update(self.ink_prefix + key for key in self.game.drawing_keys(self.state))
        return keys

    def _record_result(self) -> None:
        """A finished game's points per player, kept for the running totals."""
        if not isinstance(self.game, ScoredGame):
            return
        scores = self.game.final_scores(self.state)
        best = set(result_winners(self.game, self.state, scores))
        by_seat = {p.seat: p for p in self.all_players()}
        self.played.append({"players": [
            {"id": by_seat[seat].id, "name": by_seat[seat].name,
             "colour": by_seat[seat].colour, "score": score, "won": seat in best}
            for seat, score in enumerate(scores) if seat in by_seat
        ]})

    # -- the one place events take effect -------------------------------------

    def apply_event(self, seq: int, kind: str, data: dict[str, JSON]) -> LogEvent | None:
        """Apply logged event ``seq`` as the log keeps it (a restart, another
        process's event) and return it parsed; a kind this release does not know
        changes nothing."""
        event = events.parse(kind, data)
        if event is None:
            self.seq = seq
        else:
            self.apply(seq, event)
        return event

    def apply(self, seq: int, event: events.LogEvent, state: object = None) -> None:
        """Apply event ``seq``. ``state``: the next game state when the caller has
        just computed it (so live play does not apply twice)."""
        match event:
            case events.Joined() as e:
                self.players.append(Player(e.player, e.name, e.colour, e.token_hash))
                self.joined_count += 1
                if e.host:
                    self.host = e.player
                    self.host_key_hash = None
                elif self.host is None and e.host is not False:
                    # "host": false: the creator was there, about to sit down
                    self.host = e.player
            case events.Left() as e:
                gone = self.player(e.player)
                if gone is not None and self.phase != "lobby" and gone.seat is not None:
                    gone.removed = True
                    self.gone[gone.id] = gone
                self._drop(e.player)
            case events.Renamed() as e:
                p = self.player(e.player)
                if p is not None:
                    p.name = e.name
            case events.HostChanged() as e:
                self.host = e.player
            case events.SettingsChanged() as e:
                self.settings = e.settings
            case events.Started() as e:
                self._start(e)
            case events.Acted() as e:
                if state is None:
                    action = self.game.actions.parse(e.action)
                    state = self.game.apply(self.state, e.seat, action, e.now)
                self._set_state(state)
            case events.Removed() as e:
                # A player out of a running game: the seat stays (the game treats
                # it as done from now on); the person may watch.
                if state is None:
                    state = self.game.apply(self.state, SYSTEM, Remove(seat=e.seat), e.now)
                gone = self.player(e.player)
                if gone is not None:
                    gone.removed = True
                    gone.out_by = e.by
                    self.gone[gone.id] = gone
                self._drop(e.player)
                self._set_state(state)
            case events.Agreed() as e:
                p = self.player(e.player)
                if p is not None:
                    if e.on:
                        p.agreed.add(e.name)
                    else:
                        p.agreed.discard(e.name)
            case events.TransferOffered() as e:
                p = self.player(e.player)
                if p is not None:
                    p.transfer_hash = e.transfer_hash
            case events.SeatMoved() as e:
                p = self.player(e.player)
                if p is not None:
                    p.token_hash = e.token_hash
                    p.transfer_hash = None
            case events.Again() as e:
                if isinstance(self.game, DrawingGame) and self.state is not None:
                    # the finished game's drawings stay served under their keys
                    keys = self.game.drawing_keys(self.state)
                    self.past_drawings.update(self.ink_prefix + key for key in keys)
                self.phase = "lobby"
                self.state = None
                self.seats = []
                self.computers = {}
                self.gone = {}
                for p in self.players:
                    p.seat = None
                    # Consent is to one game: the next starts without it until given again.
                    p.agreed = set()
                self.dealt = list(e.dealt)
        self.seq = seq

    def _drop(self, player_id: str) -> None:
        """The player is out of the room; the host role passes on if it was theirs."""
        self.players = [p for p in self.players if p.id != player_id]
        if self.host == player_id:
            self.host = self.players[0].id if self.players else None

    def _start(self, e: events.Started) -> None:
        self.settings = e.settings
        self.games_started += 1
        self.seats = list(e.seats)
        self.computers = {
            int(seat): Player(f"c{seat}", computer_name(level), "", seat=int(seat),
                              computer=level)
            for seat, level in ((s, computer_level(v)) for s, v in e.computers.items())
        }
        for seat, pid in enumerate(self.seats):
            p = self.player(pid)
            if p is not None:
                p.seat = seat
        if e.initial is not None:
            self.state = self.game.load(e.initial)
        else:  # logged before the first state was kept
            names = [p.name for p in self.all_players()]
            self.state = self.game.new(self.settings, names, self.seed)
        self.phase = "playing"
        if self.game.is_over(self.state):
            self.phase = "over"
            self._record_result()

    def _set_state(self, state: object) -> None:
        """The game's next state; on the move that ends it, the room's game is over."""
        self.state = state
        if self.game.is_over(state) and self.phase != "over":
            self.phase = "over"
            self._record_result()


def new_model(code: str, game: Game[Any], created: dict[str, JSON], at: float) -> RoomModel:
    first = events.Created.model_validate(created)
    return RoomModel(
        code=code,
        game=game,
        settings=first.settings,
        seed=first.seed,
        language=first.language,
        created=at,
        host_key_hash=first.host_key_hash,
    )


def replay_log(code: str, game: Game[Any], rows: Sequence[EventRow]) -> RoomModel:
    """The room rebuilt from its whole log, ``events[0]`` being its "created":
    how a restarted server resumes a room (and how the tests replay a game)."""
    first = rows[0]
    model = new_model(code, game, first.data, first.at)
    for row in rows[1:]:
        model.apply_event(row.seq, row.kind, row.data)
    return model


# -- deciding: each returns the event to log, or raises RuleError --------------


def clean_name(name: str) -> str:
    name = unicodedata.normalize("NFC", name).strip()
    require(1 <= len(name) <= NAME_MAX, "name_invalid", max=NAME_MAX)
    require(
        all(unicodedata.category(ch)[0] != "C" for ch in name), "name_invalid", max=NAME_MAX
    )
    return name


def _require_lobby(room: RoomModel) -> None:
    require(room.phase == "lobby", "game_started")


def _require_host(room: RoomModel, player_id: str | None) -> None:
    require(player_id is not None and room.host == player_id, "not_host")


def host_key_matches(room: RoomModel, host_key: str | None) -> bool:
    if not host_key or not room.host_key_hash:
        return False
    return hmac.compare_digest(room.host_key_hash, hash_token(host_key))


def decide_join(room: RoomModel, name: str, colour: str, token_hash: str,
                host_key: str | None = None, creator_waits: bool = False) -> LogEvent:
    """A player sits down. With the host key, as host. Without it, as host if
    the room has none, unless the room's creator (who holds the key) is in the
    room and has not sat down yet: the host role waits for them."""
    _require_lobby(room)
    name = clean_name(name)
    require(colour in COLOURS, "colour_invalid")
    require(all(p.name.casefold() != name.casefold() for p in room.players), "name_taken")
    require(all(p.colour != colour for p in room.players), "colour_taken")
    humans_max = room.game.max_seats - len(room.lobby_computers())
    require(len(room.players) < min(humans_max, len(COLOURS)), "room_full")
    player_id = f"p{room.joined_count + 1}"
    if host_key_matches(room, host_key):
        host: bool | None = True
    elif room.host is None and creator_waits and room.host_key_hash is not None:
        host = False
    else:  # no "host" key: host if the room has none
        return events.Joined(player=player_id, name=name, colour=colour,
                             token_hash=token_hash)
    return events.Joined(player=player_id, name=name, colour=colour, token_hash=token_hash,
                         host=host)


def decide_unclaimed_host(room: RoomModel) -> LogEvent:
    """The creator left without sitting down: the first player seated becomes
    host (the creator's key still makes them host if they come back to sit)."""
    require(room.host is None and bool(room.players), "not_host")
    return events.HostChanged(player=room.players[0].id)


def removable(room: RoomModel) -> bool:
    """Whether this game lets a seat drop out while it runs (the drawing games)."""
    return isinstance(room.game, RemovableSeats) and room.game.seats_removable


def decide_leave(room: RoomModel, player_id: str | None,
                 now: float = 0.0) -> tuple[LogEvent, object]:
    require(room.player(player_id) is not None, "not_joined")
    if room.phase == "playing" and removable(room):
        return _remove(room, player_id, now, "self")
    # After game over too: a player who goes is not in the next game.
    require(room.phase in ("lobby", "over"), "game_started")
    assert player_id is not None
    return events.Left(player=player_id, by="self"), None


def _remove(room: RoomModel, player_id: str | None, now: float,
            by: events.By) -> tuple[LogEvent, object]:
    seat = room.seat_of(player_id)
    require(seat is not None, "not_a_player")
    assert seat is not None and player_id is not None
    state = room.game.apply(room.state, SYSTEM, Remove(seat=seat), now)
    return events.Removed(player=player_id, seat=seat, now=now, by=by), state


def decide_remove(room: RoomModel, player_id: str | None, target: str,
                  now: float) -> tuple[LogEvent, object]:
    """The host takes a player out of a running game (``kick`` while playing)."""
    _require_host(room, player_id)
    require(room.phase == "playing" and removable(room), "game_started")
    require(room.player(target) is not None, "unknown_player")
    require(target != player_id, "cannot_kick_self")
    return _remove(room, target, now, "host")


def absent_seats(room: RoomModel, online: set[str]) -> list[int]:
    """Seats whose player has no open connection (computers are always there)."""
    by_id = {p.id: p for p in room.players}
    return [seat for seat, pid in enumerate(room.seats)
            if pid in by_id and pid not in online]


def decide_go_on(room: RoomModel, player_id: str | None, online: set[str],
                 now: float) -> tuple[LogEvent, object]:
    """The host goes on without the absent players: the game treats them as done
    for this phase (it refuses while anyone present is still busy)."""
    _require_host(room, player_id)
    require(room.phase == "playing", "not_playing")
    require(removable(room), "no_go_on")  # Piet shows who is away, and waits
    seats = absent_seats(room, online)
    require(bool(seats), "nobody_absent")
    return decide_action(room, SYSTEM, Skip(seats=seats), now)


def decide_rename(room: RoomModel, player_id: str | None, name: str) -> LogEvent:
    require(room.player(player_id) is not None, "not_joined")
    _require_lobby(room)
    name = clean_name(name)
    require(
        all(p.name.casefold() != name.casefold() for p in room.players if p.id != player_id),
        "name_taken",
    )
    assert player_id is not None
    return events.Renamed(player=player_id, name=name)


def decide_settings(room: RoomModel, player_id: str | None,
                    changes: Mapping[str, JSON]) -> LogEvent:
    _require_host(room, player_id)
    _require_lobby(room)
    refuse_agreements(room.game, changes)
    seats = max(len(room.players), room.game.min_seats)
    settings = room.game.validate_settings({**room.settings, **changes}, seats)
    return events.SettingsChanged(settings=settings)


def refuse_agreements(game: Game[Any], settings: Mapping[str, JSON]) -> None:
    """The host (or a new room's creator) cannot decide what each player agrees to."""
    for name in agreements(game):
        require(name not in settings, "agree_not_a_setting", name=name)


def decide_agree(room: RoomModel, player_id: str | None, name: str, on: bool) -> LogEvent:
    """A player in the lobby gives or takes back their agreement to ``name``."""
    require(room.player(player_id) is not None, "not_joined")
    require(room.phase == "lobby", "agree_not_in_lobby")
    require(name in agreements(room.game), "agree_unknown", name=name)
    assert player_id is not None
    return events.Agreed(player=player_id, name=name, on=on)


def agreed_settings(room: RoomModel) -> dict[str, JSON]:
    """The room's settings with each agreement set: on only if every human
    player in the room agreed (computers are not asked)."""
    settings = dict(room.settings)
    for name in agreements(room.game):
        settings[name] = all(name in p.agreed for p in room.players)
    return settings


def decide_kick(room: RoomModel, player_id: str | None, target: str,
                now: float = 0.0) -> tuple[LogEvent, object]:
    """In the lobby the player leaves the room; in a running drawing game their
    seat is removed from the game (``decide_remove``)."""
    if room.phase == "playing":
        return decide_remove(room, player_id, target, now)
    _require_host(room, player_id)
    _require_lobby(room)
    require(room.player(target) is not None, "unknown_player")
    require(target != player_id, "cannot_kick_self")
    return events.Left(player=target, by="host"), None


def decide_host(room: RoomModel, player_id: str | None, target: str) -> LogEvent:
    _require_host(room, player_id)
    require(room.player(target) is not None, "unknown_player")
    return events.HostChanged(player=target)


def decide_start(room: RoomModel, player_id: str | None, now: float = 0.0) -> LogEvent:
    _require_host(room, player_id)
    _require_lobby(room)
    computers = room.lobby_computers()
    total = len(room.players) + len(computers)
    game = room.game
    if game.min_seats == game.max_seats:  # "needs 2 to 2 players" reads wrong
        require(total == game.min_seats, "seat_count_exact", count=game.min_seats)
    else:
        require(
            game.min_seats <= total <= game.max_seats, "seat_count",
            min=game.min_seats, max=game.max_seats,
        )
    settings = game.validate_settings(agreed_settings(room), total)
    computers = game.computer_seats(settings) if isinstance(game, BotGame) else {}
    humans = iter(room.players)
    seats = [f"c{seat}" if seat in computers else next(humans).id for seat in range(total)]
    by_id = {p.id: p.name for p in room.players}
    names = [computer_name(computers[seat]) if seat in computers else by_id[pid]
             for seat, pid in enumerate(seats)]
    seed = room.game_seed()
    if isinstance(game, DealingGame):
        initial = game.new_avoiding(settings, names, seed, room.dealt)
    else:
        initial = game.new(settings, names, seed)
    if isinstance(game, CorrespondenceGame):
        initial = game.start_clock(initial, now)  # the first move's time runs from here
    return events.Started(
        settings=settings,
        seats=seats,
        computers={str(k): v for k, v in computers.items()},
        # The first state itself, not only its recipe: a game started before a
        # release that changed the decks replays with the cards it was dealt.
        initial=game.dump(initial),
    )


def decide_again(room: RoomModel, player_id: str | None) -> LogEvent:
    """Back to the lobby after game over, everyone still joined; the event
    carries the room's memory of what was dealt, for the next game. Players'
    agreements are cleared on applying it: each was given for one game, and a
    player who wanted hints then may not want them in the rematch."""
    _require_host(room, player_id)
    require(room.phase == "over", "not_over")
    dealt = list(room.dealt)
    if isinstance(room.game, DealingGame):
        dealt = list(room.game.dealt(room.state))
    return events.Again(dealt=dealt)


def decide_action(room: RoomModel, seat: int | None, action: Action, now: float,
                  mark: dict[str, JSON] | None = None) -> tuple[events.Acted, object]:
    """The action event and the state it leads to; ``mark``: where a guess lands
    on the drawing's replay (room/marks.py), logged with it."""
    require(room.phase == "playing", "not_playing")
    require(seat is not None, "not_a_player")
    assert seat is not None
    state = room.game.apply(room.state, seat, action, now)
    # A mark is logged only with the actions that have one (the stored shape).
    if mark is None:
        return events.Acted(seat=seat, action=as_json(action), now=now), state
    return events.Acted(seat=seat, action=as_json(action), now=now, mark=mark), state


def decide_transfer(room: RoomModel, player_id: str | None, transfer_hash: str) -> LogEvent:
    """A seated player offers their seat to another device (one-time token)."""
    require(room.player(player_id) is not None, "not_joined")
    assert player_id is not None
    return events.TransferOffered(player=player_id, transfer_hash=transfer_hash)


def decide_claim(room: RoomModel, transfer: str, token_hash: str) -> LogEvent:
    """The other device uses the transfer token: the seat's token becomes its
    own. A token used before (or never offered) is refused."""
    digest = hash_token(transfer)
    found: Player | None = None
    for p in room.players:
        if p.transfer_hash and hmac.compare_digest(p.transfer_hash, digest):
            found = p
    require(found is not None, "transfer_used")
    assert found is not None
    return events.SeatMoved(player=found.id, token_hash=token_hash)


def decide_next(room: RoomModel, player_id: str | None, now: float) -> tuple[LogEvent, object]:
    _require_host(room, player_id)
    return decide_action(room, SYSTEM, System(type="advance"), now)


Decision = Callable[[RoomModel], tuple[LogEvent, object]]
"""Decides a change on the room as it is now: the event to log (typed until
the store writes it) and the game state it leads to, if the game changed."""
Room = TypeVar("Room")
Commit = Callable[[Room, Decision], Awaitable[LogEvent]]
"""``Rooms.commit`` as its helpers (timers, computers, ink) call it: decide,
log, apply, publish and push, on a loaded room."""
