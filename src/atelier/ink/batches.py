"""A drawing's batches, in order, kept in one buffer.

A room keeps every batch of the round's drawings in memory (a client that joins
or reconnects is sent them all). As a list of ``bytes`` that is one reference per
batch for Python's garbage collector to walk on every full collection: with many
drawing rooms, its pauses were most of the slowest deliveries (docs/performance.md
has the figures).
Here a drawing is two objects the collector does not look into, whatever its
length: a ``bytearray`` of the batches end to end and an ``array`` of where each ends.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import overload


class BatchLog(Sequence[bytes]):
    __slots__ = ("_data", "_ends", "size")

    def __init__(self, batches: Iterable[bytes] = ()) -> None:
        self._data = bytearray()
        self._ends = array("Q")
        self.size = 0
        """The bytes of all its batches (a slot, not a property: the server reads
        it before every batch it keeps, and a property is a call)."""
        for batch in batches:
            self.append(batch)

    def append(self, batch: bytes) -> int:
        """Add a batch; its number in the drawing."""
        data = self._data
        data += batch
        size = self.size = len(data)
        ends = self._ends
        ends.append(size)
        return len(ends) - 1

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self._ends)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("batch number out of range")
        start = self._ends[index - 1] if index else 0
        return bytes(self._data[start : self._ends[index]])

    def __iter__(self) -> Iterator[bytes]:
        data, start = self._data, 0
        for end in self._ends:
            yield bytes(data[start:end])
            start = end

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BatchLog):
            return self._data == other._data and self._ends == other._ends
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"BatchLog({len(self)} batches, {len(self._data)} bytes)"
