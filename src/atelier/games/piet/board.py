"""Piet's boards as bit masks, and the tables that make moves cheap.

The palette is 3x3 and each canvas 4x4; a cell's index is ``row * width +
column`` (reading order), so ``a1`` is 0 and ``c3`` is 8 on the palette. A
board is one bit mask per colour (R, Y, B): copying a state copies a few ints,
which is what lets the computer search deeply.
"""

from __future__ import annotations

from typing import NamedTuple

RED, YELLOW, BLUE = 0, 1, 2
COLOURS = "RYB"
PALETTE_W = 3
CANVAS_W = 4
PALETTE_CELLS = 9
CANVAS_CELLS = 16
FULL_CANVAS = (1 << CANVAS_CELLS) - 1
FULL_PALETTE = (1 << PALETTE_CELLS) - 1
PER_COLOUR = 3
FULL_BONUS = 2

Masks = tuple[int, int, int]
"""One bit mask per colour, in the order R, Y, B."""

EMPTY: Masks = (0, 0, 0)

# docs/piet.md, Beginner setup: R Y B / Y B R / B R Y.
BEGINNER_PALETTE: Masks = (
    (1 << 0) | (1 << 5) | (1 << 7),
    (1 << 1) | (1 << 3) | (1 << 8),
    (1 << 2) | (1 << 4) | (1 << 6),
)


def palette_name(cell: int) -> str:
    return "abc"[cell % PALETTE_W] + str(cell // PALETTE_W + 1)


def canvas_name(cell: int) -> str:
    return "abcd"[cell % CANVAS_W] + str(cell // CANVAS_W + 1)


PALETTE_NAMES = tuple(palette_name(i) for i in range(PALETTE_CELLS))
CANVAS_NAMES = tuple(canvas_name(i) for i in range(CANVAS_CELLS))


def colour_at(masks: Masks, cell: int) -> int:
    """The colour on ``cell``, or -1 when it is empty."""
    bit = 1 << cell
    for colour in (RED, YELLOW, BLUE):
        if masks[colour] & bit:
            return colour
    return -1


def occupied(masks: Masks) -> int:
    return masks[0] | masks[1] | masks[2]


def popcount(mask: int) -> int:
    return mask.bit_count()


def with_cell(masks: Masks, cell: int, colour: int) -> Masks:
    """``masks`` with ``cell`` set to ``colour`` (whatever it held before)."""
    bit = 1 << cell
    r, y, b = (m & ~bit for m in masks)
    if colour == RED:
        r |= bit
    elif colour == YELLOW:
        y |= bit
    else:
        b |= bit
    return (r, y, b)


# --- shapes: every set of 1-3 orthogonally connected palette cells -----------


class Placement(NamedTuple):
    mask: int
    """The canvas cells covered."""
    cells: tuple[int, ...]
    """Canvas cell of each palette cell of the shape, in the shape's order."""


class Shape(NamedTuple):
    cells: tuple[int, ...]
    """Palette cells in reading order."""
    mask: int
    placements: tuple[Placement, ...]
    by_anchor: dict[int, Placement]
    """Placement by the canvas cell of the shape's first palette cell."""


def _neighbours(cell: int, width: int, height: int) -> list[int]:
    row, col = divmod(cell, width)
    out = []
    if col > 0:
        out.append(cell - 1)
    if col < width - 1:
        out.append(cell + 1)
    if row > 0:
        out.append(cell - width)
    if row < height - 1:
        out.append(cell + width)
    return out


def is_connected(cells: tuple[int, ...]) -> bool:
    """Whether palette ``cells`` are orthogonally connected."""
    todo = [cells[0]]
    seen = {cells[0]}
    while todo:
        for nxt in _neighbours(todo.pop(), PALETTE_W, PALETTE_W):
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(cells)


def _placements(cells: tuple[int, ...]) -> dict[int, Placement]:
    r0, c0 = divmod(cells[0], PALETTE_W)
    offsets = [(r - r0, c - c0) for r, c in (divmod(cell, PALETTE_W) for cell in cells)]
    result = {}
    for anchor in range(CANVAS_CELLS):
        ar, ac = divmod(anchor, CANVAS_W)
        spots = [(ar + dr, ac + dc) for dr, dc in offsets]
        if all(0 <= r < CANVAS_W and 0 <= c < CANVAS_W for r, c in spots):
            targets = tuple(r * CANVAS_W + c for r, c in spots)
            result[anchor] = Placement(sum(1 << t for t in targets), targets)
    return result


def _shapes() -> tuple[Shape, ...]:
    found: set[tuple[int, ...]] = set()
    for a in range(PALETTE_CELLS):
        found.add((a,))
        for b in range(a + 1, PALETTE_CELLS):
            if is_connected((a, b)):
                found.add((a, b))
            for c in range(b + 1, PALETTE_CELLS):
                if is_connected((a, b, c)):
                    found.add((a, b, c))
    shapes = []
    for cells in sorted(found, key=lambda cs: (len(cs), cs)):
        by_anchor = _placements(cells)
        shapes.append(
            Shape(cells, sum(1 << c for c in cells), tuple(by_anchor.values()), by_anchor)
        )
    return tuple(shapes)


SHAPES: tuple[Shape, ...] = _shapes()
SHAPE_BY_CELLS: dict[tuple[int, ...], Shape] = {s.cells: s for s in SHAPES}


# --- chain scoring ----------------------------------------------------------


def _runs(row: int, width: int) -> list[tuple[int, int]]:
    """Maximal runs of set bits in a ``width``-bit row, as (start, length)."""
    runs = []
    col = 0
    while col < width:
        if row >> col & 1:
            start = col
            while col < width and row >> col & 1:
                col += 1
            runs.append((start, col - start))
        else:
            col += 1
    return runs


def _line_table() -> list[int]:
    """LINE[full << 4 | new]: total length of the runs of >= 2 in a 4-cell line
    ``full`` that contain at least one ``new`` cell."""
    table = [0] * 256
    for full in range(16):
        for new in range(16):
            if new & ~full:
                continue
            total = 0
            for start, length in _runs(full, CANVAS_W):
                run_mask = ((1 << length) - 1) << start
                if length >= 2 and run_mask & new:
                    total += length
            table[full << 4 | new] = total
    return table


def _transpose_tables() -> tuple[list[int], list[int]]:
    """Half-tables for mirroring a canvas mask on its main diagonal (columns
    become rows, so one line table serves both directions): the low byte holds
    rows 1-2, the high byte rows 3-4."""
    low, high = [0] * 256, [0] * 256
    for byte in range(256):
        for bit in range(8):
            if byte >> bit & 1:
                r, c = divmod(bit, CANVAS_W)
                low[byte] |= 1 << (c * CANVAS_W + r)
                high[byte] |= 1 << (c * CANVAS_W + r + 2)
    return low, high


def transpose(mask: int) -> int:
    return _T_LOW[mask & 255] | _T_HIGH[mask >> 8]


LINE = _line_table()
_T_LOW, _T_HIGH = _transpose_tables()
_NOT_COL0 = 0xEEEE
_NOT_COL3 = 0x7777


def in_chains(full: int) -> int:
    """Cells of one colour's mask that have a same-coloured orthogonal neighbour,
    that is, lie in some chain of length >= 2."""
    right = full & (full >> 1) & _NOT_COL3
    left = full & (full << 1) & _NOT_COL0
    vertical = full & ((full >> 4) | (full << 4))
    return (right | left | vertical) & FULL_CANVAS


def chain_score(full: int, new: int) -> int:
    """Points for ``new`` pieces of one colour, given that colour's mask ``full``
    after placing them (docs/piet.md, Chains): each distinct chain of >= 2 touching a new
    piece scores its length; each new piece in no such chain scores 1."""
    line = LINE
    t_full = _T_LOW[full & 255] | _T_HIGH[full >> 8]
    t_new = _T_LOW[new & 255] | _T_HIGH[new >> 8]
    total = (new & ~in_chains(full)).bit_count()
    for shift in (0, 4, 8, 12):
        if new >> shift & 15:
            total += line[(full >> shift & 15) << 4 | (new >> shift & 15)]
        if t_new >> shift & 15:
            total += line[(t_full >> shift & 15) << 4 | (t_new >> shift & 15)]
    return total


def move_score(canvas: Masks, new: Masks) -> int:
    """Points for placing ``new`` (disjoint from ``canvas``) on ``canvas``."""
    total = 0
    for colour in (RED, YELLOW, BLUE):
        if new[colour]:
            total += chain_score(canvas[colour] | new[colour], new[colour])
    return total
