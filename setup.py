"""The compiled parts: the ink guard's common case (src/atelier/ink/_scan.c),
the room socket's (whole binary frames, unmasked: src/atelier/server/wire/_frames.c),
the ink allowance (src/atelier/server/edge/_allowance.c) and Piet's greedy play-out
and exact endgame search, what the hard computer, hints and reviews spend their
time on (src/atelier/games/piet/_engine.c).

Optional: without a C compiler the package installs without them and each runs
their Python paths, which are correct but cost the server more CPU per batch
(docs/performance.md) or per computer move (docs/piet.md).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("atelier.ink._scan", ["src/atelier/ink/_scan.c"], optional=True,
                  extra_compile_args=["-O2"]),
        Extension("atelier.server.wire._frames", ["src/atelier/server/wire/_frames.c"],
                  optional=True, extra_compile_args=["-O2"]),
        Extension("atelier.server.edge._allowance", ["src/atelier/server/edge/_allowance.c"],
                  optional=True, extra_compile_args=["-O2"]),
        Extension("atelier.games.piet._engine", ["src/atelier/games/piet/_engine.c"],
                  optional=True, extra_compile_args=["-O2"]),
    ]
)
