"""Fan-out between server processes: in-process by default, Redis pub/sub to share rooms."""

from atelier.hub.base import Hub, HubMessage, LocalHub, Receiver
from atelier.hub.redis_hub import RedisHub

__all__ = ["Hub", "HubMessage", "LocalHub", "Receiver", "RedisHub", "open_hub"]


async def open_hub(redis_url: str | None, channel_prefix: str = "atelier:") -> Hub:
    if redis_url:
        hub = RedisHub(redis_url, channel_prefix)
        await hub.start()
        return hub
    return LocalHub()
