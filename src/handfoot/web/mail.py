"""Sending e-mail (``--smtp-url``, ``--mail-from``): :class:`Mailer`.

The standard library's :mod:`smtplib` in a thread (a message every hour or so per game
needs no asyncio SMTP client). The URL says how to reach the server:
``smtp://[user:password@]host[:port]`` (plain, upgraded with STARTTLS when the server
offers it), ``smtp+starttls://`` (STARTTLS required) or ``smtps://`` (TLS from the
start, port 465 by default).
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import parseaddr
from urllib.parse import unquote, urlsplit

__all__ = ["Mailer", "parse_smtp_url"]


@dataclass(frozen=True, slots=True)
class MailServer:
    host: str
    port: int
    security: str
    """``"auto"`` (STARTTLS if offered), ``"starttls"`` or ``"tls"``."""
    username: str | None
    password: str | None


def parse_smtp_url(url: str) -> MailServer:
    """The server an ``--smtp-url`` names.

    >>> parse_smtp_url("smtps://me:secret@mail.example.org")
    MailServer(host='mail.example.org', port=465, security='tls', username='me', password='secret')
    >>> parse_smtp_url("smtp://127.0.0.1:8025").port
    8025
    """
    parts = urlsplit(url)
    security = {"smtp": "auto", "smtp+starttls": "starttls", "smtps": "tls"}.get(parts.scheme)
    if security is None or not parts.hostname:
        raise ValueError("--smtp-url: smtp://[user:password@]host[:port], smtp+starttls://... "
                         "or smtps://...")
    port = parts.port or (465 if security == "tls" else 587 if security == "starttls" else 25)
    return MailServer(parts.hostname, port, security,
                      unquote(parts.username) if parts.username else None,
                      unquote(parts.password) if parts.password else None)


class Mailer:
    """Sends messages through one SMTP server, from one address."""

    def __init__(self, url: str, sender: str) -> None:
        self.server = parse_smtp_url(url)
        self.sender = sender

    async def send(self, message: EmailMessage) -> None:
        """Send a message (its ``From`` set to the sender if it has none)."""
        if "From" not in message:
            message["From"] = self.sender
        await asyncio.to_thread(self._send, message)

    def _send(self, message: EmailMessage) -> None:
        s = self.server
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if s.security == "tls":
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=30, context=context)
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=30)
        with smtp:
            if s.security != "tls":
                smtp.ehlo()
                if s.security == "starttls" or smtp.has_extn("starttls"):
                    smtp.starttls(context=context)
                    smtp.ehlo()
            if s.username:
                smtp.login(s.username, s.password or "")
            smtp.send_message(message, from_addr=parseaddr(self.sender)[1] or self.sender)
