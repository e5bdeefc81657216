"""Piet's engine compiled (_engine.c): ai.playout_py's game, and search.Search's
exact search with its table, on a state's numbers."""

def playout(pal_r: int, pal_y: int, pal_b: int, c0_r: int, c0_y: int, c0_b: int,
            c1_r: int, c1_y: int, c1_b: int, score0: int, score1: int, phase: int,
            to_move: int, starter: int, next_painter: int, finisher: int, seed: int, /
            ) -> tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int,
                       int, int]: ...

class Table:
    """An exact search's transposition table, kept between searches."""

    def value(self, pal_r: int, pal_y: int, pal_b: int, me_r: int, me_y: int, me_b: int,
              them_r: int, them_y: int, them_b: int, diff: int, filling: bool, key_me: bool,
              alpha: int, beta: int, nodes: int, budget: int, /) -> tuple[int | None, int]: ...
    def best(self, pal_r: int, pal_y: int, pal_b: int, me_r: int, me_y: int, me_b: int,
             them_r: int, them_y: int, them_b: int, diff: int, filling: bool, key_me: bool, /
             ) -> int: ...
    def __len__(self) -> int: ...
