import asyncio

from atelier.ink.codec import Begin, End, Points, encode_batch
from atelier.ink.render import render_png
from atelier.server.http.pngs import PngCache

LINE = encode_batch([Begin("pen", 80, 500, 500, 0), Points((40, 0, 10, 0) * 40), End()])
DOWN = encode_batch([Begin("pen", 80, 500, 900, 600), Points((0, 40, 10, 0) * 40), End()])


async def test_a_drawing_asked_for_by_everyone_at_once_is_rendered_once() -> None:
    cache = PngCache()
    key = ("ROOM01", "round-1", 0, 1, 256, "#d22")
    pngs = await asyncio.gather(*(cache.get(key, [LINE]) for _ in range(5)))
    assert all(p == pngs[0] for p in pngs)
    assert pngs[0] == render_png([LINE], "#d22", 256)
    assert cache.renders == 1
    assert len(cache._done) == 1
    await cache.get(key, [LINE])  # and later asks come from the cache
    assert cache.renders == 1


async def test_a_grown_drawing_is_rendered_anew_and_old_ones_make_room() -> None:
    cache = PngCache(capacity=2)
    one = await cache.get(("R", "k", 0, 1, 128, "#000"), [LINE])
    two = await cache.get(("R", "k", 0, 2, 128, "#000"), [LINE, DOWN])
    assert two != one  # the new stroke shows: the first picture was not reused
    await cache.get(("R", "k", 1, 1, 128, "#000"), [LINE])
    assert cache.renders == 3
    assert len(cache._done) == 2
    assert ("R", "k", 0, 1, 128, "#000") not in cache._done
    await cache.get(("R", "k", 0, 1, 128, "#000"), [LINE])  # it made room: drawn again
    assert cache.renders == 4
