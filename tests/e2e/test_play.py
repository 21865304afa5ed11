"""A whole one-round game in the browser, as the person against three bots."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import Seat, new_game
from playwright.sync_api import expect

QUICK = {"hand_size": 7, "foot_size": 5, "clean_books_to_go_out": 0,
         "dirty_books_to_go_out": 0, "wild_books_to_go_out": 0, "partner_condition": "none"}


@pytest.mark.parametrize("mode", ["click", "keys"])
def test_one_round_against_three_bots(new_context: Any, live_server: str, mode: str) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": "Ann"}]
                    + [{"kind": "bot", "level": "hard"}] * 3)
    page = new_context().new_page()
    page.goto(game["seats"][0]["link"])
    seat = Seat(page, mode)
    seat.wait_ready()
    seat.play_until_over()
    overlay = page.locator("#overlay")
    expect(overlay).to_be_visible()
    expect(overlay.locator("table.breakdown")).to_be_visible()
    expect(overlay.locator("svg").first).to_be_visible()
    print(mode, seat.moves_sent, seat.fallbacks, seat.hints)
