"""``atelier bench mixed``: a bystander's room under the engine's load.

One server (``atelier serve`` from this install) and, in a process of its own
so the load's clients never delay it, a bystander who for ``--seconds``:

- pings its room every 100 ms (round trip);
- draws in a quiet sketch room of two, a batch every 100 ms, timed until the
  other player receives it (ink round trip);
- plays Piet against the hard computer: before each move it asks for a hint
  (counted: answered or refused), then moves and times the computer's reply.

First alone, then with the load, in another process: ``--drawing`` sketch
rooms of three drawing a batch every 100 ms, ``--hard`` Piet rooms against the
hard computer (their player thinks ``--think`` seconds a move on average, each
think drawn between half and one and a half of it, each room starting at a
moment of its own), and a review flood from ``--addresses`` addresses at once
(X-Forwarded-For from a trusted proxy), each keeping three reviews of different
finished records in flight. ``--load-nice N`` lowers the load's process (as if
its clients were other machines); the bystander is never lowered.
``--load-level easy`` has the load's Piet rooms play the easy computer, whose
moves cost the engine almost nothing: the same rooms' traffic without their
searches, to tell what the searches cost a bystander from what the rooms do.
Printed: p50/p99 of each, with and without the load, their ratio, the
server's CPU (its engine processes included) and the machine's load.

``--baseline-drawing``: the sketch rooms draw in the first phase too, so the
two phases differ by the engine's load alone (the computer rooms and the
flood): a bystander's ink otherwise waits for the bundle tick only beside
other drawing rooms. ``--rounds N`` alternates the two phases N times and
pools what the bystander measured; each round's p99s are printed as well, so
the machine's own noise between rounds of the same phase shows.

The clients are the ``fuzz`` extra's (websockets, httpx).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from atelier.bench.measure import UNLIMITED, free_port, percentile, proc_cpu_seconds
from atelier.games.piet.notation import format_move, read_record
from atelier.games.piet.rules import OVER, legal_moves, play
from atelier.ink.synth import DEVICES, record

START = "setup: beginner\nbrushes: off\n"
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


def played_out(seed: int) -> str:
    """A finished Piet record, its moves picked by ``seed`` (each one new to the cache)."""
    state = read_record(START).final
    pick = random.Random(seed)
    moves = []
    while state.phase != OVER:
        move = pick.choice(sorted(legal_moves(state), key=format_move))
        state = play(state, move)[0]
        moves.append(format_move(move))
    return START + "".join(f"{m}\n" for m in moves)


async def create(http: httpx.AsyncClient, game: str, settings: dict[str, Any]) -> str:
    answer = await http.post("/api/rooms", json={"game": game, "settings": settings})
    answer.raise_for_status()
    code: str = answer.json()["code"]
    return code


class Seat:
    """One player's socket: the last state, acks by id, binary frames to a callback."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.token = ""
        self.changed = asyncio.Event()
        self.acks: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.on_binary: Any = None
        self.pong: asyncio.Future[dict[str, Any]] | None = None
        self._id = 0
        self.reader = asyncio.ensure_future(self._read())

    @classmethod
    async def join(cls, base_ws: str, code: str, name: str, colour: str = "red") -> Seat:
        ws = await connect(f"{base_ws}/ws/{code}", max_size=2**22, compression=None,
                           ping_interval=None)
        seat = cls(ws)
        await ws.send(json.dumps({"t": "hello", "v": 1, "token": None, "lang": "en"}))
        await seat.request({"t": "join", "name": name, "colour": colour}, "joined")
        return seat

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                if isinstance(raw, bytes):
                    if self.on_binary is not None:
                        self.on_binary()
                    continue
                msg = json.loads(raw)
                kind = msg.get("t")
                if kind == "state":
                    self.state = msg
                    self.changed.set()
                elif kind == "joined":
                    self.token = msg.get("token") or self.token
                    waiting = self.acks.pop(-1, None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(msg)
                elif kind == "pong":
                    if self.pong is not None and not self.pong.done():
                        self.pong.set_result(msg)
                elif kind in ("ack", "error") and msg.get("id") in self.acks:
                    waiting = self.acks.pop(msg["id"])
                    if not waiting.done():
                        waiting.set_result(msg)

    async def request(self, msg: dict[str, Any], reply: str = "") -> dict[str, Any]:
        self._id += 1
        rid = -1 if reply == "joined" else self._id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.acks[rid] = future
        await self.ws.send(json.dumps({**msg, "id": self._id}))
        return await asyncio.wait_for(future, 60)

    async def until(self, where: Any, timeout: float = 120) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not (self.state and where(self.state)):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))
        return self.state

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close()


def my_turn(seat: Seat) -> Any:
    def check(m: dict[str, Any]) -> bool:
        game = m.get("game") or {}
        return bool(game) and (game.get("phase") == "over"
                               or game.get("to_move") == m["you"]["seat"])
    return check


async def piet_against_hard(http: httpx.AsyncClient, base_ws: str, stop: float,
                            think: float, replies: list[float] | None = None,
                            hints: dict[str, int] | None = None,
                            pace: random.Random | None = None, level: str = "hard") -> None:
    """Games against the computer (``level``: hard unless told) until ``stop``:
    think, (ask a hint,) move, and time the computer's reply. With ``pace``, each
    think is drawn between half and one and a half ``think`` and the first game
    starts up to one ``think`` late: players of different rooms do not move in
    step (twenty rooms started at once, each thinking exactly as long, would ask
    the engine in bursts of twenty)."""
    if pace is not None:
        await asyncio.sleep(pace.uniform(0, think))
    while time.monotonic() < stop:
        code = await create(http, "piet", {"opponent": level})
        me = await Seat.join(base_ws, code, "P")
        await me.request({"t": "start"})
        try:
            while time.monotonic() < stop:
                state = await me.until(my_turn(me))
                game = state["game"]
                if game["phase"] == "over":
                    break
                await asyncio.sleep(think if pace is None else pace.uniform(0.5, 1.5) * think)
                if hints is not None:
                    await ask_hint(http, me, code, hints)
                moves = len(game["moves"])
                sent = time.monotonic()
                await me.request({"t": "act", "action": {"type": "move",
                                                         "move": game["legal_moves"][0]}})
                # my turn again (a Piet player may move twice running) or the end
                mine = my_turn(me)
                state = await me.until(lambda m, before=moves, mine=mine:
                                       len(m["game"]["moves"]) > before and mine(m))
                computer_moved = len(state["game"]["moves"]) > moves + 1
                if replies is not None and computer_moved and state["game"]["phase"] != "over":
                    replies.append(time.monotonic() - sent)
        finally:
            await me.close()


async def ask_hint(http: httpx.AsyncClient, me: Seat, code: str, hints: dict[str, int]) -> None:
    reply = await me.request({"t": "act", "action": {"type": "hint"}})
    if reply.get("t") != "ack":
        hints["refused"] += 1
        return
    answer = await http.get(f"/api/rooms/{code}/advice/hint",
                            headers={"Authorization": f"Bearer {me.token}"}, timeout=120)
    hints["answered" if answer.status_code == 200 else "refused"] += 1


async def sketch(http: httpx.AsyncClient, base_ws: str, players: int, stop: float,
                 rtts: list[float] | None = None, seed: int = 0) -> None:
    """A sketch room: the first player draws a batch every 100 ms, from a start
    drawn by ``seed`` within the first 100 ms (rooms do not draw in step); with
    ``rtts``, each batch is timed until the second player receives it."""
    batches = record(DEVICES[seed % len(DEVICES)], 100, seed=seed).batches
    code = await create(http, "sketch", {})
    seats = [await Seat.join(base_ws, code, f"S{n}", COLOURS[n]) for n in range(players)]
    await seats[0].request({"t": "start"})
    await seats[-1].until(lambda m: bool(m.get("game")))
    sent: list[float] = []

    def received() -> None:
        if sent:
            t = sent.pop(0)
            if rtts is not None:
                rtts.append(time.monotonic() - t)

    seats[1].on_binary = received
    await asyncio.sleep(random.Random(seed).uniform(0, 0.1))
    try:
        n = 0
        while time.monotonic() < stop:
            sent.append(time.monotonic())
            await seats[0].ws.send(batches[n % len(batches)])
            n += 1
            await asyncio.sleep(0.1)
    finally:
        for seat in seats:
            await seat.close()


async def pinger(base_ws: str, code: str, stop: float, rtts: list[float]) -> None:
    seat = await Seat.join(base_ws, code, "Pinger")
    try:
        while time.monotonic() < stop:
            seat.pong = asyncio.get_running_loop().create_future()
            sent = time.monotonic()
            await seat.ws.send('{"t": "ping"}')
            await asyncio.wait_for(seat.pong, 60)
            rtts.append(time.monotonic() - sent)
            await asyncio.sleep(0.1)
    finally:
        await seat.close()


@dataclass
class Figures:
    pings: list[float] = field(default_factory=list)
    ink: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    hints: dict[str, int] = field(default_factory=lambda: {"answered": 0, "refused": 0})
    failures: list[str] = field(default_factory=list)


async def bystander(base: str, seconds: float, think: float) -> Figures:
    figures = Figures()
    base_ws = base.replace("http", "ws", 1)
    stop = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        room = await create(http, "sketch", {})
        done = await asyncio.gather(
            pinger(base_ws, room, stop, figures.pings),
            sketch(http, base_ws, 2, stop, figures.ink, seed=1),
            piet_against_hard(http, base_ws, stop, think, figures.replies, figures.hints),
            return_exceptions=True)
        figures.failures = [f"{type(e).__name__}: {e}" for e in done if isinstance(e, Exception)]
    return figures


def run_bystander(base: str, seconds: float, think: float, pipe: Connection) -> None:
    pipe.send(asyncio.run(bystander(base, seconds, think)))


async def flood(http: httpx.AsyncClient, address: str, stop: float, counts: dict[str, int],
                seed: int) -> None:
    """One address's reviews: three at once, each of a new finished record."""
    async def one(k: int) -> None:
        n = 0
        record_text = ""
        while time.monotonic() < stop:
            if not record_text:  # a refused one is asked again as it was
                n += 1
                record_text = played_out(seed * 100_000 + k * 1000 + n)
            try:
                answer = await http.post("/api/games/piet/advice/review",
                                         json={"record": record_text},
                                         headers={"X-Forwarded-For": address},
                                         timeout=max(1.0, stop - time.monotonic()))
                counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1
                if answer.status_code != 200:
                    await asyncio.sleep(float(answer.headers.get("Retry-After", "1")))
                else:
                    record_text = ""
            except httpx.HTTPError:
                counts["hung up"] = counts.get("hung up", 0) + 1
                record_text = ""
    await asyncio.gather(*(one(k) for k in range(3)))


async def load(base: str, seconds: float, args: argparse.Namespace) -> dict[str, int]:
    base_ws = base.replace("http", "ws", 1)
    stop = time.monotonic() + seconds
    counts: dict[str, int] = {}
    limits = httpx.Limits(max_connections=500, max_keepalive_connections=100)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        tasks = [sketch(http, base_ws, 3, stop, seed=10 + n) for n in range(args.drawing)]
        tasks += [piet_against_hard(http, base_ws, stop, args.think, pace=random.Random(n),
                                    level=args.load_level) for n in range(args.hard)]
        tasks += [flood(http, f"198.18.0.{n + 1}", stop, counts, n)
                  for n in range(args.addresses)]
        await asyncio.gather(*tasks, return_exceptions=True)
    return counts


def run_load(base: str, seconds: float, args: argparse.Namespace, pipe: Connection) -> None:
    if args.load_nice:
        os.nice(args.load_nice)
    pipe.send(asyncio.run(load(base, seconds, args)))


def ms(values: list[float], q: float) -> float:
    return 1000 * percentile(values, q)


def line(name: str, quiet: list[float], loaded: list[float]) -> str:
    a, b = ms(quiet, 99), ms(loaded, 99)
    return (f"{name:<28} p50 {ms(quiet, 50):7.1f} -> {ms(loaded, 50):7.1f} ms   "
            f"p99 {a:7.1f} -> {b:7.1f} ms   x{b / a if a else float('nan'):.2f}"
            f"   (n {len(quiet)} / {len(loaded)})")


def own_cpu(pid: int) -> float:
    """CPU seconds of the process alone (its children not counted)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Cpu:
    loop: float  # the server's own process: sockets, ink, rooms
    engine: float  # its engine processes
    wall: float
    load: str
    jobs: int


def phase(base: str, server: subprocess.Popen[bytes], seconds: float,
          args: argparse.Namespace, loaded: bool) -> tuple[Figures, dict[str, int], Cpu]:
    spawn = multiprocessing.get_context("spawn")
    mine, theirs = spawn.Pipe()
    watcher = spawn.Process(target=run_bystander,
                            args=(base, seconds, args.think if args.bystander_think is None
                                  else args.bystander_think, theirs))
    load_pipe, load_end = spawn.Pipe()
    drawing_only = argparse.Namespace(**{**vars(args), "hard": 0, "addresses": 0})
    loads = loaded or (args.baseline_drawing and args.drawing > 0)
    loader = spawn.Process(target=run_load, args=(
        base, seconds + 5, args if loaded else drawing_only, load_end))
    cpu0, own0 = proc_cpu_seconds(server.pid), own_cpu(server.pid)
    jobs0 = httpx.get(base + "/healthz").json()["engine"]["done"]
    if loads:
        loader.start()
        time.sleep(5)  # the load under way before the bystander starts measuring
    started = time.monotonic()
    watcher.start()
    if not mine.poll(seconds + 300):
        raise RuntimeError("the bystander did not report")
    figures: Figures = mine.recv()
    wall = time.monotonic() - started
    counts: dict[str, int] = load_pipe.recv() if loads else {}
    total, own = proc_cpu_seconds(server.pid) - cpu0, own_cpu(server.pid) - own0
    jobs = httpx.get(base + "/healthz").json()["engine"]["done"] - jobs0
    watcher.join()
    if loads:
        loader.join()
    return figures, counts, Cpu(own, total - own, wall, f"{os.getloadavg()[0]:.1f}", jobs)


def pooled(each: list[Figures]) -> Figures:
    """One round's figures, or several rounds' together."""
    together = Figures()
    for f in each:
        together.pings += f.pings
        together.ink += f.ink
        together.replies += f.replies
        for k, v in f.hints.items():
            together.hints[k] += v
        together.failures += f.failures
    return together


def summed(each: list[Cpu]) -> Cpu:
    return Cpu(sum(c.loop for c in each), sum(c.engine for c in each),
               sum(c.wall for c in each), "/".join(c.load for c in each),
               sum(c.jobs for c in each))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="atelier bench mixed")
    ap.add_argument("--seconds", type=float, default=40)
    ap.add_argument("--drawing", type=int, default=4, help="sketch rooms of 3 drawing")
    ap.add_argument("--hard", type=int, default=20, help="Piet rooms against the hard computer")
    ap.add_argument("--think", type=float, default=3.0,
                    help="seconds a Piet player thinks before each move (default 3)")
    ap.add_argument("--load-level", choices=("easy", "medium", "hard"), default="hard",
                    help="the computer the --hard rooms play (default hard; easy asks the "
                    "engine for almost nothing: the rooms' traffic without their searches)")
    ap.add_argument("--addresses", type=int, default=20, help="addresses flooding reviews")
    ap.add_argument("--bystander-think", type=float, default=None,
                    help="seconds the bystander thinks before each move (default --think); "
                    "less gives more samples of the computer's reply")
    ap.add_argument("--baseline-drawing", action="store_true",
                    help="the sketch rooms draw without the engine's load too")
    ap.add_argument("--rounds", type=int, default=1,
                    help="alternate the two phases this many times, pooled (default 1)")
    ap.add_argument("--load-nice", type=int, default=0, metavar="N",
                    help="run the load's clients at this nice (e.g. 10, as if they were "
                    "other machines: by default they compete with the server for its "
                    "cores; the bystander, the instrument, is never lowered)")
    ap.add_argument("--serve-arg", action="append", default=[],
                    help="passed to atelier serve (repeatable)")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "atelier", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", os.path.join(folder, "mixed.sqlite3"), "--quiet",
             "--extra-game", "atelier.bench.sketch:GAME", *UNLIMITED,
             "--forwarded-allow-ips", "127.0.0.1", *args.serve_arg],
            stdout=subprocess.DEVNULL)
        try:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/healthz", timeout=5).status_code == 200:
                        break
                time.sleep(0.05)
            engine = httpx.get(base + "/healthz").json()["engine"]
            print(f"atelier bench mixed: {args.seconds:.0f} s each; load: {args.drawing} "
                  f"sketch rooms of 3 drawing every 100 ms, {args.hard} Piet rooms against "
                  f"the {args.load_level} computer (a move every {args.think:g} s), reviews from "
                  f"{args.addresses} addresses, 3 at once each; {os.cpu_count()} cores"
                  + ("; the sketch rooms draw in both phases" if args.baseline_drawing else "")
                  + (f"; {args.rounds} rounds" if args.rounds > 1 else "")
                  + (f"; the load's clients at nice {args.load_nice}" if args.load_nice else ""),
                  flush=True)
            rounds = []
            for _ in range(args.rounds):
                rounds.append((phase(base, server, args.seconds, args, loaded=False),
                               phase(base, server, args.seconds, args, loaded=True)))
            engine = httpx.get(base + "/healthz").json()["engine"]
        finally:
            server.terminate()
            server.wait(30)
    quiet, loaded = pooled([q[0] for q, _ in rounds]), pooled([lo[0] for _, lo in rounds])
    counts: Counter[str] = Counter()
    for _, lo in rounds:
        counts.update(lo[1])
    cpu_q, cpu_l = summed([q[2] for q, _ in rounds]), summed([lo[2] for _, lo in rounds])
    print(f"machine load (1 min) {cpu_q.load} -> {cpu_l.load}; the server's own process "
          f"{100 * cpu_q.loop / cpu_q.wall:.0f}% -> {100 * cpu_l.loop / cpu_l.wall:.0f}% of a "
          f"core; its engine processes {100 * cpu_q.engine / cpu_q.wall:.0f}% -> "
          f"{100 * cpu_l.engine / cpu_l.wall:.0f}% ({cpu_q.jobs} -> {cpu_l.jobs} jobs, "
          f"{1000 * cpu_l.engine / max(1, cpu_l.jobs):.0f} ms of CPU a job under load)")
    print("the bystander, alone -> under load:")
    print(line("room ping round trip", quiet.pings, loaded.pings))
    print(line("ink round trip", quiet.ink, loaded.ink))
    print(line("hard computer's reply", quiet.replies, loaded.replies))
    if len(rounds) > 1:
        for name in ("pings", "ink", "replies"):
            print(f"{name} p99 by round, alone: "
                  + ", ".join(f"{ms(getattr(q[0], name), 99):.1f}" for q, _ in rounds)
                  + "; under load: "
                  + ", ".join(f"{ms(getattr(lo[0], name), 99):.1f}" for _, lo in rounds)
                  + " ms")
    print(f"the bystander's hints: alone {quiet.hints['answered']} answered, "
          f"{quiet.hints['refused']} refused; under load {loaded.hints['answered']} answered, "
          f"{loaded.hints['refused']} refused")
    for failure in quiet.failures + loaded.failures:
        print(f"FAILED: the bystander: {failure}")
    print("the flood's answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
          + f"; engine: {engine['workers']} processes, {engine['done']} jobs done, "
          f"{engine['replaced']} stopped and replaced")
    return 0
