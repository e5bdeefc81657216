"""Abuse logged by summary: counts per kind and address, one line per interval.

An attacker makes thousands of events a minute (bodies that stop, heads that never
end, sockets over an address's cap); a line for each would fill the disk and hide
everything else. Each event is only counted here (and logged at debug); once an
interval after the first, one line says how many of each kind came from how many
addresses, naming the busiest.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

log = logging.getLogger("atelier.abuse")

SUMMARY_SECONDS = 60.0
"""How often at most the summary is written (``--abuse-log-every``)."""
MAX_ADDRESSES = 1000
"""Addresses counted apart in one interval; the rest are "others" (an IPv6
attacker has as many as it likes, and the table must not grow with them)."""
TOP = 5

KINDS: dict[str, tuple[int, str]] = {
    "body_timeout": (logging.WARNING, "request bodies too slow or stopped (408)"),
    "shed": (logging.WARNING, "unfinished requests closed to stay within the server's budget"),
    "over_budget": (logging.WARNING, "connections refused while the server's budget was full "
                    "(from addresses holding their share)"),
    "socket_cap": (logging.WARNING, "connections over an address's --max-sockets"),
    "head_timeout": (logging.INFO, "request heads not sent in time"),
    "left_mid_body": (logging.INFO, "clients gone before sending their whole body"),
}
"""Each kind of event: the level of a summary that has it, and its words."""


class AbuseLog:
    def __init__(self, every: float = SUMMARY_SECONDS, logger: logging.Logger = log) -> None:
        self.every = every
        self.logger = logger
        self.counts: dict[str, Counter[str]] = {}
        self.timer: asyncio.TimerHandle | None = None

    def count(self, kind: str, address: str | None) -> None:
        """One event of ``kind`` from ``address``; the summary comes later."""
        if self.logger.isEnabledFor(logging.DEBUG):
            self.logger.debug("%s: %s", address or "?", KINDS[kind][1])
        by_address = self.counts.setdefault(kind, Counter())
        key = address or "?"
        if key not in by_address and len(by_address) >= MAX_ADDRESSES:
            key = "others"
        by_address[key] += 1
        if self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(self.every, self.flush)

    def flush(self) -> None:
        """Write the summary of what was counted, and start again."""
        self.timer = None
        counts, self.counts = self.counts, {}
        if not counts:
            return
        level = max(KINDS[kind][0] for kind in counts)
        self.logger.log(level, "in the last %g s: %s", self.every, "; ".join(
            summary(kind, by_address) for kind, by_address in counts.items()))

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.flush()


def summary(kind: str, by_address: Counter[str]) -> str:
    """``request bodies ...: 1,204 from 50 addresses (127.0.0.5: 40, ...)``."""
    total = sum(by_address.values())
    top = ", ".join(f"{address}: {n:,}" for address, n in by_address.most_common(TOP))
    more = ", ..." if len(by_address) > TOP else ""
    places = f"{len(by_address):,} address{'es' if len(by_address) != 1 else ''}"
    if "others" in by_address:
        places = f"over {MAX_ADDRESSES:,} addresses"
    return f"{KINDS[kind][1]}: {total:,} from {places} ({top}{more})"
