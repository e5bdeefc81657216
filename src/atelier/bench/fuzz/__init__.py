"""A property-based fuzzer over the whole protocol, against a real server process.

Each hypothesis example is one *episode*: a room of a game (drawn), its players
and a spectator on real WebSockets, played from the lobby to the end by a
driver that plays the moves each game lists (``legal_actions``, on the room
rebuilt from its log) and checks that the server takes them, while between the driver's
steps random actors send what hypothesis draws: every client message type
with plausible and broken fields, game actions built from the game's declared
action shapes (``Game.actions``) and mutated, random JSON, deeply nested and
oversized frames, text that is not JSON, valid and broken ink batches.

Every message sent is checked:

- it is answered: a message with an ``id`` gets its ``ack`` or ``error``; one
  without gets a ``ping`` fence after it, and an error before the fence's ack
  marks it refused (a frame that is not a JSON message at all must be refused);
- a refused message changes nothing: the room's log does not grow while it is
  answered (a log entry that appears meanwhile must be a timer's ``timeout``
  or a computer player's move, read from the room's database);
- the server never fails: no ``internal`` error, no 1011 close; the caller
  also reads the server's stderr for tracebacks.

A connection is replaced after :data:`SENDS_PER_CONNECTION` messages (with its
player's token), so the per-connection rate limit and abuse strikes, which a
fuzzer would otherwise run into at once, are exercised without closing it.
``atelier bench fuzz`` runs it at length and prints the figures; the test
suite runs a short one (tests/test_fuzz_protocol.py).
"""

from atelier.bench.fuzz.command import main
from atelier.bench.fuzz.figures import Figures, Violation
from atelier.bench.fuzz.runner import Runner

__all__ = ["Figures", "Runner", "Violation", "main"]
