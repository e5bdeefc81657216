"""Security headers on every HTTP answer: pages, API, static files and errors alike.

The Content-Security-Policy lets a page run only the app's own scripts and
styles, load images from the server (and the data: icon in index.html, blob:
for drawings made in the browser), and connect only back to the server
(``'self'`` covers its WebSocket, ws: or wss:). No inline script or style
attribute is allowed: the client sets styles through ``element.style``
(CSSOM), which CSP does not govern. ``frame-ancestors 'none'`` keeps the app
out of other sites' frames (clickjacking a host's buttons).

The installable app (server/pwa.py) lives with these: the manifest and the
service worker are the server's own files (``manifest-src``/``worker-src
'self'``); the worker sits at ``/sw.js``, so its scope is the whole site with
no ``Service-Worker-Allowed`` header; and the screen wake lock is allowed to
the app itself (``screen-wake-lock=(self)``), no other site's frame.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    # room links carry the room's code: never hand it to another site
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers without CSP 2
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy",
     b"camera=(), microphone=(), geolocation=(), payment=(), screen-wake-lock=(self)"),
)


class SecurityHeaders:
    """Pure ASGI (no buffering): adds :data:`HEADERS` to each HTTP response start."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *(h for h in HEADERS if h[0] not in names),
                ]
            await send(message)

        await self.app(scope, receive, send_with_headers)
