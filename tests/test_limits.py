"""A connection's ink buckets: a burst passes, a flood is refused, and a refusal
spends nothing (the client's next batch is judged on what it really sent)."""

from __future__ import annotations

from atelier.server.edge.limits import (
    INK_BYTES_BURST,
    INK_FRAMES_BURST,
    INK_FRAMES_PER_SECOND,
    Limits,
)


def test_a_burst_of_batches_passes_then_the_flood_is_refused_until_it_refills() -> None:
    limits = Limits()
    assert all(limits.ink.take(10, 5.0) for _ in range(int(INK_FRAMES_BURST)))
    assert not limits.ink.take(10, 5.0)
    assert limits.ink.take(10, 5.0 + 1.5 / INK_FRAMES_PER_SECOND)


def test_a_batch_too_big_for_the_bytes_left_spends_no_batch() -> None:
    limits = Limits()
    assert not limits.ink.take(int(INK_BYTES_BURST) + 1, 5.0)
    assert limits.ink.batches == INK_FRAMES_BURST  # nothing spent
    assert all(limits.ink.take(10, 5.0) for _ in range(int(INK_FRAMES_BURST)))


def test_the_wait_is_until_the_allowance_holds_the_batch() -> None:
    limits = Limits()
    while limits.ink.take(10, 5.0):
        pass
    wait = limits.ink.wait(10, 5.0)
    assert 0 < wait <= 1 / INK_FRAMES_PER_SECOND
    assert not limits.ink.take(10, 5.0 + wait / 2)
    assert limits.ink.take(10, 5.0 + wait * 1.01)
    assert limits.ink.wait(10, 100.0) == 0.0


def test_the_allowance_spends_and_refills_as_two_plain_token_buckets() -> None:
    """``take`` has its refill written out for speed; it must still be exactly the
    two buckets (refilled at their rates up to their bursts, both spent or
    neither), held against a plain model over random batches and pauses."""
    import random

    from atelier.server.edge.limits import INK_BYTES_PER_SECOND, InkAllowance

    rng = random.Random(7)
    ink = InkAllowance()
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
