"""What the server refuses before a message reaches a table: requests from other sites' pages
(the ``Origin`` header), floods (a token bucket per connection), too many new games, table
connections or score sheets from one address (a token bucket per client address and kind:
:class:`OpenLimiter`), and protocol frames in the logs (see docs/web.md, "What the server
refuses").

A browser sends ``Origin`` with every WebSocket handshake and every cross-site ``POST``; a
page of another site that holds no link still cannot act for anybody (every action needs a
token), but it must not use a visitor's browser to make games or flood a table either. A
request without ``Origin`` does not come from a web page (a script, a bot, a test) and is let
through: it gains nothing a token does not already give. The pages a mailed link opens
(unsubscribe, confirm an address: :data:`MAILED_LINKS`) send their form as a navigation, for
which a browser under the site's ``no-referrer`` policy sends ``Origin: null``: those paths
take an opaque origin (their token is the whole authority), never another site's.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from handfoot.web import messages
from handfoot.web.store import is_outage

__all__ = ["FloodWatch", "FrameLogFilter", "OpenLimit", "OpenLimiter", "OriginGuard",
           "OutageGuard", "TokenBucket", "normalize_origin", "open_kind", "origin_allowed",
           "quiet_frame_logs"]

MAILED_LINKS: Final = frozenset({"/notices/unsubscribe", "/notices/confirm"})
"""Paths whose ``POST`` may come with ``Origin: null`` (a form sent from the page a mailed
link opened)."""

ORIGIN_CLOSE: Final = 4403
"""The close code of a WebSocket refused for its origin."""

RATE_CLOSE: Final = 4429
"""The close code of a WebSocket refused for its address's rate of opening connections,
where the handshake cannot be answered with a ``429``."""

log = logging.getLogger("handfoot.web")

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})

DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}

QUIET_LOGGERS: Final = {"aiosqlite": logging.INFO, "sqlalchemy.engine": logging.WARNING,
                        "sqlalchemy.pool": logging.WARNING}
"""Loggers of the database libraries that at debug level write every statement with its
values (a live game's seed among them), and the level each is raised to when the host's
logging setup leaves it unset (see :func:`quiet_frame_logs`)."""

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
        if origin_allowed(origin, headers.get("host"), self.allowed) or (
                origin == "null" and kind == "http" and scope.get("path") in MAILED_LINKS):
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
        await send({"type": "websocket.send",
                    "text": messages.encode(messages.error(None, "origin", message))})
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


class FloodWatch:
    """The refusals of one connection for its rate in a sliding window: a client refused
    ``limit`` times within ``window`` seconds is flooding, however it spaces its messages
    (a pause that lets a token or two back in only made the count of refusals *in a row*
    start again). Keeps at most ``limit`` times.

    >>> t = [0.0]
    >>> watch = FloodWatch(3, 10.0, clock=lambda: t[0])
    >>> watch.refused(), watch.refused()
    (False, False)
    >>> t[0] = 11.0  # the first two are forgotten
    >>> watch.refused(), watch.refused(), watch.refused()
    (False, False, True)
    """

    def __init__(self, limit: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.times: deque[float] = deque(maxlen=max(1, limit))

    def refused(self) -> bool:
        """Note one refusal: True if it makes ``limit`` within the window (close now)."""
        now = self.clock()
        while self.times and self.times[0] <= now - self.window:
            self.times.popleft()
        self.times.append(now)
        return len(self.times) >= self.limit


@dataclass(frozen=True)
class OpenLimit:
    """How many requests of one kind one client address may open: ``burst`` at once, then
    ``per_minute`` on average (a :class:`TokenBucket` per address)."""

    kind: str
    """``"game"``, ``"socket"``, ``"sheet"`` or ``"post"`` (see :func:`open_kind`)."""
    burst: int
    per_minute: float
    what: str
    """What is counted, in the refusal's words (``"new games"``)."""


_REMATCH: Final = re.compile(r"/api/games/[^/]+/rematch")


def open_kind(kind: str, method: str, path: str) -> str | None:
    """Which limit a request counts against: ``"game"`` for a new game (``POST
    /api/games``, ``/api/daily``, a rematch), ``"socket"`` for a table's WebSocket,
    ``"sheet"`` for a new score sheet (``POST /api/scores``), ``"post"`` for any other
    ``POST`` (a rules check, a game's status, a score sheet's round); None for anything
    else.

    >>> open_kind("http", "POST", "/api/games"), open_kind("websocket", "GET", "/ws/abc")
    ('game', 'socket')
    >>> open_kind("http", "GET", "/api/games/abc/record") is None
    True
    >>> open_kind("http", "POST", "/api/rules/check")
    'post'
    """
    if kind == "websocket":
        return "socket" if path.startswith("/ws/") else None
    if kind != "http" or method != "POST":
        return None
    if path in ("/api/games", "/api/daily") or _REMATCH.fullmatch(path):
        return "game"
    if path == "/api/scores":
        return "sheet"
    return "post"


class OpenLimiter:
    """ASGI middleware: new games, table WebSockets and new score sheets are counted per
    client address (``scope["client"]``: behind a reverse proxy, the address uvicorn takes
    from ``X-Forwarded-For`` when the proxy is one it trusts) against their
    :class:`OpenLimit`. A request past its limit is refused before the app sees it: ``429``
    with ``Retry-After`` (whole seconds until one more is allowed) and ``{"error": ...,
    "retry_after": ...}``; a WebSocket gets the same ``429`` as its handshake's answer
    where the server can send one (uvicorn and Starlette's test client can), else an
    ``error`` frame with code ``rate_limited`` and a close with code 4429.

    The buckets live in the process: with several processes an address may open up to
    that many times the limits. Addresses whose buckets are full again are forgotten."""

    PRUNE_AT: Final = 4096
    """The number of addresses remembered above which full buckets are dropped."""

    def __init__(self, app: ASGIApp, limits: Collection[OpenLimit],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.limits = {limit.kind: limit for limit in limits}
        self.clock = clock
        self.buckets: dict[tuple[str, str], TokenBucket] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = open_kind(scope["type"], scope.get("method", "GET"), scope.get("path", "")) \
            if scope["type"] in ("http", "websocket") else None
        limit = self.limits.get(kind) if kind is not None else None
        if limit is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        wait = self.take(limit, address)
        if wait is None:
            await self.app(scope, receive, send)
            return
        retry = max(1, math.ceil(min(wait, 86400.0)))
        message = (f"too many {limit.what} from your address (at most {limit.burst} at once, "
                   f"{limit.per_minute:g} a minute): try again in {retry} s")
        body = json.dumps({"error": message, "retry_after": retry}).encode()
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()),
                   (b"retry-after", str(retry).encode())]
        log.info("refused %s for %s: over its limit", limit.kind, address)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 429, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        if "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 429,
                        "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": messages.encode(
            messages.error(None, "rate_limited", message, retry_after=retry))})
        await send({"type": "websocket.close", "code": RATE_CLOSE,
                    "reason": "too many connections"})

    def take(self, limit: OpenLimit, address: str) -> float | None:
        """Count one request: None if allowed, else the seconds until one more would be."""
        key = (limit.kind, address)
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.PRUNE_AT:
                self.prune()
            bucket = self.buckets[key] = TokenBucket(limit.per_minute / 60.0, limit.burst,
                                                     clock=self.clock)
        if bucket.take():
            return None
        rate = bucket.rate
        return (1.0 - bucket.tokens) / rate if rate > 0 else float("inf")

    def prune(self) -> None:
        """Forget the addresses whose buckets have filled up again (they have been quiet)."""
        now = self.clock()
        for key, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[key]


BUSY_RETRY: Final = 5
"""Seconds a ``503`` for a database outage asks the client to wait (``Retry-After``)."""


class OutageGuard:
    """ASGI middleware: an HTTP request whose handler met a database outage
    (:func:`~handfoot.web.store.is_outage`: no connection, the server shutting down...) is
    answered ``503`` with ``Retry-After`` and ``{"error": "the server is busy ..."}``, and
    the log has one warning line, not a traceback. Other errors go on as before."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            if started or not is_outage(exc):
                raise
            log.warning("%s %s: the database did not answer (%s): 503", scope.get("method"),
                        scope.get("path"), type(exc).__name__)
            body = json.dumps({"error": "the server is busy (its database does not answer):"
                               " nothing was changed; try again in a moment",
                               "retry_after": BUSY_RETRY}).encode()
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode()),
                                    (b"retry-after", str(BUSY_RETRY).encode())]})
            await send({"type": "http.response.body", "body": body})


CLIENT_FAULTS: Final = frozenset({"Invalid UTF-8 sequence received from client."})
"""uvicorn's log lines for a client's fault that come with a traceback of uvicorn's own
(the client is answered, and the socket closed with 1007): the line is kept, the traceback
dropped."""


class FrameLogFilter(logging.Filter):
    """Drops the WebSocket library's dumps of frames (``< TEXT '{"type":"hello","token":…``):
    at debug level they would write the start of every seat's token to the log; and the
    traceback of a client's fault (:data:`CLIENT_FAULTS`), keeping its one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in CLIENT_FAULTS:
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return record.msg not in ("< %s", "> %s")


_FILTER: Final = FrameLogFilter()


def quiet_frame_logs() -> None:
    """Install :class:`FrameLogFilter` on the loggers frame dumps go to (once), and raise
    the database libraries' loggers (:data:`QUIET_LOGGERS`) above debug where the host's
    logging setup left their level unset (a level the host set is kept)."""
    for name in FRAME_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
    for name, level in QUIET_LOGGERS.items():
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(level)
