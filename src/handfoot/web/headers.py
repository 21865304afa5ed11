"""Security headers on every HTTP answer (:class:`SecurityHeaders`) and the site's Content
Security Policy (:func:`content_security_policy`): see docs/web.md, "Security headers".

Seat tokens live in the browser's storage, so a script injected into any page would take
every seat the browser holds. The policy allows scripts only from the site's own files (no
inline script, no ``eval``), loads nothing from elsewhere, and refuses to be framed.
"""

from __future__ import annotations

from typing import Final

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SECURITY_HEADERS", "SecurityHeaders", "content_security_policy"]

CSP_DIRECTIVES: Final = (
    "default-src 'self'",
    "script-src 'self'",
    # the pages' few style="..." attributes (a style attribute cannot run script); no
    # <style> element nor any style sheet from elsewhere
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
"""The policy but for ``connect-src``, which names the request's own host (see
:func:`content_security_policy`)."""

SECURITY_HEADERS: Final = (
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
)
"""The headers besides the policy, the same on every answer."""


def content_security_policy(host: str | None) -> str:
    """The policy for a request to ``host`` (its ``Host`` header): ``connect-src`` names
    the WebSocket of that host (``'self'`` covers ``ws:`` in current browsers only).

    >>> "script-src 'self';" in content_security_policy("cards.example.org")
    True
    >>> content_security_policy("cards.example.org").endswith(
    ...     "connect-src 'self' ws://cards.example.org wss://cards.example.org")
    True
    """
    connect = "connect-src 'self'"
    if host and all(c.isalnum() or c in ".-:[]" for c in host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join((*CSP_DIRECTIVES, connect))


class SecurityHeaders:
    """ASGI middleware: every HTTP answer gets the Content Security Policy and
    :data:`SECURITY_HEADERS` (an answer that already has one of them keeps its own)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = content_security_policy(Headers(scope=scope).get("host"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in (("content-security-policy", policy), *SECURITY_HEADERS):
                    if name not in headers:
                        headers.append(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
