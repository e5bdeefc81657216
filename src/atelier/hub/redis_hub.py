"""Redis pub/sub between server processes that share one database.

Every room has a channel ``<prefix>room:<code>``; each process listens to all
of them (pattern subscription) and ignores its own notices and rooms it has
not loaded. Redis is only a doorbell: the log in the database stays the truth,
so a notice lost while a process reconnects is repaired by the next one (the
receiver reloads the log tail whenever a seq is missing).

Publishing never waits for Redis: notices go to an outbox that one sender task
drains, many at a time in one pipeline. Awaiting a round trip per ink batch
needed a pooled connection per batch in flight; a hundred rooms drawing at once
exhausted the pool and dropped players' sockets. One sender keeps the order of
notices and uses one connection however busy the rooms are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter, deque

import redis.asyncio as aioredis

from atelier.hub.base import ORIGIN_BYTES, HubMessage, Receiver, decode, encode
from atelier.metrics import HUB_ERRORS

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 100_000
"""Notices waiting for Redis at most; past this (Redis gone for a long while)
the oldest are dropped: the log in the database stays the truth."""
PIPELINE_MAX = 512


async def notify(url: str, message: HubMessage, channel_prefix: str = "atelier:") -> int:
    """Publish one notice from outside a server (``atelier rooms close``): how
    many processes listening heard it."""
    redis: aioredis.Redis = aioredis.Redis.from_url(url)
    try:
        heard: int = await redis.publish(f"{channel_prefix}room:{message.room}", encode(message))
    finally:
        await redis.aclose()
    return heard


class RedisHub:
    def __init__(self, url: str, channel_prefix: str = "atelier:") -> None:
        self.origin = secrets.token_bytes(ORIGIN_BYTES)
        self.url = url
        self.prefix = channel_prefix
        self._redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self._receiver: Receiver | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._outbox: deque[tuple[str, bytes]] = deque()
        self._wake = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self.dropped = 0
        self.published: Counter[str] = Counter()
        """Notices published, by kind (shown by /healthz)."""

    @property
    def shared(self) -> bool:
        return True

    def set_receiver(self, receiver: Receiver) -> None:
        self._receiver = receiver

    async def start(self) -> None:
        await self._redis.ping()
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), timeout=10)
        self._sender = asyncio.create_task(self._send())

    async def publish(self, message: HubMessage) -> None:
        if len(self._outbox) >= OUTBOX_LIMIT:
            self._outbox.popleft()
            self.dropped += 1
        self._outbox.append((f"{self.prefix}room:{message.room}", encode(message)))
        self.published[message.kind] += 1
        self._wake.set()

    async def _send(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch = [self._outbox.popleft()
                         for _ in range(min(PIPELINE_MAX, len(self._outbox)))]
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, data in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                except asyncio.CancelledError:
                    self._outbox.extendleft(reversed(batch))
                    raise
                except Exception:
                    # Redis unreachable: keep the notices, try again shortly
                    HUB_ERRORS.labels("publish").inc()
                    log.exception("redis publish failed; retrying")
                    self._outbox.extendleft(reversed(batch))
                    await asyncio.sleep(0.5)

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until every notice published so far has reached Redis."""
        end = asyncio.get_running_loop().time() + timeout
        while self._outbox and asyncio.get_running_loop().time() < end:
            self._wake.set()
            await asyncio.sleep(0.01)

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
                            HUB_ERRORS.labels("receive").inc()
                            log.exception("hub receiver failed")
            except asyncio.CancelledError:
                raise
            except Exception:
                HUB_ERRORS.labels("subscribe").inc()
                log.exception("redis subscription lost; reconnecting")
                await asyncio.sleep(0.5)

    async def close(self) -> None:
        if self._sender is not None:
            await self.flush()
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
