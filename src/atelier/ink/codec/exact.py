"""The reference decoder: bits as text, every error named exactly.

The fast path (``fast.py``) gives up on anything unusual; this decoder then
reads the batch again and names the exact error, and reads codes longer than
the fast path's tables. It is the format's definition in code, which the
tests hold the fast path and the C scanner to.
"""

from __future__ import annotations

import re

from atelier.ink.codec.ops import (
    KXY_BITS,
    MAX_ZEROS,
    T_K,
    TOOLS,
    Begin,
    Clear,
    End,
    InkBatch,
    InkError,
    Op,
    Points,
    Undo,
    Walk,
)


class _Reader:
    """Bits as a string of '0'/'1', so that finding a code's end and reading
    its value are C-speed str operations (the server decodes every batch)."""

    __slots__ = ("bits", "end", "pos")

    def __init__(self, body: bytes) -> None:
        self.end = 8 * len(body)
        bits = format(int.from_bytes(body, "big"), f"0{self.end}b") if body else ""
        self.bits = bits + "0" * 64  # so that look-ahead windows are always full
        self.pos = 0

    def read(self, n: int) -> int:
        start = self.pos
        stop = start + n
        if stop > self.end:
            raise InkError("ink_malformed")
        self.pos = stop
        return int(self.bits[start:stop], 2)

    def eg(self, k: int) -> int:
        """An unsigned Exp-Golomb code of order ``k``."""
        start = self.pos
        one = self.bits.find("1", start, start + MAX_ZEROS + 1)
        if one < 0:
            raise InkError("ink_malformed")
        stop = 2 * one - start + 1 + k
        if stop > self.end:
            raise InkError("ink_malformed")
        self.pos = stop
        q = int(self.bits[one : 2 * one - start + 1], 2)
        if k:
            return ((q - 1) << k) | int(self.bits[stop - k : stop], 2)
        return q - 1

    def sg(self, k: int) -> int:
        """A signed (zigzag) Exp-Golomb code."""
        v = self.eg(k)
        return -(v >> 1) - 1 if v & 1 else v >> 1

    def at_end(self) -> bool:
        rest = self.end - self.pos
        return rest < 8 and self.bits.find("1", self.pos) < 0


def decode_exact(data: bytes) -> InkBatch:
    """The reference decoder: bits as text, every error named exactly."""
    r = _Reader(data[1:])
    walk = Walk()
    ops: list[Op] = []
    if r.at_end():
        raise InkError("ink_empty")
    while not r.at_end():
        op = _read_op(r)
        walk.step(op)
        ops.append(op)
    return walk.batch(tuple(ops))


def _read_op(r: _Reader) -> Op:
    if not r.read(1):
        return _read_points(r)
    if not r.read(1):
        tool = TOOLS[r.read(1)]
        has_p = r.read(1)
        width = r.read(10)
        x = r.read(12)
        y = r.read(12)
        t = r.eg(T_K)
        p = r.read(6) if has_p else None
        return Begin(tool, width, x, y, t, p)
    if not r.read(1):
        return End()
    if not r.read(1):
        return Undo(r.eg(T_K))
    return Clear(r.eg(T_K))


_SHORT_ZEROS = 5


def _short_codes(k: int) -> tuple[str, dict[str, int]]:
    """A regex for an order-k code with few leading zeros, and the signed
    value of each such code."""
    values: dict[str, int] = {}
    for z in range(_SHORT_ZEROS + 1):
        for q in range(1 << z, 2 << z):
            for low in range(1 << k):
                v = ((q - 1) << k) | low
                code = "0" * z + format(q, "b") + (format(low, f"0{k}b") if k else "")
                values[code] = -(v >> 1) - 1 if v & 1 else v >> 1
    heads = "|".join("0" * z + "1" + (f"[01]{{{z}}}" if z else "") for z in range(_SHORT_ZEROS + 1))
    return f"((?:{heads}){f'[01]{{{k}}}' if k else ''})", values


_SHORT = [_short_codes(k) for k in range(1 << KXY_BITS)]
_POINT = {
    (k, has_p): re.compile(_SHORT[k][0] * 2 + _SHORT[0][0] * (2 if has_p else 1))
    for k in range(1 << KXY_BITS)
    for has_p in (False, True)
}


def _read_points(r: _Reader) -> Points:
    has_p = r.read(1)
    n = r.eg(0) + 1
    # Every point takes at least three bits: a larger count is a lie.
    if 3 * n > r.end - r.pos:
        raise InkError("ink_malformed")
    k = r.read(KXY_BITS)
    # One regex match per point whose codes are all short (nearly all of
    # them), each code's value a dict look-up; any other point the slow way.
    match = _POINT[k, bool(has_p)].match
    vk, v0 = _SHORT[k][1], _SHORT[0][1]
    bits = r.bits
    sg = r.sg
    dx = dy = dt = 0
    out: list[int] = []
    for _ in range(n):
        m = match(bits, r.pos)
        if m is not None and m.end() <= r.end:
            g = m.groups()
            r.pos = m.end()
            dx += vk[g[0]]
            dy += vk[g[1]]
            dt += v0[g[2]]
            out += (dx, dy, dt, v0[g[3]] if has_p else 0)
        else:
            dx += sg(k)
            dy += sg(k)
            dt += sg(0)
            out += (dx, dy, dt, sg(0) if has_p else 0)
    return Points(tuple(out), bool(has_p))
