"""``atelier bench crash``: a server killed (SIGKILL) while rooms draw loses no
ink that another screen showed, once it is started again on the same store.

The end-to-end tests run the benchmark small over real sockets and a real
server process; the first one's arithmetic is checked without sockets."""

from __future__ import annotations

import asyncio

import pytest

from atelier.bench import crash
from atelier.bench.crash import Book, Drawn, Tally
from support.server import PG_URL

A, B, C = b"\x01a", b"\x01b", b"\x01c"


def test_a_seen_batch_not_at_its_place_after_the_restart_is_missing() -> None:
    before = Book()
    for i, batch in enumerate((A, B, C)):  # seat 0 of room R: three batches seen
        before.see(("R", "k", 0), i, batch)
    before.see(("R", "k", 1), 0, A)
    before.see(("R", "k", 1), 0, B)  # another screen got another batch there
    after = Book()
    after.drawings = {("R", "k", 0): [A, C], ("R", "k", 1): [A, B, C], ("S", "k", 0): [A]}
    drawn = Drawn(["R", "S"], before, {("R", 0): 5, ("R", 1): 3, ("S", 0): 1}, 0, [])
    t = crash.compare(drawn, after, 1.5)
    assert (t.seen, t.conflicts) == (3 + 1, 1)
    # seat 0: B's place holds C, C's is gone; seat 1: the other screen's B is not at 0
    assert (t.missing, t.rooms_missing) == (2 + 1, 1)
    assert t.kept_unseen == 2 + 1  # seat 1's B and C, room S's drawing nobody watched
    assert (t.sent, t.neither) == (5 + 3 + 1, (5 - 3) + 0 + 0)
    assert t.restarts == [1.5]


KILLS = 2
"""One kill now and then happens before anything taken since the last write was
relayed: two make a loss much harder to miss."""


def small(**changes: object) -> crash.Setup:
    setup = crash.Setup(rooms=3, players=3, spectators=1, seconds=2, kills=KILLS)
    for name, value in changes.items():
        setattr(setup, name, value)
    return setup


def assert_nothing_seen_lost(tallies: list[Tally]) -> None:
    assert len(tallies) == KILLS
    report = "\n".join(crash.kill_lines(f"kill {k}", t) for k, t in enumerate(tallies, 1))
    for t in tallies:
        assert t.rooms == 3 and t.seen > 0, report
        # the screens agree and the run itself went as meant
        assert (t.conflicts, t.unplaced, t.lost_before, t.errors) == (0, 0, 0, 0), report
    assert [t.missing for t in tallies] == [0] * KILLS, report


async def test_a_killed_server_keeps_every_batch_a_screen_showed() -> None:
    assert_nothing_seen_lost(await crash.bench(small()))


@pytest.mark.postgres
async def test_a_killed_server_keeps_every_batch_a_screen_showed_on_postgresql() -> None:
    assert_nothing_seen_lost(await crash.bench(small(database_url=PG_URL)))


def test_the_command_runs_the_benchmark(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``atelier bench crash`` prints each kill and the totals, and fails on a loss."""
    async def one_loss(setup: crash.Setup, say: object) -> list[Tally]:
        await asyncio.sleep(0)
        assert (setup.rooms, setup.kills, setup.serve_args) == (4, 2, ["--workers=2"])
        return [Tally(rooms=4, seen=10, restarts=[1.0]),
                Tally(rooms=4, seen=12, missing=3, drawers=24, restarts=[2.0])]

    monkeypatch.setattr(crash, "bench", one_loss)
    from atelier.bench.cli import main

    assert main(["crash", "--rooms", "4", "--kills", "2", "--serve-arg=--workers=2"]) == 1
    out, err = capsys.readouterr()
    assert "totals over 2 kills: 8 rooms" in out
    assert "seen by other screens before the kill: 22; of those missing after the restart: 3" \
        in out
    assert "restart answered /healthz in 1.0, 2.0 s" in out
    assert "FAILED: 3 seen batches missing" in err
