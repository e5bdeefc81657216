"""The table-driven decoder: the common case, fast.

The server decodes every batch it relays, so bits are read from Python ints
made of a few bytes at a time, and each Exp-Golomb code of up to 16 bits is
one list look-up giving its signed value and length. Anything unusual (a
longer code, an error of any kind) raises ``Doubt``, and the batch is read
again by the reference decoder (``exact.py``), which names the exact error.
tests/test_ink_codec.py checks that both agree.
"""

from __future__ import annotations

from itertools import accumulate

from atelier.ink.codec.ops import (
    HIGH,
    KXY_BITS,
    LOW,
    MAX_POINTS_PER_STROKE,
    MAX_PRESSURE,
    MAX_TIME_MS,
    MAX_ZEROS,
    SPAN,
    T_K,
    TOOLS,
    Begin,
    Clear,
    End,
    InkBatch,
    Op,
    Points,
    Undo,
)


class Doubt(Exception):
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


_TABLES = [_signed_table(k) for k in range(1 << KXY_BITS)]
_Pair = tuple[int, int, int]
_PAIRS: list[list[_Pair | None] | None] = [None] * (1 << KXY_BITS)
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


def decode_fast(data: bytes, start: Stroke | bool | None = None
                 ) -> tuple[InkBatch, Stroke | None]:
    """The batch, checked as ``Walk`` does (never more leniently), and the
    stroke open after it; Doubt for anything else.

    ``start`` is the stroke open before the batch (the guard knows it), False
    if none is, None if unknown (then a stroke continued from an earlier batch
    is checked relative to its unknown start, as ``Walk`` does). Known
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
                raise Doubt
            dx, dy, dt, dp, pos = _fast_points(buf, pos + 1, has_p)
            n = len(dx)
            xs = list(accumulate(dx, initial=x))
            ys = list(accumulate(dy, initial=y))
            lo, hi = (LOW, HIGH) if is_open else (-SPAN, SPAN)
            if not (lo <= min(xs) and max(xs) < hi and lo <= min(ys) and max(ys) < hi):
                raise Doubt
            if min(dt) < 0:
                raise Doubt
            if has_p:
                ps = list(accumulate(dp, initial=p))
                if not (min(ps) >= (0 if is_open else -MAX_PRESSURE)
                        and max(ps) <= MAX_PRESSURE):
                    raise Doubt
                p = ps[-1]
            t += sum(dt)
            count += n
            if t > MAX_TIME_MS or count > MAX_POINTS_PER_STROKE:
                raise Doubt
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
                raise Doubt
            has_p = (head >> 36) & 1
            # tool, pressure flag, width (10), x (12), y (12): 36 bits after "10"
            width = (head >> 26) & 0x3FF
            x = (head >> 14) & 0xFFF
            y = (head >> 2) & 0xFFF
            t, pos = _fast_eg(buf, pos + 38, T_K)
            if not width or t > MAX_TIME_MS:
                raise Doubt
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
                raise Doubt
            ops.append(End())
            is_open = False
            pos += 3
        else:
            if is_open:
                raise Doubt
            when, pos = _fast_eg(buf, pos + 4, T_K)
            if when > MAX_TIME_MS:
                raise Doubt
            if (head >> 36) & 1:
                ops.append(Clear(when))
                tools.add("clear")
            else:
                ops.append(Undo(when))
                tools.add("undo")
            is_open = False
        if pos > end:
            raise Doubt
    if not ops:
        raise Doubt
    after = (x, y, t, p, count, bool(stroke_p)) if is_open else None
    return InkBatch(tuple(ops), begun, points, frozenset(tools)), after


def _fast_eg(buf: bytes, pos: int, k: int) -> tuple[int, int]:
    """An unsigned order-k code at ``pos``: its value and the position after it."""
    b = pos >> 3
    avail = 96 - (pos & 7)
    w = int.from_bytes(buf[b : b + 12], "big") & ((1 << avail) - 1)
    zeros = avail - w.bit_length()
    if zeros > MAX_ZEROS:
        raise Doubt
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
        raise Doubt
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
                    raise Doubt
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
        raise Doubt
    e2 = table[(w >> (sh - (e1 & 31))) & _TABLE_MASK]
    if not e2:
        raise Doubt
    return (e1 >> 5, e2 >> 5, (e1 & 31) + (e2 & 31))
