"""codec.js, drawing.js, stroke.js and replay.js agree with their Python
twins: the same batches decode to the same ops (or the same error code),
encode to the same bytes, and draw the same strokes with the same widths
and curves. Runs the browser's modules under node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from atelier.ink.codec import (
    CANVAS_SIZE,
    Begin,
    Clear,
    End,
    InkError,
    Op,
    Points,
    Undo,
    decode_batch,
    encode_batch,
)
from atelier.ink.drawing import Drawing
from atelier.ink.geometry import pieces, widths
from atelier.ink.replay import timeline
from atelier.ink.synth import DEVICES, record

WEB_INK = Path(__file__).resolve().parents[1] / "src" / "atelier" / "web" / "ink"

NODE_SCRIPT = """
const dir = process.argv[1];
const codec = await import(dir + "/codec.js");
const { Drawing } = await import(dir + "/drawing.js");
const stroke = await import(dir + "/stroke.js");
const { timeline } = await import(dir + "/replay.js");
const fromHex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (u) => Array.from(u, (b) => b.toString(16).padStart(2, "0")).join("");
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const decoded = input.decode.map((h) => {
  try {
    const b = codec.decodeBatch(fromHex(h));
    return { ok: true, ops: b.ops, strokes: b.strokesBegun, points: b.points,
             tools: [...b.tools].sort() };
  } catch (e) {
    return e instanceof codec.InkError ? { ok: false, code: e.code } : { crash: String(e) };
  }
});
const encoded = input.encode.map((ops) => toHex(codec.encodeBatch(ops)));
const drawings = input.draw.map((hexes) => {
  const d = new Drawing();
  for (const h of hexes) d.applyOps(codec.decodeBatch(fromHex(h)).ops);
  return d.visible().map((s) => {
    const n = stroke.pieceCount(s);
    const ps = [];
    for (let j = 0; j < n; j++) ps.push(stroke.piece(s, j));
    return { tool: s.tool, width: s.width, xs: s.xs, ys: s.ys, ts: s.ts, ps: s.ps,
             ended: s.ended, widths: stroke.widths(s), pieces: ps };
  });
});
const times = input.draw.map((hexes) => timeline(hexes.map(fromHex)).map((e) => [e.vt, e.t]));
console.log(JSON.stringify({ decoded, encoded, drawings, times }));
"""


def _op_json(op: Op) -> dict[str, Any]:
    if isinstance(op, Begin):
        return {
            "op": "begin",
            "tool": op.tool,
            "width": op.width,
            "x": op.x,
            "y": op.y,
            "t": op.t,
            "pressure": op.pressure,
        }
    if isinstance(op, Points):
        return {"op": "points", "deltas": list(op.deltas), "pressure": op.pressure}
    if isinstance(op, End):
        return {"op": "end"}
    return {"op": "undo" if isinstance(op, Undo) else "clear", "t": op.t}


def _python_decode(data: bytes) -> dict[str, Any]:
    try:
        b = decode_batch(data)
    except InkError as err:
        return {"ok": False, "code": err.code}
    return {
        "ok": True,
        "ops": [_op_json(op) for op in b.ops],
        "strokes": b.strokes_begun,
        "points": b.points,
        "tools": sorted(b.tools),
    }


def _hand_drawn() -> list[bytes]:
    """Every op, pressure, a stroke across batches, ink off the canvas's
    edge, an eraser over a pen, undo and clear (and undoing the clear)."""
    edge = CANVAS_SIZE - 10
    return [
        encode_batch([Begin("pen", 30, 100, 100, 0), Points((40, 10, 8, 0, 45, 12, 9, 0))]),
        encode_batch([Points((50, 14, 8, 0, 52, 20, 8, 0)), End()]),
        encode_batch([Begin("pen", 200, edge, 500, 700, 20), Points((300, 0, 8, 5), True), End()]),
        encode_batch([Begin("pen", 30, 9, 9, 800)]),
        encode_batch([End(), Undo(900)]),
        encode_batch([Begin("eraser", 160, 90, 80, 1000), Points((30, 30, 16, 0)), End()]),
        encode_batch([Clear(1200), Undo(1300), Begin("pen", 12, 2000, 2000, 5000, 63), End()]),
    ]


def _damaged(valid: list[bytes], rng: random.Random, count: int) -> list[bytes]:
    out: list[bytes] = []
    for _ in range(count):
        data = bytearray(rng.choice(valid))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        if rng.random() < 0.3:
            data = data[: rng.randint(0, len(data))]
        out.append(bytes(data))
    for _ in range(count // 4):
        out.append(bytes([1]) + rng.randbytes(rng.randint(0, 40)))
    return out


@pytest.fixture(scope="module")
def fixtures() -> dict[str, Any]:
    if shutil.which("node") is None:
        pytest.fail("node is not installed (`./run test` installs Debian's nodejs)")
    drawings = [_hand_drawn()] + [record(d, 12, seed=i).batches for i, d in enumerate(DEVICES)]
    valid = [b for batches in drawings for b in batches]
    decode = valid + _damaged(valid, random.Random(11), 800)
    encode = [[_op_json(op) for op in decode_batch(b).ops] for b in valid]
    request = {
        "decode": [b.hex() for b in decode],
        "encode": encode,
        "draw": [[b.hex() for b in batches] for batches in drawings],
    }
    result = subprocess.run(
        [
            "node",
            "--input-type=commonjs",
            "-e",
            f"(async () => {{ {NODE_SCRIPT} }})()",
            str(WEB_INK),
        ],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    js = json.loads(result.stdout)
    return {"decode": decode, "valid": valid, "drawings": drawings, "js": js}


def test_js_decodes_every_batch_as_python_does(fixtures: dict[str, Any]) -> None:
    refused = 0
    for data, js in zip(fixtures["decode"], fixtures["js"]["decoded"], strict=True):
        assert "crash" not in js, (data.hex(), js)
        py = _python_decode(data)
        assert js == py, data.hex()
        refused += not py["ok"]
    assert refused > 300  # the damaged ones really were refused, with the same codes


def test_js_encodes_the_same_bytes(fixtures: dict[str, Any]) -> None:
    assert fixtures["js"]["encoded"] == [b.hex() for b in fixtures["valid"]]


def test_js_draws_the_same_strokes_with_the_same_shapes(fixtures: dict[str, Any]) -> None:
    for batches, js_strokes in zip(fixtures["drawings"], fixtures["js"]["drawings"], strict=True):
        strokes = Drawing.from_batches(batches).visible()
        assert len(strokes) == len(js_strokes)
        for s, js in zip(strokes, js_strokes, strict=True):
            assert (s.tool, s.width, s.xs, s.ys, s.ts, s.ps, s.ended) == (
                js["tool"],
                js["width"],
                js["xs"],
                js["ys"],
                js["ts"],
                js["ps"],
                js["ended"],
            )
            assert widths(s) == pytest.approx(js["widths"], rel=1e-12)
            py_pieces = [list(p) for p in pieces(s)]
            assert len(py_pieces) == len(js["pieces"])
            for a, b in zip(py_pieces, js["pieces"], strict=True):
                assert a == pytest.approx(b, rel=1e-12)


def test_js_replays_on_the_same_clock(fixtures: dict[str, Any]) -> None:
    for batches, js_times in zip(fixtures["drawings"], fixtures["js"]["times"], strict=True):
        assert [[e.vt, e.t] for e in timeline(batches)] == js_times


def test_the_hand_drawn_fixture_covers_the_forgiving_cases(fixtures: dict[str, Any]) -> None:
    strokes = Drawing.from_batches(fixtures["drawings"][0]).visible()
    assert [s.tool for s in strokes] == ["pen", "pen", "eraser", "pen"]
    assert max(strokes[1].xs) > CANVAS_SIZE  # ink may leave the canvas and come back
    assert strokes[3].ps == [63] and len(strokes[3]) == 1  # a dot, with pressure


NET_SCRIPT = """
const net = await import(process.argv[1]);
const fromHex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (u) => Array.from(u, (b) => b.toString(16).padStart(2, "0")).join("");
const bundles = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(bundles.map((h) => {
  const frames = [];
  net.splitBundle(fromHex(h), (seat, batch) => frames.push([seat, toHex(batch)]));
  return frames;
})));
"""


def _server_bundles(frames: list[bytes]) -> list[bytes]:
    """What the server's connection sends for these frames, bundled."""
    import asyncio

    from atelier.server.room import connection
    from test_connection_bundles import queued_bundles

    async def run() -> list[bytes]:
        conn = connection.Connection(None, bundles=True)  # type: ignore[arg-type]
        for frame in frames:
            conn.send(frame)
        conn.flush_ink()
        return queued_bundles(conn)

    return asyncio.run(run())


def test_the_browser_reads_every_frame_of_the_servers_bundles() -> None:
    if shutil.which("node") is None:
        pytest.fail("node is not installed (`./run test` installs Debian's nodejs)")
    drawings = [record(d, 40, seed=i).batches for i, d in enumerate(DEVICES)]
    frames = [bytes([seat % 6]) + b for seat, batches in enumerate(drawings) for b in batches]
    bundles = _server_bundles(frames)
    assert len(bundles) > 1  # large ones are split
    one = _server_bundles(frames[:1])
    result = subprocess.run(
        ["node", "--input-type=commonjs", "-e", f"(async () => {{ {NET_SCRIPT} }})()",
         str(WEB_INK.parent / "net.js")],
        input=json.dumps([b.hex() for b in [*bundles, *one, b"\x00\x05\x01"]]),
        capture_output=True, text=True, check=True, timeout=60,
    )
    parsed = json.loads(result.stdout)
    got = [bytes([seat]) + bytes.fromhex(batch) for bundle in parsed[:-2] for seat, batch in bundle]
    assert got == frames, "every frame, in order, with its seat"
    assert [bytes([s]) + bytes.fromhex(b) for s, b in parsed[-2]] == frames[:1]
    assert parsed[-1] == []  # a truncated entry is dropped, not misread
