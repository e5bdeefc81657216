"""The encoder: operations to the bytes of one batch."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from atelier.ink.codec.ops import (
    KXY_BITS,
    MAX_BATCH_BYTES,
    T_K,
    VERSION,
    Begin,
    End,
    InkError,
    Op,
    Points,
    Undo,
    Walk,
)


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
    for k in range(1 << KXY_BITS):
        bits = sum(_eg_len(v, k) for v in residuals)
        if best_bits < 0 or bits < best_bits:
            best, best_bits = k, bits
    return best


def write_op(op: Op, out: list[str]) -> None:
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
            _eg(op.t, T_K),
        )
        if op.pressure is not None:
            out.append(format(op.pressure, "06b"))
    elif isinstance(op, End):
        out.append("110")
    elif isinstance(op, Undo):
        out += ("1110", _eg(op.t, T_K))
    else:
        out += ("1111", _eg(op.t, T_K))


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
    walk = Walk()
    out: list[str] = []
    for op in ops:
        walk.step(op)
        write_op(op, out)
    bits = "".join(out)
    bits += "0" * (-len(bits) % 8)
    data = bytes([VERSION]) + int(bits, 2).to_bytes(len(bits) // 8, "big")
    if len(data) > MAX_BATCH_BYTES:
        raise InkError("ink_too_large", size=len(data), max=MAX_BATCH_BYTES)
    return data
