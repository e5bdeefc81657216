"""Which proxies' forwarded headers (X-Forwarded-Proto, X-Forwarded-For) to believe.

A client can send any header; only a proxy the operator names may tell the
server that the original connection was TLS or came from another address.
The same list (``--forwarded-allow-ips``, default ``$FORWARDED_ALLOW_IPS`` or
``127.0.0.1``) configures uvicorn for HTTP and the room socket's own checks
(the lean WebSocket transport does not pass through uvicorn's middleware).
"""

from __future__ import annotations

import ipaddress
import os

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Proxies:
    def __init__(self, spec: str | None = None) -> None:
        spec = spec if spec is not None else os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
        self.spec = spec
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        self.everyone = "*" in parts
        self.networks: list[Network] = []
        self.names: set[str] = set()
        for part in parts:
            try:
                self.networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                self.names.add(part)  # a unix socket path or a host name, as uvicorn allows

    def trusts(self, host: str | None) -> bool:
        if self.everyone:
            return True
        if host is None:
            return False
        if host in self.names:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.networks)

    def scheme(self, scheme: str, headers: dict[str, str], client: str | None) -> str:
        """``http`` or ``https``: the connection's own, or the trusted proxy's word for it."""
        forwarded = headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
        if forwarded and self.trusts(client):
            scheme = forwarded
        return "https" if scheme in ("https", "wss") else "http"
