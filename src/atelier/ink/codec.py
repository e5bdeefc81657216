"""The ink wire format: one batch of stroke operations in a few bytes.

A batch is a version byte followed by a bit stream (most significant bit
first) of operations, padded with fewer than eight zero bits. Numbers are
zigzag Exp-Golomb codes, and a stroke's points are coded as second
differences, so a smooth stroke costs about two bytes per point with its
timing and pressure. docs/ink.md describes the format bit by bit; codec.js
mirrors this module exactly (tests compare the two).

Strokes may span batches: a ``Points`` operation continues the stroke that
is open on the receiving side, relative to its last point. ``decode_batch``
checks everything one batch can show; :class:`atelier.ink.guard.InkGuard`
checks a batch against the drawing so far.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from atelier.errors import RuleError

VERSION = 1
CANVAS_SIZE = 4096
"""Side of the logical square canvas; every screen maps it to its own pixels."""
MARGIN = CANVAS_SIZE // 2
"""How far a stroke may leave the canvas (to come back in); it starts inside."""
MAX_BATCH_BYTES = 16 * 1024
MAX_POINTS_PER_STROKE = 5000
MAX_STROKES_PER_DRAWING = 3000
MAX_WIDTH = 1023
MAX_PRESSURE = 63
"""Pressure is quantised to 0..63; a stroke without pressure is simulated
from its speed by whoever draws it (geometry.py, stroke.js)."""
MAX_TIME_MS = 24 * 3600 * 1000
TOOLS = ("pen", "eraser")

_LOW = -MARGIN
_HIGH = CANVAS_SIZE + MARGIN  # exclusive
_SPAN = _HIGH - _LOW
_MAX_ZEROS = 32
_T_K = 10  # Exp-Golomb order for times in ms since the drawing began
_KXY_BITS = 3


class InkError(RuleError):
    """Malformed, out of bounds or oversized ink. ``code`` is stable and
    translated as ``error.<code>`` (content/strings/ink.json)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, **params)


@dataclass(frozen=True, slots=True)
class Begin:
    """Start a stroke at an absolute point; ``t`` is ms since the drawing's
    first stroke; ``pressure`` is None when the device has none."""

    tool: str
    width: int
    x: int
    y: int
    t: int
    pressure: int | None = None


@dataclass(frozen=True, slots=True)
class Points:
    """More points of the open stroke: ``deltas`` holds (dx, dy, dt, dp) per
    point, each relative to the point before (dp is 0 without pressure)."""

    deltas: tuple[int, ...]
    pressure: bool = False

    @property
    def count(self) -> int:
        return len(self.deltas) // 4


@dataclass(frozen=True, slots=True)
class End:
    """End the open stroke."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last stroke or clear (at ``t`` ms)."""

    t: int


@dataclass(frozen=True, slots=True)
class Clear:
    """Wipe the canvas (at ``t`` ms); an undo brings the ink back."""

    t: int


Op = Begin | Points | End | Undo | Clear


@dataclass(frozen=True, slots=True)
class InkBatch:
    ops: tuple[Op, ...]
    strokes_begun: int
    points: int
    tools: frozenset[str]


# --- checks shared by both directions -------------------------------------------------


class _Walk:
    """What one batch shows about its strokes, checked op by op.

    ``open`` is True/False when the batch itself shows whether a stroke is
    open, None before that (a batch may continue a stroke from an earlier
    one); positions are absolute when known, else relative to the batch's
    unknown starting point."""

    __slots__ = ("begun", "count", "open", "p", "points", "t", "tools", "x", "y")

    def __init__(self) -> None:
        self.open: bool | None = None
        self.x = self.y = self.t = self.p = 0
        self.count = 0  # points of the open stroke seen in this batch
        self.begun = 0
        self.points = 0
        self.tools: set[str] = set()

    def begin(self, op: Begin) -> None:
        if self.open:
            raise InkError("ink_stroke_open")
        if op.tool not in TOOLS:
            raise InkError("ink_malformed")
        if not 1 <= op.width <= MAX_WIDTH:
            raise InkError("ink_bad_width", max=MAX_WIDTH)
        if not (0 <= op.x < CANVAS_SIZE and 0 <= op.y < CANVAS_SIZE):
            raise InkError("ink_out_of_bounds")
        if not 0 <= op.t <= MAX_TIME_MS:
            raise InkError("ink_too_long")
        if op.pressure is not None and not 0 <= op.pressure <= MAX_PRESSURE:
            raise InkError("ink_malformed")
        self.open = True
        self.x, self.y, self.t, self.p = op.x, op.y, op.t, op.pressure or 0
        self.count = 1
        self.begun += 1
        self.points += 1
        self.tools.add(op.tool)

    def extend(self, op: Points) -> None:
        if self.open is False:
            raise InkError("ink_no_stroke")
        n = op.count
        d = op.deltas
        if n < 1 or len(d) != 4 * n:
            raise InkError("ink_malformed")
        known = self.open is True
        # Relative to an unknown start, a stroke may still span the whole range.
        lo, hi = (_LOW, _HIGH) if known else (-_SPAN, _SPAN)
        plo, phi = (0, MAX_PRESSURE) if known else (-MAX_PRESSURE, MAX_PRESSURE)
        # accumulate/min/max run in C: the server checks every point it relays
        xs = list(accumulate(d[0::4], initial=self.x))
        ys = list(accumulate(d[1::4], initial=self.y))
        if not (lo <= min(xs) and max(xs) < hi and lo <= min(ys) and max(ys) < hi):
            raise InkError("ink_out_of_bounds")
        if min(d[2::4]) < 0:
            raise InkError("ink_malformed")
        if op.pressure:
            ps = list(accumulate(d[3::4], initial=self.p))
            if not (plo <= min(ps) and max(ps) <= phi):
                raise InkError("ink_malformed")
        elif any(d[3::4]):
            raise InkError("ink_malformed")
        t = self.t + sum(d[2::4])
        if t > MAX_TIME_MS:
            raise InkError("ink_too_long")
        self.count += n
        if self.count > MAX_POINTS_PER_STROKE:
            raise InkError("ink_too_many_points", max=MAX_POINTS_PER_STROKE)
        self.x, self.y, self.t = xs[-1], ys[-1], t
        if op.pressure:
            self.p = ps[-1]
        self.points += n

    def close(self) -> None:
        if self.open is False:
            raise InkError("ink_no_stroke")
        self.open = False

    def timed(self, t: int, tool: str) -> None:
        if self.open:
            raise InkError("ink_stroke_open")
        if not 0 <= t <= MAX_TIME_MS:
            raise InkError("ink_too_long")
        self.open = False
        self.tools.add(tool)

    def step(self, op: Op) -> None:
        if isinstance(op, Points):
            self.extend(op)
        elif isinstance(op, Begin):
            self.begin(op)
        elif isinstance(op, End):
            self.close()
        elif isinstance(op, Undo):
            self.timed(op.t, "undo")
        elif isinstance(op, Clear):
            self.timed(op.t, "clear")
        else:
            raise InkError("ink_malformed")

    def batch(self, ops: tuple[Op, ...]) -> InkBatch:
        return InkBatch(ops, self.begun, self.points, frozenset(self.tools))


# --- decoding -------------------------------------------------------------------------


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
        one = self.bits.find("1", start, start + _MAX_ZEROS + 1)
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


def decode_batch(data: bytes) -> InkBatch:
    """The operations in one batch; InkError (and nothing else) if it is
    malformed, out of bounds or oversized."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InkError("ink_malformed")
    data = bytes(data)
    if not data:
        raise InkError("ink_empty")
    if len(data) > MAX_BATCH_BYTES:
        raise InkError("ink_too_large", size=len(data), max=MAX_BATCH_BYTES)
    if data[0] != VERSION:
        raise InkError("ink_version", version=data[0])
    try:
        return _decode_fast(data)[0]
    except _Doubt:
        return _decode_exact(data)


def _decode_exact(data: bytes) -> InkBatch:
    """The reference decoder: bits as text, every error named exactly."""
    r = _Reader(data[1:])
    walk = _Walk()
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
        t = r.eg(_T_K)
        p = r.read(6) if has_p else None
        return Begin(tool, width, x, y, t, p)
    if not r.read(1):
        return End()
    if not r.read(1):
        return Undo(r.eg(_T_K))
    return Clear(r.eg(_T_K))


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


_SHORT = [_short_codes(k) for k in range(1 << _KXY_BITS)]
_POINT = {
    (k, has_p): re.compile(_SHORT[k][0] * 2 + _SHORT[0][0] * (2 if has_p else 1))
    for k in range(1 << _KXY_BITS)
    for has_p in (False, True)
}


def _read_points(r: _Reader) -> Points:
    has_p = r.read(1)
    n = r.eg(0) + 1
    # Every point takes at least three bits: a larger count is a lie.
    if 3 * n > r.end - r.pos:
        raise InkError("ink_malformed")
    k = r.read(_KXY_BITS)
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


# --- the fast path ----------------------------------------------------------------------
#
# The server decodes every batch it relays, so the common case is table-driven:
# bits are read from Python ints made of a few bytes at a time, and each
# Exp-Golomb code of up to 16 bits is one list look-up giving its signed value
# and length. Anything unusual (a longer code, an error of any kind) is a
# _Doubt, and the batch is decoded again by the reference path above, which
# names the exact error. tests/test_ink_codec.py checks that both agree.


class _Doubt(Exception):
    """The fast path cannot vouch for this batch."""


_TABLE_BITS = 16
_TABLE_MASK = (1 << _TABLE_BITS) - 1
_WINDOW_POINTS = 6
"""Points read from one window: 6 points of at most 4 codes of 16 bits, plus
the up to 7 bits before the window's first code, fit in 52 bytes."""
_WINDOW_BYTES = 52
_PAD = bytes(_WINDOW_BYTES + 16)


def _signed_table(k: int) -> list[int]:
    """For every 16-bit window: the zigzag-decoded value of the order-k code
    it starts with and that code's length, as ``value << 5 | length``; 0 when
    the code is longer than the window."""
    table = [0] * (1 << _TABLE_BITS)
    z = 0
    while 2 * z + 1 + k <= _TABLE_BITS:
        length = 2 * z + 1 + k
        span = 1 << (_TABLE_BITS - length)
        # after z zeros, the code is z + 1 + k bits whose first is 1
        for code in range(1 << (z + k), 2 << (z + k)):
            v = code - (1 << k)
            signed = -(v >> 1) - 1 if v & 1 else v >> 1
            start = code << (_TABLE_BITS - length)
            table[start : start + span] = [signed << 5 | length] * span
        z += 1
    return table


_TABLES = [_signed_table(k) for k in range(1 << _KXY_BITS)]
_Pair = tuple[int, int, int]
_PAIRS: list[list[_Pair | None] | None] = [None] * (1 << _KXY_BITS)
_PAIR_MAX_K = 4
"""Larger orders' pair tables would take long to build for the few points
that could use them."""


def _pair_table(k: int) -> list[_Pair | None]:
    """For every 16-bit window: the signed values of the two order-k codes it
    starts with and their total length, when both fit (one look-up reads a
    point's x and y, or its time and pressure)."""
    found = _PAIRS[k]
    if found is not None:
        return found
    if k > _PAIR_MAX_K:
        # two codes of order 5 and more rarely fit 16 bits: one at a time
        found = _PAIRS[k] = [None] * (1 << _TABLE_BITS)
        return found
    codes: list[tuple[int, int, int]] = []  # (code, length, value)
    z = 0
    while 2 * z + 1 + k < _TABLE_BITS:
        length = 2 * z + 1 + k
        for code in range(1 << (z + k), 2 << (z + k)):
            v = code - (1 << k)
            codes.append((code, length, -(v >> 1) - 1 if v & 1 else v >> 1))
        z += 1
    table: list[_Pair | None] = [None] * (1 << _TABLE_BITS)
    for c1, l1, v1 in codes:
        for c2, l2, v2 in codes:
            both = l1 + l2
            if both <= _TABLE_BITS:
                start = ((c1 << l2) | c2) << (_TABLE_BITS - both)
                span = 1 << (_TABLE_BITS - both)
                table[start : start + span] = [(v1, v2, both)] * span
    _PAIRS[k] = table
    return table


Stroke = tuple[int, int, int, int, int, bool]
"""An open stroke as the guard knows it: x, y, t, pressure, points so far,
whether it has pressure."""


def _decode_fast(data: bytes, start: Stroke | bool | None = None
                 ) -> tuple[InkBatch, Stroke | None]:
    """The batch, checked as ``_Walk`` does (never more leniently), and the
    stroke open after it; _Doubt for anything else.

    ``start`` is the stroke open before the batch (the guard knows it), False
    if none is, None if unknown (then a stroke continued from an earlier batch
    is checked relative to its unknown start, as ``_Walk`` does). Known
    absolute positions are checked against the canvas and its margin, which
    also keeps them within the relative bounds."""
    buf = data + _PAD
    end = 8 * len(data)  # bit positions count from the version byte
    pos = 8
    ops: list[Op] = []
    from_bytes = int.from_bytes
    is_open: bool | None = None if start is None else bool(start)
    x = y = t = p = count = begun = points = 0
    stroke_p: int | None = None  # whether the open stroke has pressure, if known
    if isinstance(start, tuple):
        x, y, t, p, count, with_p = start
        stroke_p = int(with_p)
    tools: set[str] = set()
    while True:
        left = end - pos
        if left < 8 and not (from_bytes(buf[pos >> 3 : (pos >> 3) + 2], "big")
                             >> (16 - (pos & 7) - left)) & ((1 << left) - 1):
            break  # only the zero padding is left
        b = pos >> 3
        head = (from_bytes(buf[b : b + 8], "big") >> (24 - (pos & 7))) & 0xFFFFFFFFFF
        # head: the next 40 bits
        if not head >> 39:
            has_p = (head >> 38) & 1
            if is_open is False or (stroke_p is not None and has_p != stroke_p):
                raise _Doubt
            dx, dy, dt, dp, pos = _fast_points(buf, pos + 1, has_p)
            n = len(dx)
            xs = list(accumulate(dx, initial=x))
            ys = list(accumulate(dy, initial=y))
            lo, hi = (_LOW, _HIGH) if is_open else (-_SPAN, _SPAN)
            if not (lo <= min(xs) and max(xs) < hi and lo <= min(ys) and max(ys) < hi):
                raise _Doubt
            if min(dt) < 0:
                raise _Doubt
            if has_p:
                ps = list(accumulate(dp, initial=p))
                if not (min(ps) >= (0 if is_open else -MAX_PRESSURE)
                        and max(ps) <= MAX_PRESSURE):
                    raise _Doubt
                p = ps[-1]
            t += sum(dt)
            count += n
            if t > MAX_TIME_MS or count > MAX_POINTS_PER_STROKE:
                raise _Doubt
            x, y = xs[-1], ys[-1]
            points += n
            out = [0] * (4 * n)
            out[0::4] = dx
            out[1::4] = dy
            out[2::4] = dt
            if has_p:
                out[3::4] = dp
            ops.append(Points(tuple(out), bool(has_p)))
        elif not (head >> 38) & 1:
            if is_open:
                raise _Doubt
            has_p = (head >> 36) & 1
            # tool, pressure flag, width (10), x (12), y (12): 36 bits after "10"
            width = (head >> 26) & 0x3FF
            x = (head >> 14) & 0xFFF
            y = (head >> 2) & 0xFFF
            t, pos = _fast_eg(buf, pos + 38, _T_K)
            if not width or t > MAX_TIME_MS:
                raise _Doubt
            pressure = None
            if has_p:
                b = pos >> 3
                pressure = (from_bytes(buf[b : b + 2], "big") >> (10 - (pos & 7))) & 63
                pos += 6
            tool = TOOLS[(head >> 37) & 1]
            ops.append(Begin(tool, width, x, y, t, pressure))
            tools.add(tool)
            is_open, stroke_p, p, count = True, has_p, pressure or 0, 1
            begun += 1
            points += 1
        elif not (head >> 37) & 1:
            if is_open is False:
                raise _Doubt
            ops.append(End())
            is_open = False
            pos += 3
        else:
            if is_open:
                raise _Doubt
            when, pos = _fast_eg(buf, pos + 4, _T_K)
            if when > MAX_TIME_MS:
                raise _Doubt
            if (head >> 36) & 1:
                ops.append(Clear(when))
                tools.add("clear")
            else:
                ops.append(Undo(when))
                tools.add("undo")
            is_open = False
        if pos > end:
            raise _Doubt
    if not ops:
        raise _Doubt
    after = (x, y, t, p, count, bool(stroke_p)) if is_open else None
    return InkBatch(tuple(ops), begun, points, frozenset(tools)), after


def _fast_eg(buf: bytes, pos: int, k: int) -> tuple[int, int]:
    """An unsigned order-k code at ``pos``: its value and the position after it."""
    b = pos >> 3
    avail = 96 - (pos & 7)
    w = int.from_bytes(buf[b : b + 12], "big") & ((1 << avail) - 1)
    zeros = avail - w.bit_length()
    if zeros > _MAX_ZEROS:
        raise _Doubt
    length = 2 * zeros + 1 + k
    return (w >> (avail - length)) - (1 << k), pos + length


def _fast_points(buf: bytes, pos: int, has_p: int) -> tuple[
        list[int], list[int], list[int], tuple[int, ...], int]:
    """A Points op after its first bit: the (dx, dy, dt, dp) of each point
    and the position after it."""
    from_bytes = int.from_bytes
    n, pos = _fast_eg(buf, pos + 1, 0)
    n += 1
    if 3 * n > 8 * (len(buf) - len(_PAD)) - pos:
        raise _Doubt
    b = pos >> 3
    k = (from_bytes(buf[b : b + 2], "big") >> (13 - (pos & 7))) & 7
    pos += 3
    tk, t0, pk, p0 = _TABLES[k], _TABLES[0], _pair_table(k), _pair_table(0)
    xy: list[_Pair] = []
    tp: list[_Pair] = []  # with pressure: (t, p) pairs
    st: list[int] = []  # without: t alone
    top = 8 * _WINDOW_BYTES - _TABLE_BITS
    mask = _TABLE_MASK
    done = 0
    while done < n:
        b = pos >> 3
        w = from_bytes(buf[b : b + _WINDOW_BYTES], "big")
        sh = start = top - (pos & 7)
        for _ in range(min(_WINDOW_POINTS, n - done)):
            pair = pk[(w >> sh) & mask]
            if pair is None:
                pair = _two_codes(w, sh, tk)
            xy.append(pair)
            sh -= pair[2]
            if has_p:
                pair = p0[(w >> sh) & mask]
                if pair is None:
                    pair = _two_codes(w, sh, t0)
                tp.append(pair)
                sh -= pair[2]
            else:
                e = t0[(w >> sh) & mask]
                if not e:
                    raise _Doubt
                st.append(e >> 5)
                sh -= e & 31
        done += min(_WINDOW_POINTS, n - done)
        pos += start - sh
    sx, sy, _ = zip(*xy, strict=True)
    if has_p:
        dt, dp, _ = zip(*tp, strict=True)
        st = list(dt)
    else:
        dp = ()
    return (list(accumulate(sx)), list(accumulate(sy)), list(accumulate(st)), dp, pos)


def _two_codes(w: int, sh: int, table: list[int]) -> _Pair:
    """Two codes that do not fit one look-up together, one at a time."""
    e1 = table[(w >> sh) & _TABLE_MASK]
    if not e1:
        raise _Doubt
    e2 = table[(w >> (sh - (e1 & 31))) & _TABLE_MASK]
    if not e2:
        raise _Doubt
    return (e1 >> 5, e2 >> 5, (e1 & 31) + (e2 & 31))


# --- encoding -------------------------------------------------------------------------


def _zz(v: int) -> int:
    return 2 * v if v >= 0 else -2 * v - 1


def _eg(v: int, k: int) -> str:
    q = bin((v >> k) + 1)[2:]
    low = format(v & ((1 << k) - 1), f"0{k}b") if k else ""
    return "0" * (len(q) - 1) + q + low


def _eg_len(v: int, k: int) -> int:
    return 2 * ((v >> k) + 1).bit_length() - 1 + k


def best_k(residuals: Sequence[int]) -> int:
    """The Exp-Golomb order (0..7) that codes these zigzag values shortest."""
    best, best_bits = 0, -1
    for k in range(1 << _KXY_BITS):
        bits = sum(_eg_len(v, k) for v in residuals)
        if best_bits < 0 or bits < best_bits:
            best, best_bits = k, bits
    return best


def _write_op(op: Op, out: list[str]) -> None:
    if isinstance(op, Points):
        _write_points(op, out)
    elif isinstance(op, Begin):
        has_p = op.pressure is not None
        out += (
            "10",
            "1" if op.tool == "eraser" else "0",
            "1" if has_p else "0",
            format(op.width, "010b"),
            format(op.x, "012b"),
            format(op.y, "012b"),
            _eg(op.t, _T_K),
        )
        if op.pressure is not None:
            out.append(format(op.pressure, "06b"))
    elif isinstance(op, End):
        out.append("110")
    elif isinstance(op, Undo):
        out += ("1110", _eg(op.t, _T_K))
    else:
        out += ("1111", _eg(op.t, _T_K))


def _write_points(op: Points, out: list[str]) -> None:
    d = op.deltas
    xy: list[int] = []
    rest: list[int] = []
    px = py = pt = 0
    for i in range(0, len(d), 4):
        xy += (_zz(d[i] - px), _zz(d[i + 1] - py))
        rest.append(_zz(d[i + 2] - pt))
        if op.pressure:
            rest.append(_zz(d[i + 3]))
        px, py, pt = d[i], d[i + 1], d[i + 2]
    k = best_k(xy)
    out += ("0", "1" if op.pressure else "0", _eg(op.count - 1, 0), format(k, "03b"))
    step = 2 if op.pressure else 1
    for j in range(op.count):
        out += (_eg(xy[2 * j], k), _eg(xy[2 * j + 1], k))
        out += (_eg(v, 0) for v in rest[step * j : step * j + step])


def encode_batch(ops: Iterable[Op]) -> bytes:
    """The bytes of one batch; InkError if the operations break a rule that
    ``decode_batch`` would refuse (so every encoded batch decodes)."""
    ops = tuple(ops)
    if not ops:
        raise InkError("ink_empty")
    walk = _Walk()
    out: list[str] = []
    for op in ops:
        walk.step(op)
        _write_op(op, out)
    bits = "".join(out)
    bits += "0" * (-len(bits) % 8)
    data = bytes([VERSION]) + int(bits, 2).to_bytes(len(bits) // 8, "big")
    if len(data) > MAX_BATCH_BYTES:
        raise InkError("ink_too_large", size=len(data), max=MAX_BATCH_BYTES)
    return data
