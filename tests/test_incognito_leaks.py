"""Incognito over real WebSockets: every message four players and a spectator receive during
a whole game is recorded, then checked for secrets that arrived before their reveal.

Secrets (docs/incognito.md, Secrets): an author's word (only its author may know it until the
round is scored; during the vote the six words lie on the table, but not whose is whose),
the number on a vote card (only its voter), and the ink of a drawing (only its drawer
until the vote).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx

from support.client import Client, open_client
from support.ink import stroke
from support.server import ServerProcess, create_room

COLOURS = ["red", "blue", "green", "yellow"]
OWN_KEYS = ("seat", "word", "word_tile", "my_votes", "unused_tiles")
"""Fields of a player's view that hold that player's own secrets."""
VIEW_KEYS = {"game", "phase", "round", "rounds", "settings", "seat", "players",
             "deadline", "clock", "tiles", "word", "word_tile", "my_votes",
             "unused_tiles", "reveal", "history", "totals", "winners", "waiting_for"}
PLAYER_KEYS = {"seat", "name", "location", "done_drawing", "done_voting", "voted_on",
               "confirmed", "total", "removed"}
CUSTOM_WORDS = [f"Hushword{i:02d}" for i in range(20)]
CUSTOM_LOCATIONS = [f"Hushplace{i:02d}" for i in range(12)]
"""The host's own lists: a word is known only once it lies on the table, a location
once it is dealt; until then (or never) no message may carry it, nor the room summary."""


def strings(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every string value of a JSON document, with its path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from strings(item, (*path, i))


async def phase(clients: list[Client], name: str, rnd: int, timeout: float = 10) -> None:
    for c in clients:
        await c.state(lambda m: m["game"] is not None and m["game"]["phase"] == name
                      and m["game"]["round"] == rnd, timeout)


async def play_game(server: ServerProcess, opened: list[Client]) -> tuple[
        str, list[Client], Client, dict[str, Any]]:
    """A two-round game of four players, watched by a spectator; returns the final view."""
    code = create_room(server.http, "incognito", {
        "rounds": 2, "countdown": 1, "custom_words": CUSTOM_WORDS,
        "custom_locations": CUSTOM_LOCATIONS})
    players = []
    for i, colour in enumerate(COLOURS):
        c = await open_client(opened, server, code)
        assert (await c.join(f"P{i}", colour))["t"] == "joined"
        players.append(c)
    watcher = await open_client(opened, server, code)
    assert (await players[0].request({"t": "start"}))["t"] == "ack"
    everyone = [*players, watcher]
    rng = random.Random(5)

    # Round 1: everyone draws and finishes; three vote on every drawing, the fourth on one
    # only, so the countdown places the rest at random.
    await phase(everyone, "drawing", 1)
    for seat, c in enumerate(players):
        await c.send(stroke(100 + seat))
        await c.send(stroke(600 + seat))
    for c in players:
        assert (await c.request({"t": "ping"}))["t"] == "ack"  # the ink is in
    url = f"{server.http}/api/rooms/{code}/drawings"
    assert httpx.get(url).json() == {"drawings": []}  # nothing public while drawing
    assert httpx.get(url + "/round-1/0.png").status_code == 404
    for c in players:
        assert (await c.act(type="done_drawing"))["t"] == "ack"
    await phase(everyone, "voting", 1)
    ballots = []
    for seat in range(4):
        tiles = rng.sample(range(1, 7), 3)
        authors = [a for a in range(4) if a != seat]
        ballots.append(list(zip(authors, tiles, strict=True))[: 1 if seat == 3 else 3])
    # the partial voter first: once the other three are done, the 1 s countdown runs,
    # and a vote sent after it (a loaded machine) would be refused
    for seat in (3, 0, 1, 2):
        for author, tile in ballots[seat]:
            vote = {"type": "vote", "author": author, "tile": tile}
            assert (await players[seat].act(**vote))["t"] == "ack"
    # refused votes answer only their sender, and never echo someone else's numbers
    assert (await players[0].act(type="vote", author=1, tile=1))["t"] == "error"
    await phase(everyone, "scored", 1)
    for c in players:
        assert (await c.act(type="confirm"))["t"] == "ack"

    # Round 2: three finish drawing, the fourth keeps drawing through the countdown; then
    # two vote fully, one declares done early, one votes partly.
    await phase(everyone, "drawing", 2)
    await players[3].send(stroke(300))
    assert (await players[3].request({"t": "ping"}))["t"] == "ack"
    for seat, c in enumerate(players[:3]):
        await c.send(stroke(200 + seat))
        assert (await c.act(type="done_drawing"))["t"] == "ack"
    await players[3].send(stroke(400))  # during the countdown (refused if it came too late)
    await phase(everyone, "voting", 2)
    for seat, c in enumerate(players):
        tiles = rng.sample(range(1, 7), 3)
        authors = [a for a in range(4) if a != seat]
        count = {0: 3, 1: 3, 2: 0, 3: 2}[seat]
        for author, tile in list(zip(authors, tiles, strict=True))[:count]:
            assert (await c.act(type="vote", author=author, tile=tile))["t"] == "ack"
    assert (await players[2].act(type="done_voting"))["t"] == "ack"
    await phase(everyone, "over", 2)
    for c in everyone:
        await c.sync()
    final = [m for m in watcher.log if isinstance(m, dict) and m.get("t") == "state"][-1]
    return code, players, watcher, final["game"]


def check_log(client: Client, seat: int | None, final: dict[str, Any],
              public: dict[int, dict[str, Any]]) -> None:
    history = final["history"]
    words = [[d["word"] for d in r["drawings"]] for r in history]
    tiles_of = [[d["tile"] for d in r["drawings"]] for r in history]
    # per round, voter -> the cards they placed themselves (author -> tile)
    ballots: list[dict[int, dict[str, int]]] = [
        {v["voter"]: {} for d in r["drawings"] for v in d["votes"]} for r in history]
    for r, rnd in enumerate(history):
        for d in rnd["drawings"]:
            for v in d["votes"]:
                if not v["random"]:
                    ballots[r][v["voter"]][str(d["author"])] = v["tile"]
    stage: tuple[int, str] = (0, "lobby")
    saw_votes_ink = set()
    for msg in client.log:
        if isinstance(msg, bytes):
            drawer = msg[0]
            rnd, ph = stage
            assert ph != "drawing" or drawer == seat, (
                f"seat {seat} got ink of seat {drawer} while round {rnd} was drawn")
            if ph == "voting":
                saw_votes_ink.add((rnd, drawer))
            continue
        game = msg.get("game") if msg.get("t") == "state" else None
        if game is not None:
            stage = (game["round"], game["phase"])
        rnd, ph = stage
        # No other author's word of this round or a later one before its tiles are shown;
        # during the vote only on the tiles, unattributed.
        for r in range(max(rnd, 1), len(history) + 1):
            if r == rnd and ph in ("scored", "over"):
                continue
            secret = {w.casefold() for a, w in enumerate(words[r - 1]) if a != seat}
            for path, text in strings(msg):
                if r == rnd and ph == "voting" and path[:2] == ("game", "tiles"):
                    continue
                assert text.casefold() not in secret, (
                    f"seat {seat} got another author's word {text!r} at {path} in {stage}")
        if game is None or ph in ("scored", "over"):
            continue
        # Before the reveal: the public view plus this seat's own secrets, nothing more.
        assert set(game) == VIEW_KEYS
        assert all(set(p) == PLAYER_KEYS for p in game["players"])
        assert game["reveal"] is None and len(game["history"]) == rnd - 1
        assert game["totals"] == [sum(h["points"][s] for h in history[: rnd - 1])
                                  for s in range(len(game["players"]))]
        mine = {k: game[k] for k in OWN_KEYS}
        rest = {k: v for k, v in game.items() if k not in OWN_KEYS}
        spectator = public[msg["seq"]]
        assert {k: v for k, v in spectator.items() if k not in OWN_KEYS} == rest
        if seat is None:
            assert set(mine.values()) == {None}
            continue
        assert mine["seat"] == seat
        assert mine["word"] == words[rnd - 1][seat]
        assert mine["word_tile"] == (None if ph == "drawing" else tiles_of[rnd - 1][seat])
        placed = mine["my_votes"]
        assert placed.items() <= ballots[rnd - 1][seat].items()
        assert mine["unused_tiles"] == [t for t in range(1, 7) if t not in placed.values()]
    # the drawings were turned over for everyone at the vote
    for rnd in (1, 2):
        assert {d for r, d in saw_votes_ink if r == rnd} >= {0, 1, 2, 3} - {seat}


async def test_no_word_vote_or_ink_reaches_anyone_before_its_reveal(
    server: ServerProcess, clients: list[Client]
) -> None:
    code, players, watcher, final = await asyncio.wait_for(play_game(server, clients), 60)
    assert final["phase"] == "over" and len(final["history"]) == 2
    assert any(v["random"] for r in final["history"] for d in r["drawings"] for v in d["votes"])
    public = {m["seq"]: m["game"] for m in watcher.log
              if isinstance(m, dict) and m.get("t") == "state" and m["game"] is not None}
    for seat, c in enumerate(players):
        check_log(c, seat, final, public)
    check_log(watcher, None, final, public)
    check_custom_lists([*players, watcher],
                       httpx.get(f"{server.http}/api/rooms/{code}").json())
    # once the game is over, every drawing is public
    listing = httpx.get(f"{server.http}/api/rooms/{code}/drawings").json()["drawings"]
    assert {(d["key"], d["seat"]) for d in listing} == {
        (f"round-{r}", s) for r in (1, 2) for s in range(4)}


def check_custom_lists(clients: list[Client], summary: dict[str, Any]) -> None:
    """Words and locations of the host's lists that were never dealt reach no one, in
    no message of any kind; the settings every message carries hold their counts."""
    shown: set[str] = set()
    for c in clients:
        for msg in c.log:
            game = msg.get("game") if isinstance(msg, dict) and msg.get("t") == "state" else None
            if game:
                shown.update(game["tiles"] or [])
                shown.update(p["location"] for p in game["players"] if p["location"])
    hidden = set(CUSTOM_WORDS + CUSTOM_LOCATIONS) - shown
    assert len(hidden) >= 8  # 12 of 20 words are dealt, 4 x 2 of 12 locations
    kinds = set()
    for c in clients:
        for msg in c.log:
            if isinstance(msg, bytes):
                continue
            kinds.add(msg["t"])
            raw = json.dumps(msg)
            assert not [w for w in hidden if w in raw], msg
            if "room" in msg and isinstance(msg["room"], dict):
                settings = msg["room"]["settings"]
                assert (settings["custom_words"], settings["custom_locations"]) == (20, 12)
    assert {"welcome", "joined", "state", "ack", "error"} <= kinds
    raw = json.dumps(summary)
    assert not [w for w in CUSTOM_WORDS + CUSTOM_LOCATIONS if w in raw]
    assert (summary["settings"]["custom_words"], summary["settings"]["custom_locations"]) == (
        20, 12)
