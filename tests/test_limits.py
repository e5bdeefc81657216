"""A connection's ink buckets: a burst passes, a flood is refused, and a refusal
spends nothing (the client's next batch is judged on what it really sent).
Each test runs on the compiled allowance (``_allowance.c``, what the server
uses) and on the Python one (where no C compiler was at hand) alike."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from atelier.server.edge import limits as lim
from atelier.server.edge.limits import (
    INK_BYTES_BURST,
    INK_FRAMES_BURST,
    INK_FRAMES_PER_SECOND,
    Allowance,
    InkAllowancePy,
    Limits,
)

KINDS: dict[str, Callable[[], Allowance]] = {"python": InkAllowancePy}
if lim.COMPILED is not None:
    KINDS["compiled"] = lim.InkAllowance


@pytest.fixture(params=sorted(KINDS))
def make(request: pytest.FixtureRequest) -> Callable[[], Allowance]:
    return KINDS[request.param]


def test_the_server_uses_the_compiled_allowance_where_it_was_built() -> None:
    """setup.py builds it wherever there is a C compiler (here there is one)."""
    assert lim.COMPILED is not None
    assert type(Limits().ink) is lim.COMPILED


def test_a_burst_of_batches_passes_then_the_flood_is_refused_until_it_refills(
        make: Callable[[], Allowance]) -> None:
    ink = make()
    assert all(ink.take(10, 5.0) for _ in range(int(INK_FRAMES_BURST)))
    assert not ink.take(10, 5.0)
    assert ink.take(10, 5.0 + 1.5 / INK_FRAMES_PER_SECOND)


def test_a_batch_too_big_for_the_bytes_left_spends_no_batch(
        make: Callable[[], Allowance]) -> None:
    ink = make()
    assert not ink.holds(int(INK_BYTES_BURST) + 1) and ink.holds(int(INK_BYTES_BURST))
    assert not ink.take(int(INK_BYTES_BURST) + 1, 5.0)
    assert ink.batches == INK_FRAMES_BURST  # nothing spent
    assert all(ink.take(10, 5.0) for _ in range(int(INK_FRAMES_BURST)))


def test_the_wait_is_until_the_allowance_holds_the_batch(make: Callable[[], Allowance]) -> None:
    ink = make()
    while ink.take(10, 5.0):
        pass
    wait = ink.wait(10, 5.0)
    assert 0 < wait <= 1 / INK_FRAMES_PER_SECOND
    assert not ink.take(10, 5.0 + wait / 2)
    assert ink.take(10, 5.0 + wait * 1.01)
    assert ink.wait(10, 100.0) == 0.0


def test_take_now_reads_the_monotonic_clock(make: Callable[[], Allowance]) -> None:
    ink = make()
    before = time.monotonic()
    assert ink.take_now(10)
    assert before <= ink.stamp <= time.monotonic()
    while ink.take_now(10):  # the burst, spent within microseconds
        pass
    assert ink.batches < 1


def test_the_allowance_spends_and_refills_as_two_plain_token_buckets(
        make: Callable[[], Allowance]) -> None:
    """``take`` has its refill written out for speed; it must still be exactly the
    two buckets (refilled at their rates up to their bursts, both spent or
    neither), held against a plain model over random batches and pauses."""
    import random

    from atelier.server.edge.limits import INK_BYTES_PER_SECOND

    rng = random.Random(7)
    ink = make()
    batches, room, then = INK_FRAMES_BURST, INK_BYTES_BURST, None
    now = 100.0
    for _ in range(20_000):
        now += rng.choice((0.0, 0.0, 0.001, 0.02, 0.05, 0.3, 3.0))
        size = rng.choice((20, 300, 4000, 40_000, int(INK_BYTES_BURST) + 1))
        if then is not None:
            batches = min(INK_FRAMES_BURST, batches + (now - then) * INK_FRAMES_PER_SECOND)
            room = min(INK_BYTES_BURST, room + (now - then) * INK_BYTES_PER_SECOND)
        then = now
        expected = batches >= 1 and room >= size
        if expected:
            batches, room = batches - 1, room - size
        assert ink.take(size, now) is expected
        assert (ink.batches, ink.bytes) == (batches, room)
