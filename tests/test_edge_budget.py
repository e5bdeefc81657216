"""The budget for unfinished requests, a body's deadline and the abuse summary, as
pure bookkeeping (tests/test_server_bodies.py runs them in a real server)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from atelier.server.cli import parser
from atelier.server.edge.abuse import MAX_ADDRESSES, AbuseLog
from atelier.server.edge.budget import BodyRules, PendingBudget, pending_limit


class Conn:
    def __init__(self, name: str) -> None:
        self.name = name
        self.shed_count = 0

    def shed(self) -> None:
        self.shed_count += 1


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_limit_comes_from_the_file_limit_and_the_memory() -> None:
    assert pending_limit(20_000, 1 << 30, 12 * 1024) == 10_000  # half the files
    assert pending_limit(1_000_000, 32 << 20, 12 * 1024) == 2730  # what 32 MiB holds
    assert pending_limit(1, 0) == 1


def test_a_newcomer_takes_the_place_of_the_slowest_of_the_oldest() -> None:
    clock = Clock()
    shed: list[str] = []
    budget = PendingBudget(3, 1 << 20, per_connection=100, on_shed=shed.append, clock=clock)
    conns = [Conn(f"c{i}") for i in range(3)]
    entries = []
    for i, conn in enumerate(conns):
        entries.append(budget.enter(conn, f"10.0.0.{i}"))
        clock.now += 1
    assert entries[0] is not None and entries[1] is not None
    entries[0].grow(5000)  # the oldest is sending; the second is silent
    newcomer = budget.enter(Conn("new"), "10.0.0.9")
    assert newcomer is not None
    assert [c.shed_count for c in conns] == [0, 1, 0]
    assert shed == ["10.0.0.1"]
    assert len(budget) == 3
    assert budget.bytes == 3 * 100 + 5000
    entries[1].leave()  # already gone: nothing changes
    assert len(budget) == 3


def test_when_full_an_address_holding_its_share_is_refused() -> None:
    budget = PendingBudget(4, 1 << 20, per_connection=100)
    attacker = [budget.enter(Conn("a"), "10.0.0.1") for _ in range(4)]
    assert all(attacker)
    assert budget.enter(Conn("a"), "10.0.0.1") is None  # holds all: refused, none shed
    assert budget.refused_count == 1 and budget.shed_count == 0
    assert budget.enter(Conn("b"), "10.0.0.2") is not None  # a newcomer: one is shed
    assert budget.shed_count == 1


def test_memory_is_charged_by_what_arrived_and_sheds_over_the_bytes() -> None:
    clock = Clock()
    budget = PendingBudget(100, 1000, per_connection=100, clock=clock)
    slow, fast = Conn("slow"), Conn("fast")
    first = budget.enter(slow, "10.0.0.1")
    clock.now = 1
    second = budget.enter(fast, "10.0.0.2")
    assert first is not None and second is not None
    assert budget.bytes == 200  # nothing announced is charged
    clock.now = 2
    first.grow(10)
    second.grow(900)  # over 1,000: the slower of the oldest goes
    assert (slow.shed_count, fast.shed_count) == (1, 0)
    assert budget.bytes == 100 + 900


def test_a_body_is_due_after_a_pause_or_below_the_rate() -> None:
    rules = BodyRules(seconds=10, min_rate=100)
    assert rules.due(started=0, last=0, received=0) == 10  # nothing came
    assert rules.due(started=0, last=9, received=5000) == 19  # a pause after a good start
    assert rules.due(started=0, last=30, received=1000) == 20  # a trickle: 1,000 bytes in 30 s
    assert BodyRules(10, 0).due(0, 30, 1) == 40  # no minimum rate


async def test_abuse_is_logged_as_one_summary(caplog: pytest.LogCaptureFixture) -> None:
    abuse = AbuseLog(every=0.05, logger=logging.getLogger("test.abuse"))
    with caplog.at_level(logging.DEBUG, "test.abuse"):
        for i in range(30):
            abuse.count("body_timeout", f"127.0.0.{i % 3}")
        abuse.count("left_mid_body", "127.0.0.9")
        debug_lines = len(caplog.records)
        caplog.clear()
        while abuse.timer is not None:
            await asyncio.sleep(0.01)
    assert debug_lines == 31  # each event at debug only
    [line] = caplog.records
    assert line.levelno == logging.WARNING
    assert line.getMessage() == (
        "in the last 0.05 s: request bodies too slow or stopped (408): 30 from 3 addresses "
        "(127.0.0.0: 10, 127.0.0.1: 10, 127.0.0.2: 10); clients gone before sending their "
        "whole body: 1 from 1 address (127.0.0.9: 1)")


async def test_the_summary_counts_few_addresses_apart() -> None:
    abuse = AbuseLog(every=60)
    for i in range(MAX_ADDRESSES + 50):
        abuse.count("shed", f"2001:db8::{i:x}")
    assert len(abuse.counts["shed"]) == MAX_ADDRESSES + 1  # the rest are "others"
    assert abuse.counts["shed"]["others"] == 50
    abuse.close()


def test_the_options_are_in_the_help() -> None:
    text = parser().format_help()
    for option in ("--body-timeout", "--body-min-rate", "--pending-memory", "--max-pending",
                   "--abuse-log-every"):
        assert option in text
