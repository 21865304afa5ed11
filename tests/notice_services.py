"""Local stand-ins for the services turn notices go to, for the tests: an SMTP server
(aiosmtpd) that keeps what it receives, and a Web Push service that checks what a push
service checks (the VAPID JWT's ES256 signature against the key sent with it, its ``aud``,
``exp`` and ``sub``; ``TTL``; ``aes128gcm``; at most 4,096 bytes) and decrypts the payload
with the subscription's private key, which the test made. Both on 127.0.0.1 only."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# -- SMTP ---------------------------------------------------------------------------------------


class Mailbox:
    """What the stand-in SMTP server received: (envelope sender, recipients, message)."""

    def __init__(self) -> None:
        self.mails: list[tuple[str, list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.mails.append((envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 OK"


@contextmanager
def smtp_server() -> Iterator[tuple[str, Mailbox]]:
    """An aiosmtpd server on 127.0.0.1: (its ``--smtp-url``, its mailbox)."""
    from aiosmtpd.controller import Controller

    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", box
    finally:
        controller.stop()


# -- Web Push -----------------------------------------------------------------------------------


class Subscription:
    """A browser's subscription as the test makes it: a P-256 key pair and an auth secret
    (the browser's part), and the endpoint on the stand-in service."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def json(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64e(point),
                                                    "auth": b64e(self.auth)}}


def verify_vapid(header: str, origin: str) -> tuple[str, dict[str, Any]]:
    """Check an ``Authorization: vapid t=JWT, k=KEY`` header: the JWT's ES256 signature
    with ``k``, ``aud`` this origin, ``exp`` within 24 hours, a ``sub``; (k, claims)."""
    scheme, _, rest = header.partition(" ")
    assert scheme.lower() == "vapid", header
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    token, key = parts["t"], parts["k"]
    head64, claims64, sig64 = token.split(".")
    head = json.loads(b64d(head64))
    assert head == {"typ": "JWT", "alg": "ES256"}, head
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(key))
    sig = b64d(sig64)
    assert len(sig) == 64
    der = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
    public.verify(der, f"{head64}.{claims64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(b64d(claims64))
    assert claims["aud"] == origin, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
    assert str(claims["sub"]).startswith(("mailto:", "https:")), claims
    return key, claims


class PushService:
    """The stand-in push service: ``received`` holds each accepted notice as (subscription
    endpoint, VAPID key, decrypted payload); ``refused`` why it refused any; ``answer`` the
    status it gives (201, or 410 to say a subscription is gone)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.subscriptions: dict[str, Subscription] = {}
        self.received: list[tuple[str, str, dict[str, Any]]] = []
        self.refused: list[str] = []
        self.answer = 201
        self.server: ThreadingHTTPServer | None = None

    def subscribe(self, name: str) -> Subscription:
        sub = Subscription(f"{self.origin}/push/{name}")
        self.subscriptions[sub.endpoint] = sub
        return sub

    def handle(self, path: str, headers: Any, body: bytes) -> int:
        import http_ece

        endpoint = self.origin + path
        sub = self.subscriptions.get(endpoint)
        if sub is None:
            return 404
        try:
            key, _ = verify_vapid(headers.get("Authorization", ""), self.origin)
            assert int(headers.get("TTL")) >= 0
            assert headers.get("Content-Encoding") == "aes128gcm"
            assert len(body) <= 4096
            plain = http_ece.decrypt(body, private_key=sub.key, auth_secret=sub.auth,
                                     version="aes128gcm")
        except (AssertionError, InvalidSignature, ValueError, TypeError, KeyError) as exc:
            self.refused.append(repr(exc))
            return 400
        if self.answer != 201:
            return self.answer
        self.received.append((endpoint, key, json.loads(plain)))
        return 201

    def __enter__(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status = service.handle(self.path, self.headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()
