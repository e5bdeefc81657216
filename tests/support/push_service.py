"""A push service of the tests' own (RFC 8030), on a free local port.

It takes each push over HTTP as a browser vendor's service would and checks it
with the standards, not with the server's code: the VAPID token (RFC 8292) is
an ES256 JWT signed by the server's public key (the ``k`` it sends must be the
key ``GET /api/push/key`` gives), with ``aud`` this service's origin, ``exp`` in
the next 24 hours and a ``sub`` contact; the body is decrypted (RFC 8291,
aes128gcm) with the subscription's private key and auth secret, which the test
made (``subscription()``), as a browser makes them."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    sub: str
    """The subscription's id (the endpoint's last part)."""
    payload: dict[str, Any]
    at: float
    ttl: int
    claims: dict[str, Any]


@dataclass
class Sub:
    """A subscription as a browser holds it: the keys stay here, the JSON goes
    to the server."""

    id: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes
    answer: int = 201  # what the service answers its pushes (410: it is gone)

    def json(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}


@dataclass
class PushService:
    server_key: str = ""
    """The Atelier server's VAPID public key (base64url): set before pushes come."""
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    subs: dict[str, Sub] = field(default_factory=dict)
    httpd: ThreadingHTTPServer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def subscription(self) -> Sub:
        sid = b64url(os.urandom(9))
        sub = Sub(sid, f"{self.url}/push/{sid}", ec.generate_private_key(ec.SECP256R1()),
                  os.urandom(16))
        self.subs[sid] = sub
        return sub

    def to(self, sub: Sub) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.sub == sub.id]

    # -- checking one push --------------------------------------------------------

    def check_vapid(self, authorization: str) -> dict[str, Any]:
        """RFC 8292: ``vapid t=JWT, k=KEY``; the claims if the signature holds."""
        scheme, _, params = authorization.partition(" ")
        assert scheme.lower() == "vapid", authorization
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert parts["k"] == self.server_key, "signed with another key than the server's"
        header_b64, claims_b64, sig_b64 = parts["t"].split(".")
        header = json.loads(unb64url(header_b64))
        assert header["alg"] == "ES256" and header.get("typ", "JWT") == "JWT", header
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
        raw = unb64url(sig_b64)
        assert len(raw) == 64, "ES256 signs with r || s, 32 bytes each"
        signature = encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                         int.from_bytes(raw[32:], "big"))
        public.verify(signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        claims: dict[str, Any] = json.loads(unb64url(claims_b64))
        assert claims["aud"] == self.url, claims
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
        assert str(claims["sub"]).startswith(("mailto:", "https:")), claims
        return claims

    def take(self, path: str, headers: Any, body: bytes) -> int:
        sid = path.rsplit("/", 1)[-1]
        sub = self.subs.get(sid)
        if sub is None:
            return 404
        try:
            claims = self.check_vapid(headers.get("Authorization", ""))
            assert headers.get("Content-Encoding") == "aes128gcm", headers
            plain = http_ece.decrypt(body, private_key=sub.key, auth_secret=sub.auth,
                                     version="aes128gcm")
            payload = json.loads(plain)
            ttl = int(headers.get("TTL", "-1"))
        except Exception as err:  # a test then fails on `refused`
            with self.lock:
                self.refused.append(f"{type(err).__name__}: {err}")
            return 400
        if sub.answer >= 300:
            return sub.answer
        with self.lock:
            self.received.append(Received(sid, payload, time.time(), ttl, claims))
        return 201

    # -- life ----------------------------------------------------------------------

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps connections, as the browsers' services do

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = service.take(self.path, self.headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
