"""Two people as partners, each in their own browser context: one asks "May I go out?",
the other answers in the dialog on their own page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_helpers import QUICK, Seat, new_game, shoot, split_hint, to_act
from playwright.sync_api import expect


def test_partner_asks_permission_to_go_out(new_context: Any, live_server: str,
                                           shots_dir: Path) -> None:
    # with these names (they pick the deal) Lily asks after some 30 decisions, going out
    # with three melds, one of them a joker added to the 9s
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[
                        {"kind": "human", "name": "Nan"},
                        {"kind": "bot", "level": "random"},
                        {"kind": "human", "name": "Lily"},
                        {"kind": "bot", "level": "random"}])
    seats: dict[int, Seat] = {}
    for i, mode in ((0, "keys"), (2, "click")):  # Lily asks by a click, Nan answers Y
        page = new_context().new_page()
        page.goto(game["seats"][i]["link"])
        seats[i] = Seat(page, mode)
        seats[i].wait_ready()
    # each sees the other connected
    expect(seats[0].page.locator('.seat-panel:has-text("Lily") .presence')).to_have_text("online")
    expect(seats[2].page.locator('.seat-panel:has-text("Nan") .presence')) \
        .to_have_text("online")

    asked = answered = 0
    for _ in range(400):
        # seat 0's page must have seen the last move made through either page
        who = to_act(seats[0], {0, 2}, max(s.seq() for s in seats.values()))
        if who is None:
            break
        me, partner = seats[who], seats[2 - who]
        point = me.wait_point()
        if point == "over":
            break
        move = me.hint()
        kind = split_hint(move)[0]
        if point == "answer":
            # the question arrived as a dialog on this page, naming the partner
            asker = "Lily" if who == 0 else "Nan"
            expect(me.page.locator("#dlg-ask")).to_be_visible()
            expect(me.page.locator("#ask-text")).to_have_text(f"{asker} asks: may I go out?")
            if answered == 0:
                shoot(me.page, shots_dir, "ask-laptop")
            assert me.answer(kind == "yes")
            answered += 1
            if kind == "yes":
                break
            continue
        if not me.do(move):
            me.fallback(move)
            continue
        if kind == "goout":
            asked += 1
            # the asker waits for the answer; the partner's page shows the question
            expect(me.page.locator("#status")).to_contain_text("answer")
            expect(me.page.locator("#log")).to_contain_text("You ask: may I go out?")
            expect(partner.page.locator("#dlg-ask")).to_be_visible()
    assert asked >= 1 and answered >= 1
    for seat in seats.values():
        expect(seat.page.locator("#overlay table.breakdown")).to_be_visible()
        expect(seat.page.locator("#overlay")).to_contain_text("went out")
