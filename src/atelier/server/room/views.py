"""Every message a client receives is built here, from the game's view for its seat.

Nothing else in the server serialises room or game data for the wire, so a
secret can only leak through ``GAME.view`` itself. The seed, generator state,
full game state and other players' token hashes are never read here.
"""

from __future__ import annotations

import json
from typing import Any, cast

from atelier.errors import RuleError
from atelier.games.core import DrawingGame, agreements
from atelier.jsonvalue import JSON
from atelier.server.room.model import COLOUR_HEX, Player, RoomModel
from atelier.server.wire.protocol import PROTOCOL_VERSION


def is_drawing_game(room: RoomModel) -> bool:
    return isinstance(room.game, DrawingGame)


def drawing_game(room: RoomModel) -> DrawingGame[Any]:
    """The room's game as a drawing game, where the caller knows it is one (it
    has a drawing key now): a cast, as an isinstance on a protocol would check
    every method each time, and some of this runs for every ink batch."""
    return cast(DrawingGame[Any], room.game)


def drawing_key(room: RoomModel) -> str | None:
    """The key of the drawing under way (or last shown), None if there is none;
    the ink path keeps its answer until the next event (``ink.rights``)."""
    game = room.game
    if room.state is None or not isinstance(game, DrawingGame):
        return None
    key = game.drawing_key(room.state)
    return None if key is None else room.ink_prefix + key


def visible_drawers(room: RoomModel, viewer: int | None) -> frozenset[int]:
    """The seats whose ink for the current key ``viewer`` (None: spectator) may see."""
    if drawing_key(room) is None:
        return frozenset()
    game = drawing_game(room)
    return frozenset(
        seat for seat in range(len(room.seats)) if game.ink_visible(room.state, seat, viewer)
    )


def ink_rights(room: RoomModel, seat: int | None) -> tuple[bool, list[str]]:
    """(may_draw, ink_tools) for ``seat`` now."""
    if seat is None or room.phase != "playing" or drawing_key(room) is None:
        return False, []
    game = drawing_game(room)
    return bool(game.may_draw(room.state, seat)), sorted(game.ink_tools(room.state, seat))


def public_player(p: Player, connected: bool) -> dict[str, JSON]:
    return {
        "id": p.id,
        "name": p.name,
        "colour": p.colour,
        "seat": p.seat,
        "connected": connected or p.computer is not None,
        "computer": p.computer,
        "removed": p.removed,
        # what this player agreed to in the lobby (the room's "agreements")
        "agreed": sorted(p.agreed),
    }


def room_summary(room: RoomModel, online: set[str], spectators: int) -> dict[str, JSON]:
    return {
        "code": room.code,
        "game": room.game.name,
        "phase": room.phase,
        "host": room.host,
        "players": [public_player(p, p.id in online) for p in room.all_players()],
        "spectators": spectators,
        "settings": room.game.public_settings(room.settings),
        # settings each human player agrees to in the lobby, not the host's to set
        "agreements": list(agreements(room.game)),
        "language": room.language,
        # Finished games' points per player (public once each game is over)
        # and the ink key prefix of the current game (see RoomModel.ink_prefix).
        "played": room.played,
        "ink_prefix": room.ink_prefix,
    }


def state_message(
    room: RoomModel, player_id: str | None, online: set[str], spectators: int
) -> str:
    """The ``state`` message for one connection, as JSON text."""
    seat = room.seat_of(player_id)
    game_view = None if room.state is None else room.game.view(room.state, seat)
    may_draw, tools = ink_rights(room, seat)
    return json.dumps(
        {
            "t": "state",
            "seq": room.seq,
            "room": room_summary(room, online, spectators),
            "you": {
                "player": player_id,
                "seat": seat,
                "host": player_id is not None and room.host == player_id,
            },
            "game": game_view,
            "drawing_key": drawing_key(room),
            "ink_tools": tools,
            "may_draw": may_draw,
        },
        separators=(",", ":"),
    )


def welcome_message(room: RoomModel, player_id: str | None) -> str:
    return json.dumps(
        {
            "t": "welcome",
            "v": PROTOCOL_VERSION,
            "room": room.code,
            "you": {"player": player_id, "host": player_id is not None and room.host == player_id},
            "colours": COLOUR_HEX,
        }
    )


def joined_message(room: RoomModel, player: Player, token: str) -> str:
    """The only message that carries a token: to the connection that just joined."""
    return json.dumps(
        {"t": "joined", "token": token, "player": public_player(player, True)}
    )


def error_body(err: RuleError, lang: str) -> dict[str, JSON]:
    """A refusal as every client reads it, over HTTP and (with ``"t"``) the socket."""
    return {"code": err.code, "message": err.message(lang), "params": err.params}


def error_message(err: RuleError, lang: str, msg_id: int | None = None) -> str:
    body: dict[str, JSON] = {"t": "error", **error_body(err, lang)}
    if msg_id is not None:
        body["id"] = msg_id
    return json.dumps(body, default=str)


def simple(t: str, **fields: Any) -> str:
    return json.dumps({"t": t, **fields})
