"""Each game declares its settings once (games/settings.py); the server checks
them against that declaration and serves it as a JSON schema, from which the
lobby's form takes its bounds. So a bound the form offers is a bound the server
keeps: these tests try every served bound against the server's own check."""

from __future__ import annotations

from typing import Any, get_args

import httpx
import pytest

from atelier.errors import RuleError
from atelier.games.piet.ai import COMPUTER_LEVELS
from atelier.games.piet.rules import SETUPS
from atelier.games.registry import GAME_NAMES, get_game
from atelier.games.settings import Language
from atelier.i18n import LANGUAGES
from support.server import ServerProcess


def scalar_bounds(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(field, number schema) for every number setting, optional ones included."""
    found = []
    for field, spec in schema["properties"].items():
        for option in spec.get("anyOf", [spec]):
            if option.get("type") in ("integer", "number"):
                found.append((field, option))
    return found


def refused_field(game: str, settings: dict[str, Any]) -> str | None:
    try:
        get_game(game).validate_settings(settings, get_game(game).min_seats)
    except RuleError as err:
        return str(err.params.get("field", err.code))
    return None


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_served_schema_is_what_the_server_checks(server: ServerProcess, game: str) -> None:
    r = httpx.get(f"{server.http}/api/games/{game}/settings-schema")
    assert r.status_code == 200
    schema = r.json()
    assert schema["additionalProperties"] is False
    assert refused_field(game, {"no_such_setting": 1}) == "no_such_setting"
    defaults = {f: spec["default"] for f, spec in schema["properties"].items()}
    assert defaults == get_game(game).default_settings()
    for field, spec in scalar_bounds(schema):
        if "maximum" in spec:
            assert refused_field(game, {field: spec["maximum"]}) is None, field
            assert refused_field(game, {field: spec["maximum"] + 1}) == field
        if "minimum" in spec:
            assert refused_field(game, {field: spec["minimum"]}) is None, field
            assert refused_field(game, {field: spec["minimum"] - 1}) == field
        if "exclusiveMinimum" in spec:
            assert refused_field(game, {field: spec["exclusiveMinimum"]}) == field
        assert refused_field(game, {field: True}) == field  # JSON's true is not 1
        if spec["type"] == "integer":
            assert refused_field(game, {field: 2.5}) == field
    for field, spec in schema["properties"].items():
        for option in spec.get("anyOf", [spec]):
            for value in option.get("enum", []):
                # accepted as a value (another rule may still object: "instead" needs cards)
                assert refused_field(game, {field: value}) != field, (field, value)
            if "enum" in option:
                assert refused_field(game, {field: "not-a-choice"}) == field


def test_a_game_that_does_not_exist_has_no_schema(server: ServerProcess) -> None:
    r = httpx.get(f"{server.http}/api/games/chess/settings-schema")
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"


def test_declared_choices_are_the_ones_the_rules_know() -> None:
    assert get_args(Language) == LANGUAGES
    piet = get_game("piet").settings_model.model_fields
    assert get_args(piet["setup"].annotation) == SETUPS
    assert get_args(get_args(piet["opponent"].annotation)[0]) == COMPUTER_LEVELS


def test_values_are_kept_as_the_host_sent_them() -> None:
    incognito = get_game("incognito")
    full = incognito.validate_settings({"countdown": 7, "drawing_time_limit": 12.5}, 3)
    assert (full["countdown"], full["drawing_time_limit"]) == (7, 12.5)
    assert isinstance(full["countdown"], int)


def form_values(spec: dict[str, Any], option: dict[str, Any]) -> list[float]:
    """The numbers a form starts a field at: its default, the value a ticked
    optional field is offered with (``examples``), and its maximum."""
    values = [v for v in [spec.get("default"), *spec.get("examples", []), option.get("maximum")]
              if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return values


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_number_a_form_starts_at_is_one_its_own_field_accepts(game: str) -> None:
    """A browser refuses a number off its field's step, counted from the field's
    minimum (min 5, step 10: 180 is refused, "the nearest are 175 and 185"), so
    a default, an offered value or a maximum off the step blocks the form."""
    schema = get_game(game).settings_model.model_json_schema()
    checked_fields = 0
    for field, spec in schema["properties"].items():
        for option in spec.get("anyOf", [spec]):
            if option.get("type") not in ("integer", "number"):
                continue
            step = option.get("step", 1)
            assert step > 0, field
            base = option.get("minimum", 0)
            for value in form_values(spec, option):
                assert option.get("minimum", value) <= value <= option.get("maximum", value), (
                    field, value)
                steps = (value - base) / step
                assert abs(steps - round(steps)) < 1e-9, (field, value, base, step)
                if value != spec.get("default"):
                    assert refused_field(game, {field: value}) is None, (field, value)
                checked_fields += 1
    assert checked_fields > 0


def test_a_ticked_time_limit_is_offered_a_value() -> None:
    """The optional time limits say what a ticked box starts at; the form has no
    number of its own (web/settings.js reads ``examples``)."""
    for game, field in (("pictomania", "time_limit"), ("incognito", "drawing_time_limit")):
        spec = get_game(game).settings_model.model_json_schema()["properties"][field]
        assert spec["default"] is None and len(spec["examples"]) == 1, game
