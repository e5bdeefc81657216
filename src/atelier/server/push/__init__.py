"""Turn nudges by Web Push (docs/deploy.md, "Turn nudges"; docs/protocol.md).

``vapid``: the server's key pair; ``nudges``: which pushes an event calls for
(pure); ``sender``: encrypting and sending one push; ``service``: the pushes of
the rooms this process commits, each claimed in the store before it goes out."""
