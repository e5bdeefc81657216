"""HTTP for replays: a drawing's guesses on its timeline (JSON) and its replay
as an animated image. Both sit next to the PNG route and obey its visibility
rules (the caller checks them); the guesses also wait for the reveal."""

from __future__ import annotations

from collections.abc import Sequence

from atelier.ink.animate import render_animation
from atelier.ink.replay import duration_ms
from atelier.jsonvalue import JSON
from atelier.server.http.pngs import RenderCache
from atelier.server.room.marks import guesses_on
from atelier.server.room.rooms import LiveRoom
from atelier.store import Store


async def timeline_json(room: LiveRoom, store: Store, key: str, seat: int) -> dict[str, JSON]:
    """``revealed`` false (and no guesses) until the game makes them public."""
    batches = list(room.ink.get(key, {}).get(seat, []))
    events = await store.load_events(room.model.code)
    guesses = guesses_on(room.model, events, key, seat, batches)
    return {
        "key": key,
        "seat": seat,
        "batches": len(batches),
        "duration_ms": duration_ms(batches),
        "revealed": guesses is not None,
        "guesses": guesses or [],
    }


class AnimationCache(RenderCache):
    """Rendered animations, kept and shared like the PNGs."""

    def __init__(self, capacity: int = 32) -> None:
        super().__init__(capacity)

    async def get(
        self, key: tuple[str, str, int, int, int, str, str], batches: Sequence[bytes]
    ) -> bytes:
        """``key``: (room, drawing key, seat, batch count, size, colour, format)."""
        _, _, _, _, size, colour, fmt = key
        frozen = list(batches)  # taken now: the room's ink may grow meanwhile
        return await self._cached(key, lambda: render_animation(frozen, colour, size, fmt))
