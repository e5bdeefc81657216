"""Whether a canvas shows ink, as the rules are told after every batch: the
answer kept between batches is the one worked out from the whole history."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from atelier.ink.codec import Begin, Clear, End, InkBatch, Op, Undo
from atelier.ink.presence import InkPresence, marks_of

OPS: list[Op] = [Begin("pen", 4, 1, 1, 0, None), Begin("eraser", 4, 1, 1, 0, None), End(),
                 Undo(0), Clear(0)]


def batch(ops: list[Op]) -> bytes:
    return marks_of(InkBatch(tuple(ops), 0, 0, frozenset()))


def from_scratch(history: list[Op]) -> bool:
    fresh = InkPresence()
    fresh.apply(batch(history))
    return fresh._walk()


def test_eraser_adds_no_ink_and_undo_and_clear_take_it_away() -> None:
    p = InkPresence()
    assert p.blank
    p.apply(batch([OPS[1], End()]))
    assert p.blank  # only the eraser
    p.apply(batch([OPS[0], End()]))
    assert not p.blank
    p.apply(batch([OPS[1], End()]))
    assert not p.blank  # rubbed out with the eraser still counts as drawn
    p.apply(batch([Undo(0), Undo(0)]))
    assert p.blank
    p.apply(batch([OPS[0], Clear(0)]))
    assert p.blank
    p.apply(batch([Undo(0)]))
    assert not p.blank


@given(st.lists(st.lists(st.sampled_from(OPS), max_size=6), max_size=12))
def test_kept_answer_is_the_whole_history_answer(batches: list[list[Op]]) -> None:
    p = InkPresence()
    history: list[Op] = []
    for ops in batches:
        p.apply(batch(ops))
        history += ops
        assert p.blank == from_scratch(history)
