"""Web Push with VAPID (RFC 8030, 8291, 8292): the server's key pair and sending a notice.

The VAPID key pair is made at the server's first start and kept in the database (a server
secret: 256 random bits, the P-256 private key's scalar), so every process and every
restart signs with the same key and the browsers' subscriptions stay valid. The browser is
given the public key (:func:`application_server_key`) to subscribe with; a notice is
encrypted for the subscription (``aes128gcm``) and posted to its endpoint by ``pywebpush``
in a thread. Only endpoints on the push services' hosts are accepted
(:func:`check_endpoint`): a subscription is sent by a browser, and the server must not be
made to post to any address it is given.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

__all__ = ["DEFAULT_PUSH_HOSTS", "PushGone", "PushKeys", "check_endpoint", "send_push"]

log = logging.getLogger("handfoot.web")

VAPID_SECRET: Final = "vapid"
"""The name of the server secret the VAPID private key is made from."""

DEFAULT_PUSH_HOSTS: Final = (
    "fcm.googleapis.com", "updates.push.services.mozilla.com", "push.services.mozilla.com",
    "web.push.apple.com", "notify.windows.com", "push.apple.com")
"""The push services' hosts (a subscription's endpoint must be on one, or under one)."""

PUSH_TTL: Final = 24 * 3600
"""Seconds a push service keeps a notice for a browser that is offline."""

_LOOPBACK: Final = ("127.0.0.1", "localhost", "::1")


class PushGone(Exception):
    """The push service says the subscription is no more (404 or 410): forget it."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass(frozen=True, slots=True)
class PushKeys:
    """The server's VAPID key pair, from its secret."""

    secret: bytes

    def private_key(self) -> Any:
        from cryptography.hazmat.primitives.asymmetric import ec

        order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
        scalar = int.from_bytes(self.secret, "big") % (order - 1) + 1
        return ec.derive_private_key(scalar, ec.SECP256R1())

    def application_server_key(self) -> str:
        """The public key as the browser's ``pushManager.subscribe`` takes it (the
        uncompressed point, base64url)."""
        from cryptography.hazmat.primitives import serialization

        point = self.private_key().public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return _b64(point)

    def vapid(self) -> Any:
        from py_vapid import Vapid02

        return Vapid02(private_key=self.private_key())


def check_endpoint(endpoint: object, hosts: tuple[str, ...]) -> str:
    """A subscription's endpoint if it is an ``https`` URL on a push service's host (one
    of ``hosts`` or under one; a loopback host in ``hosts`` may be ``http``: a test's
    stand-in service); else :class:`ValueError`.

    >>> check_endpoint("https://fcm.googleapis.com/fcm/send/abc", DEFAULT_PUSH_HOSTS)
    'https://fcm.googleapis.com/fcm/send/abc'
    >>> check_endpoint("https://evil.example/x", DEFAULT_PUSH_HOSTS)
    Traceback (most recent call last):
    ...
    ValueError: push: the endpoint is not on a known push service
    """
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise ValueError("push: endpoint: a URL of at most 1000 characters")
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    known = any(host == h or host.endswith("." + h) for h in hosts)
    if not known:
        raise ValueError("push: the endpoint is not on a known push service")
    if parts.scheme != "https" and not (parts.scheme == "http" and host in _LOOPBACK):
        raise ValueError("push: the endpoint must be https")
    return endpoint


async def send_push(keys: PushKeys, subscription: Mapping[str, Any], payload: Mapping[str, Any],
                    contact: str, *, topic: str | None = None) -> None:
    """Encrypt ``payload`` (JSON) for the subscription and post it, signed with the
    server's VAPID key (``contact``: the ``sub`` claim, ``mailto:`` or ``https:``).
    :class:`PushGone` when the service says the subscription is gone; other failures
    raise (the caller logs them)."""
    from pywebpush import WebPushException, webpush

    headers = {"Topic": topic} if topic else None
    data = json.dumps(payload, separators=(",", ":"))

    def post() -> None:
        webpush(subscription_info=dict(subscription), data=data,
                vapid_private_key=keys.vapid(), vapid_claims={"sub": contact},
                ttl=PUSH_TTL, headers=headers, timeout=10)

    try:
        await asyncio.to_thread(post)
    except WebPushException as exc:
        if exc.status_code in (404, 410):
            raise PushGone(str(exc.status_code)) from None
        raise
