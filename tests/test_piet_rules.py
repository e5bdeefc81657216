"""Piet's rules as a player meets them (docs/piet.md, Rulings)."""

import itertools

import pytest

from atelier.errors import RuleError
from atelier.games.piet.board import BEGINNER_PALETTE, EMPTY, Masks, colour_at, with_cell
from atelier.games.piet.notation import format_move, parse_move
from atelier.games.piet.rules import (
    FILLING,
    OVER,
    PAINTING,
    Fill,
    State,
    legal_moves,
    new_game,
    play,
    winner,
)

R, Y, B = 0, 1, 2


def canvas(**cells: str) -> Masks:
    masks = EMPTY
    for name, colour in cells.items():
        cell = "abcd".index(name[0]) + 4 * (int(name[1]) - 1)
        masks = with_cell(masks, cell, "RYB".index(colour))
    return masks


def palette(text: str) -> Masks:
    """Nine characters in reading order, '.' for an empty cell."""
    masks = EMPTY
    for cell, ch in enumerate(text.replace(" ", "")):
        if ch != ".":
            masks = with_cell(masks, cell, "RYB".index(ch))
    return masks


def run(state: State, *moves: str) -> State:
    for text in moves:
        state, _ = play(state, parse_move(text))
    return state


def test_beginner_setup_is_the_ruled_palette_and_player_1_paints() -> None:
    state = new_game()
    assert state.palette == BEGINNER_PALETTE
    assert [colour_at(state.palette, i) for i in range(9)] == [R, Y, B, Y, B, R, B, R, Y]
    assert state.phase == PAINTING and state.to_move == 0


def test_rulebook_example_scores_three_plus_two_plus_one() -> None:
    # Blue completes a run of 3, red makes a run of 2, yellow is alone: 6.
    board = canvas(a1="B", b1="B", d2="R")
    state = new_game()._replace(canvases=(board, EMPTY), scores=(5, 0))
    after, points = play(state, parse_move("c1c2c3>c1"))  # B, R, Y down column c
    assert points == 6
    assert after.scores == (11, 0)


def test_a_chain_with_two_new_pieces_counts_once_and_crossings_count_twice() -> None:
    state = new_game()._replace(canvases=(canvas(c1="R", a2="Y"), EMPTY))
    # a2b2 is Y, B: the yellow joins a2 (chain of 2), the blue is alone (1).
    _, points = play(state, parse_move("a2b2>b2"))
    assert points == 2 + 1
    # A red piece in a row of 3 and a column of 2 scores both chains.
    cross = new_game()._replace(canvases=(canvas(b2="R", c1="R", d2="R"), EMPTY),
                                palette=palette("R........"))
    _, points = play(cross, parse_move("a1>c2"))
    assert points == 3 + 2  # row b2-c2-d2, column c1-c2


def test_two_new_pieces_in_one_chain_score_the_chain_once() -> None:
    state = new_game()._replace(palette=palette("RR......."), canvases=(canvas(c1="R"), EMPTY))
    _, points = play(state, parse_move("a1b1>a1"))
    assert points == 3


def test_pieces_keep_shape_and_orientation() -> None:
    state = new_game()
    with pytest.raises(RuleError) as err:
        play(state, parse_move("a1b1>d1"))  # b1 would land off the canvas
    assert err.value.code == "piet.off_canvas"
    with pytest.raises(RuleError) as err:
        play(state, parse_move("a1c1>a1"))
    assert err.value.code == "piet.not_connected"
    with pytest.raises(RuleError) as err:
        play(state, parse_move("a1b2>a1"))  # diagonal only
    assert err.value.code == "piet.not_connected"


def test_cells_may_be_listed_in_any_order() -> None:
    assert parse_move("b1a1>d3") == parse_move("a1b1>c3")
    assert format_move(parse_move("b1a1>d3")) == "a1b1>c3"
    assert format_move(parse_move("c2b2b1 > c4")) == "b1b2c2>b3"


def test_only_empty_canvas_cells_and_filled_palette_cells() -> None:
    state = run(new_game(), "a1>a1", "b1>a1")
    with pytest.raises(RuleError) as err:
        play(state, parse_move("c1>a1"))
    assert err.value.code == "piet.canvas_cell_taken"
    with pytest.raises(RuleError) as err:
        play(state, parse_move("a1>b1"))
    assert err.value.code == "piet.palette_cell_empty"


def test_painting_phase_ends_with_the_palette_and_lower_score_fills_first() -> None:
    # P1 takes 3+3, P2 takes 3: P1 scores more, so P2 starts filling.
    state = run(new_game(), "a1b1c1>a1", "a2b2c2>a1", "a3b3c3>a2")
    assert state.phase == FILLING
    assert state.scores[0] > state.scores[1]
    assert state.to_move == 1


def test_filling_tie_goes_to_fewer_pieces_then_to_the_painting_starter() -> None:
    base = new_game()._replace(palette=palette("R........"), scores=(4, 4))
    more = base._replace(canvases=(canvas(a1="Y", b1="B"), canvas(a1="Y")))
    after = run(more, "a1>d4")  # P1 now has 3 pieces, P2 1, both 4+1 vs 4
    assert after.phase == FILLING and after.to_move == 1  # P2: lower score
    even = base._replace(scores=(3, 4), canvases=(canvas(a1="Y"), canvas(a1="Y", b1="B")))
    after = run(even, "a1>d4")  # 4 all, P1 has 2 pieces, P2 2: painting starter (P1)
    assert after.scores == (4, 4) and after.to_move == 0
    fewer = base._replace(scores=(3, 4), canvases=(EMPTY, canvas(a1="Y", b1="B")))
    after = run(fewer, "a1>d4")  # 4 all, P1 has 1 piece: P1
    assert after.to_move == 0
    started_by_2 = even._replace(starter=1)
    assert run(started_by_2, "a1>d4").to_move == 1


def test_filling_alternates_caps_colours_and_its_starter_paints_first() -> None:
    state = new_game()._replace(palette=EMPTY, phase=FILLING, to_move=1, starter=1,
                                next_painter=1)
    state = run(state, "R@a1", "R@a2", "R@a3")
    assert state.to_move == 0
    with pytest.raises(RuleError) as err:
        play(state, parse_move("R@b1"))
    assert err.value.code == "piet.colour_full"
    with pytest.raises(RuleError) as err:
        play(state, parse_move("Y@a1"))
    assert err.value.code == "piet.palette_cell_taken"
    state = run(state, "Y@b1", "Y@b2", "Y@b3", "B@c1", "B@c2")
    assert state.phase == FILLING
    state = run(state, "B@c3")
    assert state.phase == PAINTING and state.to_move == 1


def test_empty_setup_starts_filling_with_player_1_and_player_2_paints_first() -> None:
    state = new_game("empty")
    assert state.phase == FILLING and state.to_move == 0
    fills = ["R@a1", "Y@b1", "B@c1", "R@a2", "Y@b2", "B@c2", "R@a3", "Y@b3", "B@c3"]
    for i, text in enumerate(fills):
        assert state.to_move == i % 2
        state = run(state, text)
    assert state.phase == PAINTING and state.to_move == 1


def test_no_painting_in_filling_and_no_filling_in_painting() -> None:
    with pytest.raises(RuleError) as err:
        play(new_game(), parse_move("R@a1"))
    assert err.value.code == "piet.not_filling"
    with pytest.raises(RuleError) as err:
        play(new_game("empty"), parse_move("a1>a1"))
    assert err.value.code == "piet.not_painting"


def full_but(*empty: str) -> Masks:
    """A canvas full of a checkerboard of R/Y except ``empty`` cells."""
    cells = {}
    for r, c in itertools.product(range(4), range(4)):
        name = "abcd"[c] + str(r + 1)
        if name not in empty:
            cells[name] = "RY"[(r + c) % 2]
    return canvas(**cells)


def test_a_full_canvas_ends_the_game_at_once_with_two_bonus_points() -> None:
    state = new_game()._replace(canvases=(full_but("d4"), EMPTY), scores=(10, 14))
    after, points = play(state, parse_move("c1>d4"))  # blue, lonely: 1
    assert points == 1
    assert after.phase == OVER and after.scores == (13, 14)
    assert winner(after) == 1
    assert legal_moves(after) == []
    with pytest.raises(RuleError) as err:
        play(after, parse_move("a1>a1"))
    assert err.value.code == "game_over"


def test_equal_final_scores_are_a_draw() -> None:
    state = new_game()._replace(canvases=(full_but("d4"), EMPTY), scores=(11, 14))
    after = run(state, "c1>d4")
    assert winner(after) == -1


def test_a_move_may_only_fill_what_is_empty_even_near_the_end() -> None:
    state = new_game()._replace(canvases=(full_but("c4", "d4"), EMPTY))
    moves = {format_move(m) for m in legal_moves(state)}
    assert "a1b1>c4" in moves and "a1>d4" in moves
    assert all(not m.startswith(("a1a2", "a1b1c1")) for m in moves)


def test_brushes_recolour_one_opponent_cell_and_change_no_scored_points() -> None:
    state = new_game(brushes=True)
    state = run(state, "a1b1>a1")  # P1: R Y at a1 b1
    state, _ = play(state, parse_move("b2>a2 !a1=B"))  # P2 brushes P1's a1 to blue
    assert colour_at(state.canvases[0], 0) == B
    assert state.scores == (2, 1) and state.brushes == (2, 1)
    # A later blue next to a1 now makes a chain of 2 on P1's canvas.
    state, points = play(state, parse_move("c1>a2"))
    assert points == 2


def test_brushes_are_refused_when_off_spent_empty_same_colour_or_after_the_end() -> None:
    cases = [
        (new_game(), "a1>a1 !a1=B", "piet.brushes_off"),
        (new_game(brushes=True), "a1>a1 !a1=B", "piet.brush_empty_cell"),
        (new_game(brushes=True)._replace(brushes=(0, 2), canvases=(EMPTY, canvas(a1="R"))),
         "a1>a1 !a1=B", "piet.no_brushes_left"),
        (new_game(brushes=True)._replace(canvases=(EMPTY, canvas(a1="R"))),
         "a1>a1 !a1=R", "piet.brush_same_colour"),
        (new_game(brushes=True)._replace(canvases=(full_but("d4"), canvas(a1="R"))),
         "a1>d4 !a1=B", "piet.brush_after_end"),
        (new_game("empty", brushes=True), "R@a1 !a1=B", None),
    ]
    for state, text, code in cases:
        if code is None:
            with pytest.raises(RuleError) as err:
                parse_move(text)
            assert err.value.code == "piet.bad_notation"
            continue
        with pytest.raises(RuleError) as err:
            play(state, parse_move(text))
        assert err.value.code == code, text


def test_fill_moves_respect_the_colour_limit() -> None:
    state = new_game()._replace(palette=palette("RRR YY. ..."), phase=FILLING)
    moves = legal_moves(state)
    assert all(isinstance(m, Fill) and m.colour != R for m in moves)
    assert len(moves) == 2 * 4
