"""Redis pub/sub between server processes that share one database.

Every room has a channel ``<prefix>room:<code>``; each process listens to all
of them (pattern subscription) and ignores its own notices and rooms it has
not loaded. Redis is only a doorbell: the log in the database stays the truth,
so a notice lost while a process reconnects is repaired by the next one (the
receiver reloads the log tail whenever a seq is missing).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

import redis.asyncio as aioredis

from atelier.hub.base import ORIGIN_BYTES, HubMessage, Receiver, decode, encode

log = logging.getLogger(__name__)


class RedisHub:
    def __init__(self, url: str, channel_prefix: str = "atelier:") -> None:
        self.origin = secrets.token_bytes(ORIGIN_BYTES)
        self.url = url
        self.prefix = channel_prefix
        self._redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self._receiver: Receiver | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    @property
    def shared(self) -> bool:
        return True

    def set_receiver(self, receiver: Receiver) -> None:
        self._receiver = receiver

    async def start(self) -> None:
        await self._redis.ping()
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def publish(self, message: HubMessage) -> None:
        await self._redis.publish(f"{self.prefix}room:{message.room}", encode(message))

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.psubscribe(f"{self.prefix}room:*")
                self._ready.set()
                async for raw in pubsub.listen():
                    if raw.get("type") != "pmessage":
                        continue
                    data = raw["data"]
                    if not isinstance(data, bytes) or data[:ORIGIN_BYTES] == self.origin:
                        continue
                    if self._receiver is not None:
                        try:
                            await self._receiver(decode(data))
                        except Exception:
                            log.exception("hub receiver failed")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("redis subscription lost; reconnecting")
                await asyncio.sleep(0.5)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
