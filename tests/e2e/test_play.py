"""A whole one-round game in the browser, as the person against three bots: by clicks and
by keys, to the round's breakdown."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import QUICK, Seat, new_game, split_hint
from playwright.sync_api import expect

# the names pick the deal (see e2e_server.py); in both deals the person picks up the pile
# and goes out with several melds and a discard (by keys: a 2 added to the 9s among them)
NAMES = {"click": "Kim", "keys": "Lex"}


@pytest.mark.parametrize("mode", ["click", "keys"])
def test_one_round_against_three_bots(new_context: Any, live_server: str, mode: str) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": NAMES[mode]}]
                    + [{"kind": "bot", "level": "hard"}] * 3)
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(game["seats"][0]["link"])
    seat = Seat(page, mode)
    seat.wait_ready()
    expect(page.locator("#conn")).to_have_text("connected")
    undone = dragged = False
    for _ in range(300):
        if mode == "click" and not dragged and seat.wait_point() == "turn" \
                and seat.view()["phase"] == "play" and seat.hint().startswith("discard"):
            # once, the discard by dragging the card onto the pile
            assert seat.drag_discard(split_hint(seat.hints[-1])[2] or ""), seat.state()
            dragged = True
            continue
        if seat.take_turn() == "over":
            break
        view = seat.view()
        if not undone and seat.hints[-1].startswith("meld") and view["legal"]["undo"]:
            # take the meld back (Undo, U): the cards return to the hand
            assert seat.act("undo"), seat.state()
            assert len(seat.hand()) > len(view["hand"])
            undone = True
    assert undone and (dragged or mode == "keys")
    assert seat.moves_sent >= 5
    assert not [f for f in seat.fallbacks if f.startswith("refused")], seat.fallbacks
    # the round's breakdown: a line per score item for both sides, the totals, the chart
    overlay = page.locator("#overlay")
    expect(overlay).to_be_visible()
    table = overlay.locator("table.breakdown")
    expect(table).to_be_visible()
    # a side's count and points in columns of their own (not "3 × 1,500")
    expect(table.locator("thead tr").first.locator("th")).to_have_count(3)
    expect(table.locator("thead tr.sub th")).to_have_count(4)
    expect(table.locator("tbody tr").first.locator("td")).to_have_count(4)
    assert "×" not in table.inner_text()
    expect(table.locator("tfoot")).to_contain_text("Game total")
    expect(overlay.locator(".tb-chart-box svg").first).to_be_visible()
    expect(overlay.locator("#btn-rematch")).to_be_visible()
    # the banner names the winners as the scoreline names the sides
    view = seat.view()
    names = page.locator("#scoreline .score b").all_inner_texts()
    title = overlay.locator(".banner h2").inner_text()
    assert all(names[w] in title for w in view["winners"]), (names, title)
    assert not errors, errors
