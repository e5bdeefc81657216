"""The fuzzer's driver: episodes of a room played from the lobby to its end by
the moves each game lists, with random actors in between, every message checked."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from atelier.bench.fuzz.figures import (
    IN_THE_WAY,
    MAX_DRIVER_STEPS,
    MESSAGE_TYPES,
    Figures,
    Violation,
)
from atelier.bench.fuzz.peer import Peer
from atelier.bench.fuzz.strategies import Item, resolve, script
from atelier.games.actions import Action, as_json
from atelier.games.core import Game, LegalActionsGame, PlayedThrough
from atelier.server.room.model import COLOURS, RoomModel, replay_log
from atelier.store import Store, open_store

# --- the runner ---------------------------------------------------------------------


class Runner:
    def __init__(self, http_base: str, db_path: str | None, games: Mapping[str, Game[Any]],
                 strict: bool = False) -> None:
        self.http = http_base.rstrip("/")
        self.ws_base = "ws" + self.http[len("http"):]
        self.db_path = db_path
        self.games = dict(games)
        self.strict = strict
        self.figures = Figures()
        self.seen: dict[str, int] = {}
        self.script = script(list(self.games.values()))
        self.budget = 0
        self.steps = 0
        self.models: dict[str, RoomModel] = {}  # each room as its log says, for legal()
        self.loop = asyncio.new_event_loop()
        self.store: Store | None = None

    def check(self, ok: bool, what: str) -> None:
        if not ok and self.strict:
            raise Violation(what + "; " + "; ".join(self.figures.problems[-3:]))

    def fault(self, what: str) -> None:
        self.figures.server_exceptions += 1
        self.figures.problem("server fault: " + what)
        self.check(False, "server fault")

    async def changed_by_refusal(self, code: str, before: int, after: int,
                                 frame: str | bytes) -> None:
        """The log grew while a refused message was answered: only a clock or a
        computer player may have done that."""
        async for kind, data, computers in self._events(code, before, after):
            action = data.get("action", {}) if kind == "action" else {}
            if kind == "action" and (
                (data.get("seat") == -1 and action.get("type") == "timeout")
                or str(data.get("seat")) in computers
            ):
                continue
            self.figures.state_changes += 1
            self.figures.problem(f"{kind} {data!r:.150} logged by refused {frame!r:.150}")
            self.check(False, "a refused message changed the room")
            return

    async def log(self) -> Store | None:
        """The rooms' log, read through the store as the server reads it (none
        without a database)."""
        if self.store is None and self.db_path is not None:
            self.store = await open_store(self.db_path)
        return self.store

    async def _events(self, code: str, before: int, after: int) -> AsyncIterator[
            tuple[str, dict[str, Any], set[str]]]:
        store = await self.log()
        if store is None:
            return
        computers: set[str] = set()
        for row in await store.load_events(code):
            if row.kind == "started":
                computers = set(row.data.get("computers", {}))
            if before < row.seq <= after:
                yield row.kind, row.data, computers

    # -- one episode --------------------------------------------------------------

    async def burst(self, items: list[Item], peers: list[Peer]) -> None:
        for kind, actor, payload, with_id in items:
            if self.figures.messages >= self.budget:
                return
            peer = peers[actor % len(peers)]
            if kind == "message":
                game = (peer.state.get("game") or {}) if peer.state else {}
                msg = resolve(payload, list(game.get("legal_moves") or []))
                msg_id = None
                if with_id:
                    peer.next_id += 1
                    msg_id = msg["id"] = peer.next_id
                await peer.send(json.dumps(msg), msg_id, must_refuse=False)
            elif kind == "junk":
                await peer.send(payload, None, must_refuse=not _is_message(payload))
            else:
                await peer.send(payload, None, must_refuse=False)

    async def step(self, name: str, peers: list[Peer]) -> bool:
        """One move of the game toward its end; False once it is over. The move is
        one the game lists for a player (``LegalActionsGame.legal_actions``, on the
        room rebuilt from its log): every other step one that ends the player's
        phase, so games finish, else any. A listed move the server refuses is a
        problem: the list and the rules disagree."""
        players = [p for p in peers if p.name is not None]
        for p in peers:
            await p.drain()
        state = max(peers, key=lambda p: p.seq).state
        room_phase = state["room"]["phase"]
        game = state.get("game") or {}
        self.figures.phases.add((name, f"{room_phase}/{game.get('phase', '-')}"))
        if room_phase == "over":
            return False
        if room_phase == "lobby":
            await self.seat_everyone(players)
            host = next((p for p in peers if p.host), players[0])
            await host.send(json.dumps({"t": "start", "id": 1}), 1, must_refuse=False)
            return True
        self.steps += 1
        turn = self.steps % max(1, len(players))
        for p in players[turn:] + players[:turn]:
            seat = p.state.get("you", {}).get("seat")
            if seat is None:
                continue
            actions = await self.legal(name, p.code, seat)
            rules = self.games[name]
            if self.steps % 2 == 0:
                if isinstance(rules, PlayedThrough):
                    actions.sort(key=lambda a: not rules.ends_part(a))
            else:
                k = self.steps % len(actions) if actions else 0
                actions = actions[k:] + actions[:k]
            for action in actions[:3]:
                before = p.seq
                refusal = await p.send(json.dumps({"t": "act", "id": 3,
                                                    "action": as_json(action)}),
                                       3, False)
                self.figures.legal_played += 1
                if refusal is not None and refusal not in IN_THE_WAY:
                    self.figures.problem(f"listed move {action} refused: {refusal}")
                    self.figures.legal_refused += 1
                    self.check(False, "a move the game lists was refused")
                await p.drain()
                if p.seq != before:
                    return True
        boss = next((p for p in peers if p.host), None)
        if boss is not None:
            await boss.send(json.dumps({"t": "next", "id": 4}), 4, must_refuse=False)
        return True

    async def legal(self, name: str, code: str, seat: int) -> list[Action]:
        """The moves the game lists for ``seat`` now, from the room's log (none
        without a database)."""
        game = self.games[name]
        store = await self.log()
        if store is None or not isinstance(game, LegalActionsGame):
            return []
        model = self.models.get(code)
        events = await store.load_events(code, -1 if model is None else model.seq)
        if model is None:
            if not events:
                return []
            model = self.models[code] = replay_log(code, game, events)
        else:
            for row in events:
                model.apply_event(row.seq, row.kind, row.data)
        if model.state is None or model.phase != "playing":
            return []
        return game.legal_actions(model.state, seat)

    async def seat_everyone(self, players: list[Peer]) -> None:
        """After lobby fuzzing, everyone who is no longer a player joins again."""
        for p in players:
            await p.drain()
            if p.player is not None:
                continue
            taken = {q["colour"] for q in p.state["room"]["players"]}
            names = {q["name"].casefold() for q in p.state["room"]["players"]}
            colour = next((c for c in COLOURS if c not in taken), None)
            name = next(f"{p.name}{i}" for i in range(99) if f"{p.name}{i}".casefold()
                        not in names)
            if colour is None:
                return
            await p.send(json.dumps({"t": "join", "id": 5, "name": name, "colour": colour}),
                         5, must_refuse=False)
            await p.drain()

    async def episode(self, data: st.DataObject) -> None:
        # every example draws the same way, whatever the server answers or the budget;
        # the games take turns, so a short run plays each of them
        bursts = data.draw(self.script, label="script")
        if self.figures.messages >= self.budget:
            return
        name = sorted(self.games)[self.figures.episodes % len(self.games)]
        game = self.games[name]
        quick = dict(game.quick_settings) if isinstance(game, PlayedThrough) else {}
        r = httpx.post(self.http + "/api/rooms", json={"game": name, "settings": quick})
        # all the fuzzer's rooms come from one address: run the server with the
        # per-address limits lifted (atelier.bench.measure.UNLIMITED)
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        peers = [Peer(self, code, f"P{i}") for i in range(game.min_seats)]
        peers.append(Peer(self, code, None))  # a spectator
        self.figures.episodes += 1
        try:
            for i, p in enumerate(peers):
                await p.open()
                if p.name is not None:
                    await p.ws.send(json.dumps({"t": "join", "id": 7, "name": p.name,
                                                "colour": COLOURS[i]}))
                    await p.until(lambda m: m.get("id") == 7)
            left = iter(bursts)
            for _ in range(MAX_DRIVER_STEPS):
                await self.burst(next(left, []), peers)
                if self.figures.messages >= self.budget or not await self.step(name, peers):
                    break
            for items in list(left)[:2]:  # after the end too
                await self.burst(items, peers)
        finally:
            for p in peers:
                await p.close()

    def run(self, messages: int, examples_per_batch: int = 20) -> Figures:
        """Episodes until ``messages`` have been sent."""
        self.budget = messages
        runner = self

        @settings(max_examples=examples_per_batch, deadline=None, database=None,
                  derandomize=False, phases=[Phase.generate, Phase.shrink] if self.strict
                  else [Phase.generate], suppress_health_check=list(HealthCheck),
                  report_multiple_bugs=False)
        @given(st.data())
        def episodes(data: st.DataObject) -> None:
            runner.loop.run_until_complete(runner.episode(data))

        try:
            while self.figures.messages < self.budget:
                before = self.figures.messages
                episodes()
                if self.figures.messages == before:
                    break
        finally:
            if self.store is not None:
                self.loop.run_until_complete(self.store.close())
            self.loop.close()
        return self.figures


def _is_message(text: str) -> bool:
    """Whether ``text`` could be a client message at all (a JSON object with a known t)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("t") in MESSAGE_TYPES
