"""The guided game's scoring in the browser (web/piet/moves.js, paintScore)
agrees with the rules: every legal painting move in the positions of a few
whole games scores in JavaScript what ``rules.play`` gives it, so the chain
the guide suggests really scores more than its pieces. Runs the module under
node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from atelier.games.piet.ai import choose_move
from atelier.games.piet.coach import position
from atelier.games.piet.notation import format_move
from atelier.games.piet.rules import OVER, PAINTING, legal_moves, new_game, play
from atelier.jsoncheck import as_list

MOVES_JS = Path(__file__).resolve().parents[1] / "src" / "atelier" / "web" / "piet" / "moves.js"

NODE_SCRIPT = """
const { paintScore } = await import(process.argv[1]);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const cells = (text) => [...text].map((c) => (c === "." ? null : c));
const out = JSON.parse(input).map(({ canvas, palette, move }) =>
  paintScore(cells(canvas), cells(palette), move).points);
process.stdout.write(JSON.stringify(out));
"""


def cases() -> list[dict[str, object]]:
    """Every painting move of the positions of three easy-against-easy games."""
    out: list[dict[str, object]] = []
    rng = random.Random(5)
    for _ in range(3):
        state = new_game()
        while state.phase != OVER:
            if state.phase == PAINTING:
                seen = position(state)
                for move in legal_moves(state):
                    out.append({"canvas": as_list(seen["canvases"])[state.to_move],
                                "palette": seen["palette"],
                                "move": format_move(move, brush=False),
                                "points": play(state, move)[1]})
            state = play(state, choose_move(state, "easy", rng.randrange(1 << 30)))[0]
    return out


def test_the_pages_scoring_is_the_rules_scoring() -> None:
    if shutil.which("node") is None:
        pytest.fail("node is not installed (`./run test` installs Debian's nodejs)")
    expected = cases()
    result = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_SCRIPT, MOVES_JS.as_uri()],
        input=json.dumps(expected), capture_output=True, text=True, check=True, timeout=60)
    scored = json.loads(result.stdout)
    assert len(scored) == len(expected) > 500
    wrong = [(c["move"], c["points"], s) for c, s in zip(expected, scored, strict=True)
             if c["points"] != s]
    assert wrong == []
    # chains are there to find: some moves score more than their pieces
    assert any(s > len(str(c["move"]).split(">")[0]) // 2
               for c, s in zip(expected, scored, strict=True))
