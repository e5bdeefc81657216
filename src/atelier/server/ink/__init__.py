"""Live ink on the server: a batch taken in, checked against who may draw now,
kept, relayed to the connections that see that drawing, and bundled for them.

- ``transport``: what the session needs of its socket's transport (a typed protocol);
- ``rights``: who may draw now, and with what, as of the last logged event;
- ``caches``: everything the ink path works out once and keeps (one object per room);
- ``intake``: a batch in, and the store it is written to;
- ``relay``: batches out to the connections that see them;
- ``bundles``: many ink frames gathered into one message per connection.

The modules import one another in that order only (no module imports one listed
before it imports a later one), and none imports ``live_room`` but ``intake``
and ``relay``, the two that act on a whole room."""
