"""The daily deal: play today's deal from the daily page to the end, then find the result
on the leaderboard."""

from __future__ import annotations

import re
from typing import Any

from e2e_helpers import Seat
from playwright.sync_api import expect


def test_daily_deal_and_leaderboard(new_context: Any, live_server: str) -> None:
    page = new_context().new_page()
    page.goto("/daily")
    expect(page.locator("#board")).to_contain_text("Nobody has finished today's deal yet")
    page.locator("#daily-name").fill("Dana")
    page.locator("#daily-play").click()
    page.wait_for_url(re.compile(r"/game/[^#]+#t="))
    seat = Seat(page)
    seat.wait_ready()
    expect(page.locator("#round-info")).to_contain_text("Round 1 of 1")
    seat.play_until_over()
    view = seat.view()
    assert view["phase"] == "game_over"
    score = view["scores"]["totals"][view["side"]]
    won = view["side"] in view["winners"]
    expect(page.locator("#overlay table.breakdown")).to_be_visible()

    page.goto("/daily")
    row = page.locator("#board tbody tr", has_text="Dana")
    expect(row).to_have_count(1)
    expect(row.locator("td.num")).to_have_text(f"{score:,}")
    expect(row).to_contain_text("won" if won else "lost")
    expect(row.locator("td.rank")).to_have_text("1")
    expect(page.locator("#seed-note")).to_contain_text("stays secret")
