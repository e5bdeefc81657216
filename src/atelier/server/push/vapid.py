"""The server's VAPID key pair (RFC 8292): made on the first start, kept in the
store, so every process and every restart signs with the same key and the
browsers' subscriptions (made for that public key) stay valid."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid

from atelier.store.push import PushStore


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_key_of(vapid: Vapid) -> str:
    """The public key as ``applicationServerKey`` takes it: the uncompressed P-256
    point, base64url."""
    raw = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(raw)


def make_pair() -> tuple[str, str]:
    vapid = Vapid()
    vapid.generate_keys()
    return vapid.private_pem().decode(), public_key_of(vapid)


async def server_key(store: PushStore) -> tuple[Vapid, str]:
    """The kept pair (made now if there is none): the signer and its public key."""
    pem, public = await store.vapid_key(make_pair)
    return Vapid.from_pem(pem.encode()), public
