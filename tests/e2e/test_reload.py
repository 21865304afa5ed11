"""A person reloads the page in the middle of a turn and carries on."""

from __future__ import annotations

from typing import Any

from e2e_helpers import QUICK, Seat, kind_of, new_game
from playwright.sync_api import expect


def test_reload_mid_turn(new_context: Any, live_server: str) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": "Rita"}]
                    + [{"kind": "bot", "level": "hard"}] * 3)
    page = new_context().new_page()
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()
    # a couple of turns, then stop in the middle of one: drawn, not yet discarded
    for _ in range(40):
        seat.wait_point()
        view = seat.view()
        if view["phase"] == "play" and view["round"] == 1 and seat.moves_sent >= 3:
            break
        seat.take_turn()
    else:
        raise AssertionError("never in the middle of a turn")
    assert seat.wait_point() == "turn"
    before, seq = seat.view(), seat.seq()
    log_before = page.locator("#log li").count()
    assert log_before > 0
    seat.select([kind_of(before["hand"][0])])  # a selection in progress is the page's own

    page.reload()
    seat.wait_ready()
    expect(page.locator("#conn")).to_have_text("connected")
    # the same seat, the same table: the view is the one before the reload, card for card
    assert seat.app("a.seat") == 0
    assert seat.seq() == seq
    assert seat.view() == before
    expect(page.locator("#status")).to_have_text("Your turn: meld, then discard")
    expect(page.locator("#hand .hand-card")).to_have_count(len(before["hand"]))
    expect(page.locator("#log li")).not_to_have_count(0)

    # and the next move is accepted
    assert seat.take_turn() == "turn"
    assert seat.seq() > seq
    assert not seat.fallbacks, seat.fallbacks
    # the game goes on: the bots play, the turn comes back
    assert seat.wait_point() in ("turn", "answer", "over")
