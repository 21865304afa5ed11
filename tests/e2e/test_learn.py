"""First-game mode (a hint for every decision): the hint stays shown after a refused move,
and its reason says why the move pays rather than naming the move again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_helpers import QUICK, Group, Seat, kind_of, new_game, shoot
from playwright.sync_api import expect


def test_the_hint_stays_after_a_refused_move(new_context: Any, live_server: str,
                                             shots_dir: Path) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": "Lee"}]
                    + [{"kind": "bot", "level": "easy"}] * 3)
    page = new_context().new_page()
    page.goto(game["seats"][0]["link"].replace("#", "?learn=1#"))
    seat = Seat(page)
    seat.wait_ready()
    hint = page.locator("#message .hint-move")
    for _ in range(20):
        assert seat.wait_point() == "turn"
        if seat.view()["phase"] == "play" and not seat.opened():
            break
        seat.take_turn()
    else:
        raise AssertionError("never a turn to meld before the side opened")
    expect(hint).to_be_visible()  # first-game mode hints by itself
    shown = hint.get_attribute("data-move")
    # one natural card laid down as an opening: refused beside the staged melds
    code = next(c for c in seat.hand() if kind_of(c) not in ("2", "JK", "B3", "R3"))
    assert seat.stage(Group([kind_of(code)]))
    page.locator("#btn-laydown").click()
    expect(page.locator("#tray .tray-check[role=alert]")).to_contain_text("Not allowed")
    expect(hint).to_be_visible()
    assert hint.get_attribute("data-move") == shown
    shoot(page, shots_dir, "learn-hint-after-refusal-laptop")
    # the coach's reason says why, not the move again
    expect(page.locator("#message")).not_to_contain_text("meld your")
    page.locator("#btn-untray-all").click()
    expect(hint).to_be_visible()
