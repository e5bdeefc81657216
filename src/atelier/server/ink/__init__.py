"""Live ink on the server: a batch taken in, checked against who may draw now,
kept, relayed to the connections that see that drawing, and bundled for them.

- ``transport``: what the session needs of its socket's transport (a typed protocol);
- ``rights``: who may draw now, and with what, as of the last logged event;
- ``bundles``: many ink frames gathered into one message per connection;
- ``caches``: everything the ink path works out once and keeps (one object per room);
- ``room``: what the package needs of a room and its connections (typed protocols);
- ``relay``: batches out to the connections that see them;
- ``intake``: a batch in, and the store it is written to.

Each imports only ones listed before it, and none imports the server's room or
connection modules: those import this package (a ``LiveRoom`` holds its
``InkCaches``, a ``Connection`` its ``Bundle``)."""
