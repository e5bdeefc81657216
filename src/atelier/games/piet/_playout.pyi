"""The compiled greedy play-out (_playout.c): ai.playout_py's game, on the state's numbers."""

def playout(pal_r: int, pal_y: int, pal_b: int, c0_r: int, c0_y: int, c0_b: int,
            c1_r: int, c1_y: int, c1_b: int, score0: int, score1: int, phase: int,
            to_move: int, starter: int, next_painter: int, finisher: int, seed: int, /
            ) -> tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int,
                       int, int]: ...
