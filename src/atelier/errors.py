"""The error every refusal raises, from the rules, the content checks and the server.

Its own module so that the games, the content (decks, custom cards) and the
server can all raise it without importing one another.
"""

from __future__ import annotations

from typing import Any

from atelier.i18n import LANGUAGES, translate


class RuleError(Exception):
    """A refused action. ``code`` is stable (clients and tests key on it);
    ``params`` fill the translated message ``error.<code>``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def message(self, lang: str = "en") -> str:
        return translate(f"error.{self.code}", lang, **self.params)

    def messages(self) -> dict[str, str]:
        return {lang: self.message(lang) for lang in LANGUAGES}

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.params}

    def __str__(self) -> str:
        return self.message("en")


def require(condition: bool, code: str, **params: Any) -> None:
    """Raise ``RuleError(code)`` unless ``condition`` holds."""
    if not condition:
        raise RuleError(code, **params)
