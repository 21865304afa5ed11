"""Drag and drop onto the melds: a card dropped on a meld joins that meld or none (with
the reason why it cannot go there, nothing sent); a single card dropped on the meld area
starts a staged new meld, which grows as more cards are dropped on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e_helpers import Seat, kind_of, new_game, shoot
from playwright.sync_api import Page, expect

# the name picks the deal (see e2e_server.py): after some 15 decisions the person's side has
# a meld of queens and an all-wild meld, and the hand holds pairs of naturals of other ranks
NAME = "Gwen"


def drag(page: Page, key: str, target: str) -> None:
    """The card of ``key`` dragged by the mouse onto the middle of ``target``."""
    card = page.locator(f'#hand .hand-card[data-key="{key}"]').bounding_box()
    box = page.locator(target).first.bounding_box()
    assert card is not None and box is not None
    mouse = page.mouse
    mouse.move(card["x"] + 10, card["y"] + 12)
    mouse.down()
    mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    mouse.up()


def test_drops_on_a_meld_and_a_new_meld_built_card_by_card(
        new_context: Any, live_server: str, shots_dir: Path) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    seats=[{"kind": "human", "name": NAME}]
                    + [{"kind": "bot", "level": "hard"}] * 3)
    page = new_context().new_page()
    moves: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda p: moves.append(str(p))
                                          if '"type":"move"' in str(p) else None))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(game["seats"][0]["link"])
    seat = Seat(page)
    seat.wait_ready()
    for _ in range(300):
        point = seat.wait_point()
        assert point != "over", "the round ended before the side had melds"
        view = seat.view()
        melds = view["melds"][view["side"]]
        if point == "turn" and view["phase"] == "play" and melds:
            hand = [kind_of(c) for c in view["hand"]]
            pair = next((k for k in view["kinds"] if k["new"] and not k["melds"]
                         and k["kind"] not in ("2", "JK")
                         and hand.count("T" if k["kind"] == "10" else k["kind"]) >= 2), None)
            other = next((i for i, m in enumerate(melds)
                          if pair and m["target"] not in ("wild", pair["kind"])), None)
            if pair is not None and other is not None:
                break
        seat.take_turn()
    else:
        raise AssertionError("never a hand to try the drops with")
    kind = "T" if pair["kind"] == "10" else pair["kind"]
    keys = [k for k in page.evaluate(
        "() => [...document.querySelectorAll('#hand .hand-card')].map(b => b.dataset.key)")
        if kind_of(k.split("#")[0]) == kind]
    sent = len(moves)
    message = page.locator("#message")

    # onto a meld of another rank: refused with why, nothing sent, no other meld joined
    drag(page, keys[0], f'#my-side button.tb-meld[data-meld="{other}"]')
    expect(message).to_contain_text("a meld holds one rank")
    expect(message).not_to_contain_text("at least 3 cards")
    shoot(page, shots_dir, "drop-refused-laptop")
    wild = next((i for i, m in enumerate(melds) if m["target"] == "wild"), None)
    if wild is not None:
        seat.clear_selection()
        drag(page, keys[0], f'#my-side button.tb-meld[data-meld="{wild}"]')
        expect(message).to_contain_text("an all-wild meld holds only wild cards")
    assert len(moves) == sent, moves[sent:]
    assert len(seat.hand()) == len(view["hand"])

    # one card on the meld area: a staged new meld; the next one dropped on it grows it
    seat.clear_selection()
    drag(page, keys[0], "#my-side .tb-melds")
    group = page.locator("#tray .tray-group")
    expect(group).to_have_count(1)
    expect(group.locator(".tray-cards svg")).to_have_count(1)
    expect(message).not_to_contain_text("at least 3 cards")
    drag(page, keys[1], "#tray .tray-group")
    expect(group).to_have_count(1)
    expect(group.locator(".tray-cards svg")).to_have_count(2)
    shoot(page, shots_dir, "drop-staged-laptop")
    assert len(moves) == sent, moves[sent:]
    page.locator("#btn-untray-all").click()
    expect(page.locator("#tray")).to_be_hidden()
    assert not errors, errors
