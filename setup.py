"""The one compiled part: the ink guard's common case (src/atelier/ink/_scan.c).

Optional: without a C compiler the package installs without it and the guard
runs its Python path, which is correct but takes about twice the server's CPU
per batch (docs/performance.md).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("atelier.ink._scan", ["src/atelier/ink/_scan.c"], optional=True,
                  extra_compile_args=["-O2"]),
    ]
)
