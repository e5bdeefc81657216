"""The two compiled parts: the ink guard's common case (src/atelier/ink/_scan.c)
and the room socket's (whole binary frames, unmasked: src/atelier/server/wire/_frames.c).

Optional: without a C compiler the package installs without them and both run
their Python paths, which are correct but cost the server more CPU per batch
(docs/performance.md).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("atelier.ink._scan", ["src/atelier/ink/_scan.c"], optional=True,
                  extra_compile_args=["-O2"]),
        Extension("atelier.server.wire._frames", ["src/atelier/server/wire/_frames.c"],
                  optional=True, extra_compile_args=["-O2"]),
    ]
)
