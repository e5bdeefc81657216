"""A drawing's batches kept end to end behave as the list they replace."""

from __future__ import annotations

import gc
from array import array

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atelier.ink.batches import BatchLog


@given(st.lists(st.binary(max_size=40), max_size=30), st.integers(-35, 35),
       st.integers(-35, 35))
def test_reads_back_as_the_list(batches: list[bytes], i: int, j: int) -> None:
    log = BatchLog()
    numbers = [log.append(b) for b in batches]
    assert numbers == list(range(len(batches)))
    assert len(log) == len(batches)
    assert list(log) == batches
    assert log == batches
    assert log[i:j] == batches[i:j]
    if -len(batches) <= i < len(batches):
        assert log[i] == batches[i]
    else:
        with pytest.raises(IndexError):
            log[i]


def test_the_collector_does_not_walk_the_batches() -> None:
    # the reason for the class: no reference per batch for gc to visit
    log = BatchLog(bytes([n % 256]) * 20 for n in range(10_000))
    # the buffer, the ends, the size (one integer) and the class, however many
    # batches: nothing the collector would walk into
    refs = gc.get_referents(log)
    assert len(refs) <= 4
    assert all(isinstance(r, bytearray | array | int | type) for r in refs), refs
