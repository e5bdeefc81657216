"""A game's room settings, declared once as a pydantic model.

The declaration gives every field its type, bounds and default; from it come
the defaults a new room starts with, the per-field check of what a host sends,
and the JSON schema the client reads its limits from
(``GET /api/games/{game}/settings-schema``), so the form cannot drift from the
server. Rules that tie fields together (an edition's flags, enough words for
the rounds) stay in each game's own ``validate_settings``::

    class RoomSettings(SettingsModel):
        rounds: Annotated[int, Field(ge=1, le=10)] = 3

    full = checked(RoomSettings, settings)   # RuleError("bad_settings", field=...)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from atelier.errors import RuleError
from atelier.jsonvalue import JSON

Language = Literal["en", "de", "uk"]
"""The languages of the decks (atelier.i18n.LANGUAGES; a test keeps them equal)."""


class SettingsModel(BaseModel):
    """Strict, as JSON is: 5 is not "5", true is not 1, and an unknown field is
    an error, not silently kept."""

    model_config = ConfigDict(extra="forbid", strict=True)


def defaults(model: type[SettingsModel]) -> dict[str, JSON]:
    """Every field's default, as declared (a fresh copy each time)."""
    return {name: copy.deepcopy(field.get_default(call_default_factory=True))
            for name, field in model.model_fields.items()}


def checked(model: type[SettingsModel], settings: Mapping[str, JSON]) -> dict[str, JSON]:
    """The settings with defaults filled in, every field checked against the
    declaration. The values are kept as sent (a countdown of 5 stays 5, not 5.0),
    so what the log stores is what the host chose."""
    if not isinstance(settings, Mapping):
        raise RuleError("bad_settings", field="settings")
    try:
        model.model_validate(dict(settings))
    except ValidationError as err:
        location = err.errors()[0]["loc"]
        raise RuleError("bad_settings",
                        field=str(location[0]) if location else "settings") from None
    return {**defaults(model), **copy.deepcopy(dict(settings))}


def schema(model: type[SettingsModel]) -> dict[str, JSON]:
    """The JSON schema of the settings, for the client's form."""
    result: dict[str, JSON] = model.model_json_schema()
    return result
