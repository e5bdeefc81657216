"""The ``atelier`` command run as an operator runs it, with the tests' game."""

from __future__ import annotations

import os
import subprocess
import sys

from support.server import ROOT, TESTS

GAME = "support.secrets_game:SECRETS"
ENV = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{ROOT / 'src'}"}


def atelier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "atelier", *args], env=ENV, text=True,
                          capture_output=True, timeout=300)
