"""The keyboard's focus: after a card leaves the hand it moves to a neighbouring card (not
to the page, which cost a keyboard player a Tab round of the page each turn); at the end of
the game the score overlay is modal (the table behind it inert): Replay is the first Tab
stop, and Tab stays in the overlay."""

from __future__ import annotations

from typing import Any

from e2e_helpers import QUICK, Seat, kind_of, new_game, norm_kind
from playwright.sync_api import expect

ACTIVE = """() => { const a = document.activeElement;
  return a && a !== document.body ? (a.dataset.key ? 'card ' + a.dataset.key
    : (a.closest('#overlay') ? 'overlay ' : 'page ') + (a.id || a.textContent.trim().slice(0, 30)))
    : 'body'; }"""


def test_focus_stays_in_the_hand_after_a_discard_by_keys(new_context: Any,
                                                         live_server: str) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "human", "name": "Kay"}]
                    + [{"kind": "bot", "level": "easy"}] * 3)
    page = new_context().new_page()
    page.goto(game["seats"][0]["link"])
    seat = Seat(page, "keys")
    seat.wait_ready()
    for _ in range(40):
        assert seat.wait_point() == "turn"
        view = seat.view()
        if view["phase"] == "draw":
            assert seat.act("draw"), seat.state()
            continue
        allowed = {norm_kind(k) for k in view["legal"]["discard"]}
        break
    else:
        raise AssertionError("never a discard")
    code = next(c for c in seat.hand() if kind_of(c) in allowed)
    assert seat.select([kind_of(code)])
    assert page.evaluate(ACTIVE).startswith("card "), page.evaluate(ACTIVE)
    assert seat.act("discard"), seat.state()
    # the discarded card's neighbour has the focus, not the page
    page.wait_for_function("() => document.activeElement && document.activeElement.dataset"
                           " && !!document.activeElement.dataset.key")
    assert page.evaluate(ACTIVE).startswith("card "), page.evaluate(ACTIVE)


def test_the_end_overlay_is_modal_and_replay_is_the_first_tab_stop(new_context: Any,
                                                                   live_server: str) -> None:
    game = new_game(live_server, profile="partnership-13", layout="2x2", rounds=1,
                    overrides=QUICK, seats=[{"kind": "bot", "level": "easy"}] * 4)
    page = new_context().new_page()
    page.goto(game["spectator_link"])
    expect(page.locator("#overlay table.breakdown")).to_be_visible(timeout=60_000)
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE) == "overlay Replay", page.evaluate(ACTIVE)
    seen = []
    for _ in range(12):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(ACTIVE))
    # the table behind is inert: no Tab stop outside the overlay (the browser's own may
    # come between the last and the first)
    assert all(s.startswith("overlay ") or s == "body" for s in seen), seen
    assert page.locator("#table .tb-top").evaluate("e => e.closest('[inert]') !== null")
    # Look at the table lets the table be used again
    page.locator("#btn-hide-overlay").click()
    expect(page.locator("#overlay")).to_be_hidden()
    assert page.locator("#table .tb-top").evaluate("e => e.closest('[inert]') === null")
