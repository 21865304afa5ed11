"""Mail (sign-in mails, turn notices): :class:`Mailer` sends one through the SMTP server of
``--smtp-url`` with the standard library's :mod:`smtplib`, in a thread (so the event loop plays on).

``smtp://host:port`` talks plain SMTP and switches to TLS (STARTTLS) when the server offers
it; ``smtps://host:port`` speaks TLS from the start. ``user:password@`` before the host logs
in. Nothing else is sent: no tracking pixel, no external image, plain text only.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Final
from urllib.parse import unquote, urlsplit

__all__ = ["MailError", "Mailer", "check_smtp_url"]

SMTP_TIMEOUT: Final = 20.0
"""Seconds an SMTP server may take to answer."""


class MailError(ValueError):
    """A bad ``--smtp-url``."""


def check_smtp_url(url: str) -> tuple[str, str, int, str | None, str | None]:
    """(scheme, host, port, user, password) of an SMTP URL, or :class:`MailError`.

    >>> check_smtp_url("smtp://mail.example.org:2525")
    ('smtp', 'mail.example.org', 2525, None, None)
    >>> check_smtp_url("smtps://me:s%40cret@mail.example.org")[1:]
    ('mail.example.org', 465, 'me', 's@cret')
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise MailError(f"{url!r}: {exc}") from None
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise MailError(f"{url!r} is not like smtp://HOST:PORT or smtps://HOST:PORT")
    default = 465 if parts.scheme == "smtps" else 25
    return (parts.scheme, parts.hostname, port or default,
            unquote(parts.username) if parts.username else None,
            unquote(parts.password) if parts.password else None)


class Mailer:
    """Sends plain-text mails through one SMTP server."""

    def __init__(self, url: str, sender: str) -> None:
        self.scheme, self.host, self.port, self.user, self.password = check_smtp_url(url)
        self.sender = sender

    async def send(self, to: str, subject: str, body: str) -> None:
        message = EmailMessage()
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        await self.send_message(message)

    async def send_message(self, message: EmailMessage) -> None:
        """Send a message made by the caller (with headers of its own, such as a turn
        notice's ``List-Unsubscribe``); its ``From`` is the sender."""
        if "From" not in message:
            message["From"] = self.sender
        await asyncio.to_thread(self._send, message)

    def _send(self, message: EmailMessage) -> None:
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if self.scheme == "smtps":
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=SMTP_TIMEOUT,
                                    context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT)
        with smtp:
            smtp.ehlo()
            if self.scheme == "smtp" and smtp.has_extn("starttls"):
                smtp.starttls(context=context)
                smtp.ehlo()
            if self.user is not None:
                smtp.login(self.user, self.password or "")
            # the envelope's sender is the bare address of "Name <address>"
            smtp.send_message(message, from_addr=parseaddr(self.sender)[1] or self.sender)
