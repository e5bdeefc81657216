"""What a fuzzing run counts and what it treats as a failure (atelier.bench.fuzz)."""

from __future__ import annotations

from dataclasses import dataclass, field

SENDS_PER_CONNECTION = 30
REPLY_SECONDS = 20.0
MAX_DRIVER_STEPS = 400

IN_THE_WAY = ("rate_limited", "abuse")
"""Refusals of a listed move that say nothing about the rules: the actors' noise
spent the connection's allowance."""
MESSAGE_TYPES = ("hello", "join", "leave", "rename", "lang", "settings", "kick", "host",
                 "start", "next", "again", "go_on", "act", "ping", "agree")
SERVER_FAULTS = ("internal",)


@dataclass
class Figures:
    messages: int = 0
    text: int = 0
    binary: int = 0
    refused: int = 0
    unanswered: int = 0
    server_exceptions: int = 0
    state_changes: int = 0
    legal_played: int = 0
    legal_refused: int = 0
    episodes: int = 0
    phases: set[tuple[str, str]] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def problem(self, what: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(what[:300])

    @property
    def failed(self) -> bool:
        return bool(self.unanswered or self.server_exceptions or self.state_changes
                    or self.legal_refused)


class Violation(AssertionError):
    """Raised in strict mode (the test suite), so hypothesis shows and shrinks the case."""
