"""Atelier: drawing party games and Piet, played in the browser, refereed by the server."""

import os
import sys

__version__ = "0.1.0"

COMPILED_PARTS = (
    "atelier.ink._scan",
    "atelier.server.wire._frames",
    "atelier.server.edge._allowance",
    "atelier.games.piet._engine",
)
"""The C extensions setup.py builds; each has a Python path beside it that gives
the same answers, taken when the extension cannot be imported."""

if os.environ.get("ATELIER_PURE_PYTHON", "") not in ("", "0"):
    # Run as if installed without a C compiler (docs/deploy.md): a module set to
    # None in sys.modules is one whose import fails, so every compiled part's
    # own fallback is taken. Set here, before any of them is imported; the
    # engine's worker processes import this package too, and see the same.
    for _name in COMPILED_PARTS:
        sys.modules[_name] = None  # type: ignore[assignment]
