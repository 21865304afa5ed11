"""A turn notice's e-mail address in Chromium, on a server that sends mail (a local SMTP
server, aiosmtpd): the Notices menu says a link was mailed and nothing comes before it is
opened; the link's page confirms by itself (its form sent by its script, under the site's
CSP), and the menu then says the e-mail goes to the address."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from e2e_helpers import post
from playwright.sync_api import expect


def test_a_notice_address_is_confirmed_from_the_mailed_link(
        browser: Any, mail_site: tuple[str, Any], shots_dir: Path) -> None:
    base, inbox = mail_site
    game = post(base, "/api/games", {
        "profile": "biegames", "layout": "2x1",
        "seats": [{"kind": "human", "name": "Ann"},
                  {"kind": "bot", "level": "easy", "name": "Bot"}],
        "correspondence": {"per_move": 3600, "on_timeout": "bot"}})
    ctx = browser.new_context(base_url=base, viewport={"width": 1366, "height": 900})
    ctx.set_default_timeout(30_000)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(game["seats"][0]["link"])
        expect(page.locator("#notices")).to_be_visible()
        page.locator("#notices summary").click()
        expect(page.locator("#notices-mail")).to_be_visible()  # this server sends mail
        page.fill("#notices-email", "ann@example.org")
        page.locator("#notices-mail button[type=submit]").click()
        expect(page.locator("#notices-status")).to_contain_text(
            "We sent a link to ann@example.org")
        page.screenshot(path=str(shots_dir / "notices-confirm-laptop.png"))
        assert len(inbox.mails) == 1  # (sent before the answer) the link, nothing else
        _, to, mail = inbox.mails[0]
        assert to == ["ann@example.org"]
        assert mail["Subject"] == "Confirm your Hand and Foot turn notices"
        text = mail.get_content()
        link = re.search(re.escape(base) + r"(/notices/confirm\?c=[0-9a-f]{64})", text)
        assert link is not None, text
        confirm = ctx.new_page()
        confirm.on("pageerror", lambda exc: errors.append(str(exc)))
        confirm.goto(link.group(1))
        expect(confirm.locator("#confirmed")).to_be_visible()  # sent by its own script
        confirm.screenshot(path=str(shots_dir / "notices-confirmed-laptop.png"))
        page.reload()
        page.locator("#notices summary").click()
        expect(page.locator("#notices-status")).to_contain_text(
            "E-mail goes to ann@example.org")
        assert errors == []
    finally:
        ctx.close()
