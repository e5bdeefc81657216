"""One push out (RFC 8030): the payload encrypted for the subscription
(RFC 8291, aes128gcm) and signed for the push service (RFC 8292, VAPID), by
pywebpush; what the push service answered."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from py_vapid import Vapid
from pywebpush import WebPushException, webpush_async

from atelier.store.push import Subscription

TTL_SECONDS = 24 * 3600  # a phone that is off for a day still gets the nudge
GONE = (404, 410)  # the push service no longer knows the subscription: delete it

# The browsers' push services; an endpoint elsewhere is refused, so the server
# cannot be made to post to any address a client names.
PUSH_SERVICES = (
    "fcm.googleapis.com", "android.googleapis.com", "push.services.mozilla.com",
    "push.apple.com", "notify.windows.com",
)


def endpoint_allowed(endpoint: str, extra: tuple[str, ...] = ()) -> bool:
    """An https endpoint of a known push service, or one starting with a prefix
    the operator allowed (``atelier serve --push-service URL``; the tests' own)."""
    if any(endpoint.startswith(prefix) for prefix in extra):
        return True
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    return parts.scheme == "https" and any(
        host == known or host.endswith("." + known) for known in PUSH_SERVICES)


def payload(room: str, text: str) -> bytes:
    """What the service worker gets: the room code and a short text, nothing secret."""
    return json.dumps({"room": room, "text": text}, ensure_ascii=False).encode()


async def send(session: aiohttp.ClientSession, vapid: Vapid, contact: str,
               sub: Subscription, data: bytes) -> int:
    """Send one push; the push service's HTTP status (201 when accepted)."""
    for attempt in (1, 2):
        try:
            response: Any = await webpush_async(
                sub.info(), data.decode(), vapid_private_key=vapid,
                vapid_claims={"sub": contact}, ttl=TTL_SECONDS, aiohttp_session=session,
                timeout=10)
        except WebPushException as err:
            status = err.response.status if err.response is not None else 0
            return int(status)
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
            # a kept-alive connection the push service had closed meanwhile: the
            # request never reached it, so once more on a new connection
            if attempt == 2:
                raise
            continue
        return int(response.status)
    raise AssertionError("unreachable")
