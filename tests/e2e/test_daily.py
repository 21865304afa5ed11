"""The daily deal: play today's deal from the daily page to the end, then find the result
on the leaderboard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from e2e_helpers import Seat, shoot
from playwright.sync_api import expect


def test_daily_deal_and_leaderboard(new_context: Any, live_server: str,
                                    shots_dir: Path) -> None:
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
    # the game is over: the page says so (not "You have started"), with a link one can see
    status = page.locator("#daily-status")
    expect(status).to_contain_text("You have played today's deal")
    expect(status).not_to_contain_text("You have started")
    link = status.locator("a")
    expect(link).to_be_visible()
    assert contrast(link) >= 4.5
    shoot(page, shots_dir, "daily-after-game-laptop")


def contrast(locator: Any) -> float:
    """The contrast ratio of an element's text colour against its nearest background."""
    return float(locator.evaluate(r"""(el) => {
      const rgb = (s) => s.match(/[\d.]+/g).slice(0, 4).map(Number);
      const lum = ([r, g, b]) => { const f = (c) => { c /= 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
      let bg = el, b = null;
      while (bg) { b = rgb(getComputedStyle(bg).backgroundColor);
        if (b.length < 4 || b[3] > 0) break; bg = bg.parentElement; }
      const fg = lum(rgb(getComputedStyle(el).color)), back = lum(b);
      return (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05); }"""))


def test_equal_scores_share_a_place(new_context: Any) -> None:
    page = new_context().new_page()
    board = {"date": "2026-01-01", "seed": None, "settings": None, "leaderboard": [
        {"name": "Ann", "score": 900, "finished": True, "won": True},
        {"name": "Bea", "score": 1200, "finished": True, "won": True},
        {"name": "Cy", "score": 1200, "finished": True, "won": True},
        {"name": "Dee", "score": 0, "finished": False, "won": False}]}
    page.route("**/api/daily/*", lambda route: route.fulfill(json=board))
    page.goto("/daily")
    ranks = page.locator("#board tbody td.rank")
    expect(ranks).to_have_count(4)
    assert ranks.all_inner_texts() == ["1", "1", "3", ""]
