"""Per-address limits: rooms created per minute, room lookups, open TCP connections,
open WebSockets, and WebSockets that have not yet said hello.

One address is often many people (a LAN party's phones behind one router, a
school's NAT), so the defaults are generous: they stop one machine from filling
the server, not a group from playing. The address is the TCP peer's, or, when
``atelier serve --forwarded-allow-ips`` names the proxies, the one they forward.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from atelier.errors import RuleError
from atelier.server.edge.forwarded import Proxies
from atelier.server.edge.limits import TokenBucket

ROOMS_PER_MINUTE = 120
LOOKUPS_PER_MINUTE = 600
"""Room codes one address may look up (a page asking about its room, a hello to a
code that does not exist): enough for a party reconnecting at once, far too few
to guess codes."""
SOCKETS_PER_ADDRESS = 400
"""Open TCP connections per address, counted from the accept, before a byte is
read: a browser keeps a few for HTTP beside its WebSocket."""
CONNECTIONS_PER_ADDRESS = 200
PENDING_HELLOS_PER_ADDRESS = 50
FORGET_AFTER = 600.0  # idle room buckets are dropped, so the table cannot grow forever


def client_address(peer: str | None, forwarded_for: str | None, trusted: Proxies) -> str:
    """The client's address: the TCP peer's, unless the peer is a trusted proxy;
    then the rightmost ``X-Forwarded-For`` entry that is not itself a trusted proxy
    (entries further left were written by the client and prove nothing)."""
    address = peer or "?"
    if not forwarded_for or not trusted.trusts(peer):
        return address
    for hop in reversed([h.strip() for h in forwarded_for.split(",") if h.strip()]):
        address = hop
        if trusted.everyone or not trusted.trusts(hop):
            break
    return address


@dataclass(frozen=True)
class AddressPolicy:
    rooms_per_minute: int = ROOMS_PER_MINUTE
    connections: int = CONNECTIONS_PER_ADDRESS
    pending_hellos: int = PENDING_HELLOS_PER_ADDRESS
    lookups_per_minute: int = LOOKUPS_PER_MINUTE
    proxies: Proxies = field(default_factory=lambda: Proxies(""))
    """Whose X-Forwarded-For to believe (``--forwarded-allow-ips``); nobody by default."""


@dataclass
class AddressLimits:
    policy: AddressPolicy = field(default_factory=AddressPolicy)
    _rooms: dict[str, TokenBucket] = field(default_factory=dict)
    _lookups: dict[str, TokenBucket] = field(default_factory=dict)
    _open: dict[str, int] = field(default_factory=dict)
    _pending: dict[str, int] = field(default_factory=dict)
    _swept: float = 0.0

    def take_room(self, address: str, now: float | None = None) -> bool:
        """One room creation for ``address``; False when it made too many this minute."""
        now = time.monotonic() if now is None else now
        self._forget(now)
        return _bucket(self._rooms, address, self.policy.rooms_per_minute).take(1.0, now)

    def take_lookup(self, address: str, now: float | None = None) -> RuleError | None:
        """One room lookup for ``address``; the refusal when it made too many."""
        now = time.monotonic() if now is None else now
        self._forget(now)
        per_minute = self.policy.lookups_per_minute
        if _bucket(self._lookups, address, per_minute).take(1.0, now):
            return None
        return RuleError("too_many_lookups", per_minute=per_minute)

    def no_lookups(self, address: str, now: float | None = None) -> RuleError | None:
        """The refusal if ``address`` has no lookup left, spending none."""
        bucket = self._lookups.get(address)
        if bucket is None or bucket.left(time.monotonic() if now is None else now) >= 1:
            return None
        return RuleError("too_many_lookups", per_minute=self.policy.lookups_per_minute)

    def admit(self, address: str) -> RuleError | None:
        """Count a new connection (not yet past hello); the refusal if the address
        has too many. Every admitted connection must be ``release``d."""
        if self._open.get(address, 0) >= self.policy.connections:
            return RuleError("too_many_connections")
        if self._pending.get(address, 0) >= self.policy.pending_hellos:
            return RuleError("too_many_pending")
        self._open[address] = self._open.get(address, 0) + 1
        self._pending[address] = self._pending.get(address, 0) + 1
        return None

    def said_hello(self, address: str) -> None:
        _decrement(self._pending, address)

    def release(self, address: str, said_hello: bool) -> None:
        _decrement(self._open, address)
        if not said_hello:
            _decrement(self._pending, address)

    def open_connections(self, address: str) -> int:
        return self._open.get(address, 0)

    def _forget(self, now: float) -> None:
        if now - self._swept < FORGET_AFTER:
            return
        self._swept = now
        for table in (self._rooms, self._lookups):
            for address, bucket in list(table.items()):
                if now - bucket.stamp > FORGET_AFTER:
                    del table[address]


def _decrement(counts: dict[str, int], address: str) -> None:
    left = counts.get(address, 0) - 1
    if left > 0:
        counts[address] = left
    else:
        counts.pop(address, None)


class Ticket:
    """One counted TCP connection; ``release`` (once is enough) gives it back."""

    __slots__ = ("address", "counts")

    def __init__(self, counts: SocketCounts | None, address: str) -> None:
        self.counts = counts
        self.address = address

    def release(self) -> None:
        counts, self.counts = self.counts, None
        if counts is not None:
            _decrement(counts.open, self.address)


class SocketCounts:
    """Open TCP connections per peer address, counted from the accept, so that one
    address cannot hold the process's file descriptors with connections that never
    send a byte. A trusted proxy is not counted: it carries many clients, each
    limited by its forwarded address once its request is read."""

    def __init__(self, limit: int = SOCKETS_PER_ADDRESS, proxies: Proxies | None = None) -> None:
        self.limit = limit
        self.proxies = proxies or Proxies("")
        self.open: dict[str, int] = {}

    def take(self, peer: str | None) -> Ticket | None:
        """A ticket for a new connection from ``peer``; None if it has too many."""
        if peer is None or self.proxies.trusts(peer):
            return Ticket(None, "")
        held = self.open.get(peer, 0)
        if held >= self.limit:
            return None
        self.open[peer] = held + 1
        return Ticket(self, peer)


def _bucket(buckets: dict[str, TokenBucket], address: str, per_minute: int) -> TokenBucket:
    """``address``'s bucket in ``buckets``, made full on its first use."""
    bucket = buckets.get(address)
    if bucket is None:
        bucket = buckets[address] = TokenBucket(per_minute / 60.0, float(per_minute))
    return bucket
