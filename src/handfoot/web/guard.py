"""What the server refuses before a message reaches a table: requests from other sites' pages
(the ``Origin`` header), floods (a token bucket per connection), and protocol frames in the
logs (see docs/web.md, "What the server refuses").

A browser sends ``Origin`` with every WebSocket handshake and every cross-site ``POST``; a
page of another site that holds no link still cannot act for anybody (every action needs a
token), but it must not use a visitor's browser to make games or flood a table either. A
request without ``Origin`` does not come from a web page (a script, a bot, a test) and is let
through: it gains nothing a token does not already give.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["FrameLogFilter", "OriginGuard", "TokenBucket", "normalize_origin",
           "origin_allowed", "quiet_frame_logs"]

ORIGIN_CLOSE: Final = 4403
"""The close code of a WebSocket refused for its origin."""

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})

DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}

FRAME_LOGGERS: Final = ("uvicorn.error", "websockets.server", "websockets.protocol")
"""The loggers the WebSocket library writes its frame dumps to (uvicorn hands it its own)."""


def normalize_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case, the scheme's default port left out; None when
    ``origin`` is not such an origin (``"null"``, a path, no host).

    >>> normalize_origin("HTTPS://Cards.Example.org:443/")
    'https://cards.example.org'
    >>> normalize_origin("null") is None
    True
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username or parts.password:
        return None
    host = parts.hostname
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS[parts.scheme]:
        return f"{parts.scheme}://{host}"
    return f"{parts.scheme}://{host}:{port}"


def origin_allowed(origin: str | None, host: str | None, allowed: Collection[str]) -> bool:
    """Whether a request with this ``Origin`` header may go on: no header (not a web page),
    the same host and port as the request's ``Host`` header (the page is this site's, by
    whatever scheme a proxy in front terminated), or one of ``allowed`` (origins, compared
    after :func:`normalize_origin`).

    >>> origin_allowed("http://localhost:8000", "localhost:8000", ())
    True
    >>> origin_allowed("https://evil.example", "cards.example.org", ())
    False
    >>> origin_allowed("https://family.example", "127.0.0.1:8000", ["https://family.example"])
    True
    """
    if origin is None:
        return True
    normal = normalize_origin(origin)
    if normal is None:
        return False
    if normal in {normalize_origin(a) for a in allowed}:
        return True
    if not host:
        return False
    scheme, _, netloc = normal.partition("://")
    request = normalize_origin(f"{scheme}://{host}")
    return request is not None and request.partition("://")[2] == netloc


class OriginGuard:
    """ASGI middleware: a WebSocket handshake or a ``POST`` (any method but GET, HEAD and
    OPTIONS) whose ``Origin`` is not allowed (:func:`origin_allowed`) is refused before the
    app sees it: ``403`` with ``{"error": ...}``, or, for a WebSocket, an ``error`` frame with
    code ``origin`` and a close with code 4403 and the reason."""

    def __init__(self, app: ASGIApp, allowed: Collection[str] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or (
                kind == "http" and scope.get("method", "GET") in SAFE_METHODS):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin_allowed(origin, headers.get("host"), self.allowed):
            await self.app(scope, receive, send)
            return
        message = (f"pages of {origin} may not use this server (only its own pages"
                   + (" and those of " + ", ".join(self.allowed) if self.allowed else "")
                   + ")")
        if kind == "http":
            body = json.dumps({"error": message}).encode()
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": json.dumps(
            {"type": "error", "id": None, "code": "origin", "message": message})})
        await send({"type": "websocket.close", "code": ORIGIN_CLOSE,
                    "reason": "origin not allowed"})


@dataclass
class TokenBucket:
    """A connection's allowance of messages: ``burst`` at once, refilled at ``rate`` a
    second. :meth:`take` spends one if there is one; ``refused`` counts the messages refused
    since the last one let through (a client that keeps sending into an empty bucket is
    flooding)."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)
    refused: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def take(self) -> bool:
        """Spend one message's token: False (and one more refusal) if the bucket is empty."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False


class FrameLogFilter(logging.Filter):
    """Drops the WebSocket library's dumps of frames (``< TEXT '{"type":"hello","token":…``):
    at debug level they would write the start of every seat's token to the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in ("< %s", "> %s")


_FILTER: Final = FrameLogFilter()


def quiet_frame_logs() -> None:
    """Install :class:`FrameLogFilter` on the loggers frame dumps go to (once)."""
    for name in FRAME_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
