"""Each game says which of its settings everyone may see: a setting is shown as it is
only if the rules make it public."""

from __future__ import annotations

import httpx

from atelier.games.core import JSON
from atelier.games.registry import GAME_NAMES, get_game
from support.server import ServerProcess, create_room


def test_every_game_keeps_its_setting_names_and_hides_only_secrets() -> None:
    for name in GAME_NAMES:
        game = get_game(name)
        full = game.validate_settings(game.default_settings(), game.min_seats)
        assert set(game.public_settings(full)) == set(full), name
    piet = get_game("piet")
    full = piet.validate_settings({"opponent": "easy"}, 2)
    assert piet.public_settings(full) == full  # Piet hides nothing
    incognito = get_game("incognito")
    words = [f"w{i}" for i in range(30)]
    full = incognito.validate_settings(
        {"custom_words": words, "custom_locations": [f"l{i}" for i in range(22)]}, 3)
    public = incognito.public_settings(full)
    assert (public["custom_words"], public["custom_locations"]) == (30, 22)
    assert {k: v for k, v in public.items() if not k.startswith("custom")} == {
        k: v for k, v in full.items() if not k.startswith("custom")}
    pictomania = get_game("pictomania")
    cards: list[JSON] = [{"id": f"c{i}", "level": 2, "words": [f"x{i}{j}" for j in "abcdefg"]}
             for i in range(3)]
    full = pictomania.validate_settings({"custom_cards": cards}, 3)
    assert pictomania.public_settings(full)["custom_cards"] == [{"level": 2}] * 3


def test_the_room_summary_carries_counts_only(server: ServerProcess) -> None:
    words = [f"Summaryword{i}" for i in range(25)]
    code = create_room(server.http, "incognito", {"custom_words": words})
    r = httpx.get(f"{server.http}/api/rooms/{code}")
    assert r.status_code == 200 and "Summaryword" not in r.text
    assert r.json()["settings"]["custom_words"] == 25
    assert r.json()["settings"]["custom_locations"] == 0
