"""One problem the content check finds, with its translated message: its own
module because every check (decks, plurals, glossary) makes them and the
main check gathers them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from atelier.i18n import translate


@dataclass(frozen=True)
class Finding:
    """One problem: ``code`` keys the message ``error.<code>``."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        return translate(f"error.{self.code}", lang, **self.params)
