"""The engine's work (computer players' moves, hints, reviews, puzzle checks)
in worker processes, never on the event loop: ``queue`` decides who goes next
(pure), ``workers`` runs one spawned process, ``pool`` ties them to asyncio."""
