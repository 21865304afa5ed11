"""The sign-in mail, through a real SMTP server (aiosmtpd, on this machine): the link it
carries signs a new device in, once; the answer is the same for an address nobody has;
at most three mails an hour go to one player."""

from __future__ import annotations

import email
import queue
import re
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from handfoot.web.player_routes import SIGNIN_ANSWER
from handfoot.web.players import PLAYER_HEADER
from pg import free_port
from test_web_clubs import Who
from test_web_players import key
from web_client import client


class Inbox:
    """aiosmtpd's handler: every mail received, in a queue."""

    def __init__(self) -> None:
        self.mails: queue.Queue[tuple[list[str], Message]] = queue.Queue()

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.mails.put((list(envelope.rcpt_tos), email.message_from_bytes(envelope.content)))
        return "250 OK"


@pytest.fixture
def smtp() -> Any:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, inbox
    finally:
        controller.stop()


def test_a_mailed_link_signs_a_new_device_in_once(tmp_path: Path, smtp: Any) -> None:
    port, inbox = smtp
    with client(tmp_path / "m.db", smtp_url=f"smtp://127.0.0.1:{port}",
                mail_from="cards@example.org", public_url="https://cards.example.org") as c:
        ann = Who(c, "Ann")
        assert ann.post("/api/me", {"email": "Ann@Example.org"}).status_code == 200
        assert ann.get("/api/me").json()["player"]["email_verified"] is False
        r = c.post("/api/signin/mail", json={"email": "ann@example.org"})
        assert r.status_code == 200 and r.json()["message"] == SIGNIN_ANSWER
        to, mail = inbox.mails.get(timeout=20)
        assert to == ["ann@example.org"] and mail["From"] == "cards@example.org"
        text = mail.get_payload(decode=True).decode()
        assert "Hello Ann" in text
        link = re.search(r"https://cards\.example\.org/signin#(\S+)", text)
        assert link is not None  # the site's own address, never a Host header's
        token = link.group(1)
        phone = key()
        used = c.post("/api/signin", json={"token": token, "key": phone})
        assert used.status_code == 200 and used.json()["player"]["id"] == ann.id
        me = c.get("/api/me", headers={PLAYER_HEADER: phone}).json()
        assert me["player"]["name"] == "Ann" and me["player"]["email_verified"] is True
        assert c.post("/api/signin", json={"token": token, "key": key()}).status_code == 404
        # a device link is not a sign-in link, nor the other way round
        device = ann.post("/api/me/device-link").json()["path"].split("#")[1]
        assert c.post("/api/signin", json={"token": device, "key": key()}).status_code == 404


def test_unknown_addresses_get_the_same_answer_and_mails_are_rate_limited(
        tmp_path: Path, smtp: Any) -> None:
    port, inbox = smtp
    with client(tmp_path / "r.db", smtp_url=f"smtp://127.0.0.1:{port}",
                public_url="https://cards.example.org") as c:
        ann = Who(c, "Ann")
        ann.post("/api/me", {"email": "ann@example.org"})
        nobody = c.post("/api/signin/mail", json={"email": "nobody@example.org"})
        assert nobody.json() == {"ok": True, "message": SIGNIN_ANSWER}
        for _ in range(5):
            r = c.post("/api/signin/mail", json={"email": "ann@example.org"})
            assert r.json() == nobody.json()
        got = [inbox.mails.get(timeout=20) for _ in range(3)]
        assert all(to == ["ann@example.org"] for to, _ in got)
        with pytest.raises(queue.Empty):  # the fourth and fifth were not sent
            inbox.mails.get(timeout=2)
        assert c.post("/api/signin/mail", json={"email": "not an address"}).status_code == 400


def test_without_smtp_no_mail_is_offered(tmp_path: Path) -> None:
    with client(tmp_path / "n.db") as c:
        r = c.post("/api/signin/mail", json={"email": "ann@example.org"})
        assert r.status_code == 404 and "--smtp-url" in r.json()["error"]
        assert "Send me a link" not in c.get("/signin").text


def test_serve_refuses_smtp_without_the_public_url_or_with_a_bad_url() -> None:
    import subprocess
    import sys

    run = [sys.executable, "-c", "import sys; from handfoot.cli import main; sys.exit(main())",
           "serve", "--port", "1"]
    done = subprocess.run([*run, "--smtp-url", "smtp://127.0.0.1:25"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0 and "--public-url" in done.stderr
    done = subprocess.run([*run, "--smtp-url", "http://mail", "--public-url",
                           "https://cards.example.org"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0 and "--smtp-url" in done.stderr
